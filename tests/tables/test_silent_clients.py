"""A browser that goes silent (frozen, cut off) is closed within seconds and its seat shown
offline to the others, as if it had closed: its turns are then the timer's.

`salon serve` runs as a subprocess with short ping settings. A seated player's socket stops
reading — so it answers no ping any more, while its TCP connection stays open, as behind a
frozen machine — and the player watching must see that seat go offline.
"""

from __future__ import annotations

from tests.live import RestartableServer, demo_password
from tests.tables.harness import Player, log_in


def told(player: Player, kind: str, seat: int) -> bool:
    return any(
        f["type"] == "event" and f["kind"] == kind and f["data"].get("seat") == seat
        for f in player.frames
    )


async def test_a_silent_client_is_closed_and_shown_offline(pg_env: dict[str, str]) -> None:
    env = {**pg_env, "SALON_WS_PING_SECONDS": "0.5", "SALON_WS_PING_TIMEOUT_SECONDS": "1"}
    server = RestartableServer(env)
    server.start()
    members = demo_password(env, "member")
    try:
        admin = await log_in(server.host, "admin", demo_password(env, "admin"))
        created = await admin.post(
            "/api/tables",
            {
                "name": "Silence",
                "game": "bourre",
                "seat_count": 4,
                "buy_in_min": 20,
                "buy_in_max": 300,
            },
        )
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        alice, bob = [await log_in(server.host, name, members) for name in ("alice", "bob")]
        seated = await bob.post(
            f"/api/tables/{table_id}/seat",
            {"seat": 1, "buy_in": 100, "request_key": "sit-down-bob"},
        )
        assert seated.status_code == 200, seated.text
        await alice.open(table_id)
        await bob.open(table_id)
        # The page is told the timings it pings by.
        await bob.wait_for(lambda p: any(f["type"] == "liveness" for f in p.frames))
        liveness = next(f for f in bob.frames if f["type"] == "liveness")
        assert liveness == {"type": "liveness", "ping_seconds": 0.5, "timeout_seconds": 1.0}
        await alice.wait_for(lambda p: told(p, "online", 1))

        assert bob.ws is not None
        bob.ws.transport.pause_reading()  # frozen: nothing read, no ping answered
        await alice.wait_for(lambda p: told(p, "offline", 1), seconds=10)
        for player in (admin, alice, bob):
            await player.http.aclose()
        await alice.close()
    finally:
        server.stop()
