"""A club table where bots an admin seated play each other without a person: the ledger
moves several times a second, for tests that need a club at play (backups, upgrades)."""

from __future__ import annotations

from tests.tables.harness import Player

# `salon serve`'s settings for it: bots that never think, hands that follow at once.
QUICK_PLAY = {
    "SALON_NEXT_HAND_SECONDS": "0.2",
    "SALON_BOT_THINK_MIN_SECONDS": "0",
    "SALON_BOT_THINK_MAX_SECONDS": "0",
}
BOTS = 3


async def open_bots_table(admin: Player, name: str) -> int:
    """Open a Bourré table and seat three bots at it (they start dealing); its id."""
    made = await admin.post(
        "/api/tables",
        {"name": name, "game": "bourre", "seat_count": BOTS, "buy_in_min": 20, "buy_in_max": 300},
    )
    assert made.status_code == 201, made.text
    table_id = int(made.json()["id"])
    for seat in range(BOTS):
        seated = await admin.post(
            f"/api/tables/{table_id}/bots",
            {"level": "random", "seat": seat, "request_key": f"{name}-bot-{seat:04d}".lower()},
        )
        assert seated.status_code == 200, seated.text
    return table_id
