"""Kill -9 and start again: a table version, once shown, never names another event.

Seat events are not stored with their version, so a restarted table cannot carry on from
the last version it showed. A page that saw `seated` at version N and reconnects with N
after the restart must not be told "nothing new" while another event has taken N, and no
viewer may be shown a version that named a different event before the kill.
"""

from __future__ import annotations

from typing import Any

from tests.live import RestartableServer, demo_password
from tests.tables.harness import Player, log_in

# (kind, data) of an event frame: what its version names.
Told = tuple[str, str]


def told(frames: list[dict[str, Any]]) -> dict[int, Told]:
    return {f["version"]: (f["kind"], repr(f["data"])) for f in frames if f["type"] == "event"}


def seated_at(player: Player, seat: int) -> bool:
    return any(
        f["type"] == "event" and f["kind"] == "seated" and f["data"].get("seat") == seat
        for f in player.frames
    )


async def sit(player: Player, table_id: int, seat: int) -> None:
    answer = await player.post(
        f"/api/tables/{table_id}/seat",
        {"seat": seat, "buy_in": 100, "request_key": f"sit-down-{player.username}"},
    )
    assert answer.status_code == 200, answer.text


async def test_a_version_shown_before_a_kill_never_names_another_event(
    pg_env: dict[str, str],
) -> None:
    server = RestartableServer(pg_env)
    server.start()
    members = demo_password(pg_env, "member")
    try:
        admin = await log_in(server.host, "admin", demo_password(pg_env, "admin"))
        created = await admin.post(
            "/api/tables",
            {
                "name": "Versions",
                "game": "bourre",
                "seat_count": 5,
                "buy_in_min": 20,
                "buy_in_max": 300,
            },
        )
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        alice, bob, carol, dave, emile = [
            await log_in(server.host, name, members)
            for name in ("alice", "bob", "carol", "dave", "emile")
        ]

        # Alice watches Bob sit down, then the server is killed.
        await alice.open(table_id)
        await alice.wait_for(lambda p: p.snapshot is not None)
        await sit(bob, table_id, 0)
        await alice.wait_for(lambda p: seated_at(p, 0) and p.version >= max(told(p.frames)))
        last_seen = alice.version
        before = told(alice.frames)
        server.kill()
        await alice.close()

        # After the restart Dave watches Carol sit down while Alice is away; then Alice's
        # page reconnects with the last version it saw, and both see Emile sit down.
        server.start()
        await dave.open(table_id)
        await dave.wait_for(lambda p: p.snapshot is not None)
        await sit(carol, table_id, 1)
        await dave.wait_for(lambda p: seated_at(p, 1))
        mark = len(alice.frames)
        await alice.open(table_id, version=last_seen)
        await alice.wait_for(lambda p: any(f["type"] == "snapshot" for f in p.frames[mark:]))
        first = next(
            i for i in range(mark, len(alice.frames)) if alice.frames[i]["type"] == "snapshot"
        )
        replayed, caught_up = told(alice.frames[mark:first]), alice.frames[first]["version"]
        await sit(emile, table_id, 2)
        for player in (alice, dave):
            await player.wait_for(lambda p: seated_at(p, 2))

        after = {**told(dave.frames), **told(alice.frames[mark:])}
        reused = {v: (before[v], after[v]) for v in before.keys() & after.keys()}
        assert all(old == new for old, new in reused.values()), reused
        # The reconnected page is sent what it missed, or a full view alone: never a part.
        missed = {v: e for v, e in told(dave.frames).items() if last_seen < v <= caught_up}
        assert replayed in ({}, missed), (replayed, missed)
        for player in (admin, alice, bob, carol, dave, emile):
            await player.close()
            await player.http.aclose()
    finally:
        server.stop()
