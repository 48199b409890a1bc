"""Kill -9 in the middle of a hand, start again: the same hand goes on, nothing is lost.

`salon serve` runs as a subprocess on a fresh Postgres database. Players play over real
WebSockets into a chosen point of a hand (the declaration, the draw, the middle of a trick,
the very last card), the server is killed with SIGKILL and started again, and every
player's view must be what it was: same hand, same cards, same turn, same chips. The hand
is then played out and `salon audit` must pass with every chip accounted for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.live import RestartableServer, demo_password, salon
from tests.tables.harness import Player, hand_state, log_in

MEMBERS = ["alice", "bob", "carol", "dave"]
TOTAL = 5 * 1000  # the demo grants 1000 chips to each of its five members


POINTS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "declaration": lambda h: (
        h["phase"] == "declare" and any(s["status"] in ("playing", "passed") for s in h["seats"])
    ),
    "draw": lambda h: h["phase"] == "draw",
    "mid_trick": lambda h: (
        h["phase"] == "tricks" and len(h["tricks"]) >= 1 and len(h["trick"]) >= 1
    ),
    # The next card ends the hand: kill right after sending it.
    "last_card": lambda h: (
        h["phase"] == "tricks"
        and len(h["tricks"]) == h["hand_size"] - 1
        and len(h["trick"]) == sum(1 for s in h["seats"] if s["status"] == "playing") - 1
    ),
}


async def step(players: dict[int, Player], rng: random.Random) -> bool:
    """One random legal action by whoever is to act; False when no hand is running."""
    watcher = next(iter(players.values()))
    hand = watcher.hand
    if hand is None or hand.get("phase") == "over":
        return False
    seat = hand["to_act"][0]
    player = players[seat]
    await player.wait_for(lambda p, v=watcher.version: p.version >= v)
    legal = (player.hand or {}).get("legal_actions") or []
    playing = [a for a in legal if a["action"] == "play"]
    choice = dict(playing[0] if playing else rng.choice(legal))
    before = player.version
    await player.act(choice)
    await player.wait_for(lambda p, v=before: p.version > v or bool(p.errors()))
    assert not player.errors(), player.errors()
    for other in players.values():
        await other.wait_for(lambda p, v=player.version: p.version >= v)
    return True


async def balance(player: Player) -> int:
    return int((await player.http.get("/api/me")).json()["balance"])


async def visit(admin: Player, table_id: int, secret: str, point: str) -> None:
    """After a restart, a fifth member sits down, tops up and stands up, while the table is
    paused so that no new hand deals him in: every chip comes back, however often this was
    done before."""
    paused = await admin.post(f"/api/tables/{table_id}/pause")
    assert paused.status_code == 200, paused.text
    emile = await log_in(admin.host, "emile", secret)
    try:
        start = await balance(emile)
        seated = await emile.post(
            f"/api/tables/{table_id}/seat", {"buy_in": 100, "request_key": f"visit-{point}"}
        )
        assert seated.status_code == 200, seated.text
        topped = await emile.post(
            f"/api/tables/{table_id}/top-up", {"amount": 50, "request_key": f"visit-{point}"}
        )
        assert topped.json() == {"stack": 150}, topped.text
        left = await emile.post(f"/api/tables/{table_id}/stand")
        assert left.json() == {"left": True, "returned": 150}, left.text
        assert await balance(emile) == start == 1000
    finally:
        await emile.http.aclose()
    resumed = await admin.post(f"/api/tables/{table_id}/resume")
    assert resumed.status_code == 200, resumed.text


async def test_a_killed_server_restarts_into_the_same_hand(pg_env: dict[str, str]) -> None:
    server = RestartableServer(pg_env)
    server.start()
    members = demo_password(pg_env, "member")
    try:
        admin = await log_in(server.host, "admin", demo_password(pg_env, "admin"))
        created = await admin.post(
            "/api/tables",
            {
                "name": "Crash",
                "game": "bourre",
                "seat_count": 5,
                "buy_in_min": 20,
                "buy_in_max": 300,
                "turn_seconds": 600,
            },
        )
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        players: dict[int, Player] = {}
        for n, name in enumerate(MEMBERS):
            players[n] = await log_in(server.host, name, members)
            seated = await players[n].post(
                f"/api/tables/{table_id}/seat",
                {"seat": n, "buy_in": 200, "request_key": f"sit-{name}-0001"},
            )
            assert seated.status_code == 200, seated.text
        rng = random.Random(8)
        for point, reached in POINTS.items():
            for player in players.values():
                await player.open(table_id)
            for _ in range(20):  # hands until one reaches this point
                for player in players.values():
                    await player.wait_for(
                        lambda p: p.hand is not None and p.hand.get("phase") != "over", 15
                    )
                while players[0].hand and not reached(players[0].hand):
                    if not await step(players, rng):
                        break
                if players[0].hand and reached(players[0].hand):
                    break
            assert players[0].hand and reached(players[0].hand), point
            if point == "last_card":
                hand = players[0].hand
                seat = hand["to_act"][0]
                card = players[seat].hand["legal_actions"][0]  # type: ignore[index]
                await players[seat].act(card)
                before = None  # the hand may or may not have been stored as over
            else:
                before = {n: hand_state(p) for n, p in players.items()}
            server.kill()
            for player in players.values():
                await player.close()
            server.start()
            for player in players.values():
                await player.open(table_id)
                await player.wait_for(lambda p: p.snapshot is not None)
            if before is not None:
                after = {n: hand_state(p) for n, p in players.items()}
                assert after == before, point
            await visit(admin, table_id, members, point)
            while await step(players, rng):
                pass
            for player in players.values():
                await player.close()
        # Everybody stands up: each gets exactly their stack back; the pot goes back on close.
        assert (await admin.post(f"/api/tables/{table_id}/pause")).status_code == 200
        if (await admin.http.get(f"/api/tables/{table_id}")).json()["hand_in_progress"]:
            for player in players.values():
                await player.open(table_id)
                await player.wait_for(lambda p: p.snapshot is not None)
            while await step(players, rng):
                pass
        for player in players.values():
            mine = await balance(player)
            seat = next(
                s
                for s in (await player.http.get(f"/api/tables/{table_id}")).json()["seats"]
                if s["username"] == player.username
            )
            left = await player.post(f"/api/tables/{table_id}/stand")
            assert left.status_code == 200, left.text
            assert left.json() == {"left": True, "returned": seat["stack"]}
            assert await balance(player) == mine + seat["stack"]
        closed = await admin.post(f"/api/tables/{table_id}/close")
        assert closed.status_code == 200, closed.text
        emile = await log_in(server.host, "emile", members)
        total = sum([await balance(p) for p in players.values()]) + await balance(emile)
        assert total == TOTAL
        for player in [admin, emile, *players.values()]:
            await player.http.aclose()
    finally:
        server.stop()

    audit = salon("audit", env=pg_env)
    assert audit.returncode == 0, audit.stdout
    assert f"chips in circulation: {TOTAL}" in audit.stdout
