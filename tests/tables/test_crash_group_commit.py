"""Kill -9 while several tables' actions are being committed together (group commit).

Six tables play as fast as their players can act, so each commit carries actions of
several tables. The server is killed with SIGKILL in the middle of that and started again.
Then: every action a player saw take effect (acknowledged) is stored exactly once; every
action still unanswered at the kill is stored at most once; sent again with the same client
id after the restart, each such action ends stored exactly once — the server either knows
it (stored before the kill) or applies it now — and never twice. The ledger still
balances (`salon audit`).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from app.db.models import HandAction
from app.db.session import Database
from tests.live import RestartableServer, demo_password, salon
from tests.tables.harness import Player, log_in

PAIRS = [
    ("alice", "bob"),
    ("carol", "dave"),
    ("alice", "carol"),
    ("bob", "dave"),
    ("alice", "dave"),
    ("bob", "emile"),
]
KILLS = 2
IN_FLIGHT_AT_KILL = 3
_ids = itertools.count(1)


@dataclass
class Sent:
    table: int
    player: Player
    message: dict[str, Any]
    acknowledged: bool = False


@dataclass
class Table:
    table_id: int
    players: list[Player]
    sent: list[Sent] = field(default_factory=list)

    def in_flight(self) -> list[Sent]:
        return [s for s in self.sent if not s.acknowledged]


@dataclass
class Killer:
    """Kills the server the moment, once armed, actions of several tables are in flight."""

    server: RestartableServer
    tables: list[Table]
    armed: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)
    # The tables with an action in flight when the server was killed (some of those
    # actions may be answered afterwards from what the sockets had already received).
    in_flight_at_kill: set[int] = field(default_factory=set)

    def after_send(self) -> None:
        in_flight = {s.table for t in self.tables for s in t.in_flight()}
        if self.armed and not self.done.is_set() and len(in_flight) >= IN_FLIGHT_AT_KILL:
            self.server.kill()
            self.in_flight_at_kill = in_flight
            self.done.set()


async def play(table: Table, rng: random.Random, killer: Killer) -> None:
    """Act for whoever is to act, one action at a time, until cancelled. An action counts
    as acknowledged when its player sees the table move on (nothing else moves it here:
    no timer, no seat changes, no sockets opening)."""
    while True:
        # Every player at the same version: exactly one of them is to act, or none (the
        # hand is over, the next is being dealt).
        latest = max(p.version for p in table.players)
        for player in table.players:
            await player.wait_for(lambda p, v=latest: p.version >= v, 15)
        actor = next((p for p in table.players if _to_act(p)), None)
        if actor is None:
            await table.players[0].wait_for(lambda p, v=latest: p.version > v, 15)
            continue
        legal = (actor.hand or {})["legal_actions"]
        playing = [a for a in legal if a["action"] == "play"]
        choice = dict(playing[0] if playing else rng.choice(legal))
        choice.pop("seat", None)
        if "min" in choice:
            choice = {"action": choice["action"], "amount": choice["min"]}
        version = actor.version
        message = {"type": "action", "id": f"g{next(_ids)}", "version": version, **choice}
        sent = Sent(table.table_id, actor, message)
        table.sent.append(sent)
        await actor.send(message)
        killer.after_send()
        await actor.wait_for(lambda p, v=version: p.version > v or bool(p.errors()), 15)
        assert not actor.errors(), actor.errors()
        sent.acknowledged = True


def _to_act(player: Player) -> bool:
    hand = player.hand
    return (
        hand is not None
        and hand["phase"] != "over"
        and _seat_of(player) in hand["to_act"]
        and bool(hand.get("legal_actions"))
    )


def _seat_of(player: Player) -> int | None:
    return player.view["you"]["seat"] if player.snapshot else None


async def stored_times(db: Database, client_ids: list[str]) -> dict[str, int]:
    async with db.transaction() as session:
        rows = await session.execute(
            select(HandAction.client_id, func.count())
            .where(HandAction.client_id.in_(client_ids))
            .group_by(HandAction.client_id)
        )
        found = {client_id: int(count) for client_id, count in rows.all()}
    return {client_id: found.get(client_id, 0) for client_id in client_ids}


async def answered_once(db: Database, sent: Sent) -> int:
    """How often `sent` is stored, once the server has either stored it or refused it."""
    for _ in range(500):
        times = (await stored_times(db, [sent.message["id"]]))[sent.message["id"]]
        refused = any(f.get("ref") == sent.message["id"] for f in sent.player.errors())
        if times or refused:
            return times
        await asyncio.sleep(0.02)  # the server answers in milliseconds; this bounds the wait
    raise AssertionError(f"no answer to {sent.message}")


async def open_all(tables: list[Table]) -> None:
    for table in tables:
        for player in table.players:
            player.frames.clear()
            player.snapshot = None
            await player.open(table.table_id)
            await player.wait_for(lambda p: p.snapshot is not None)


async def close_all(tables: list[Table]) -> None:
    for table in tables:
        for player in table.players:
            await player.close()


async def test_a_kill_during_group_commits_loses_no_acknowledged_action_and_doubles_none(
    pg_env: dict[str, str],
) -> None:
    # Hands follow each other at once: the tables are seldom all between hands.
    server = RestartableServer(
        {**pg_env, "SALON_NEXT_HAND_SECONDS": "0.02", "SALON_GATHERING_SECONDS": "0.02"}
    )
    server.start()
    secret = demo_password(pg_env, "member")
    db = Database(pg_env["DATABASE_URL"], null_pool=True)
    tables: list[Table] = []
    admin: Player | None = None
    try:
        admin = await log_in(server.host, "admin", demo_password(pg_env, "admin"))
        for n, pair in enumerate(PAIRS):
            created = await admin.post(
                "/api/tables",
                {
                    "name": f"Group {n}",
                    "game": "bourre",
                    "seat_count": 4,
                    "buy_in_min": 20,
                    "buy_in_max": 300,
                    "turn_seconds": 600,
                },
            )
            assert created.status_code == 201, created.text
            table = Table(created.json()["id"], [])
            for name in pair:
                player = await log_in(server.host, name, secret)
                seated = await player.post(
                    f"/api/tables/{table.table_id}/seat",
                    {"buy_in": 150, "request_key": f"sit-{name}-{n:04}"},
                )
                assert seated.status_code == 200, seated.text
                table.players.append(player)
            tables.append(table)
        await open_all(tables)
        rng = random.Random(11)
        for kill in range(KILLS):
            killer = Killer(server, tables)
            robots = [asyncio.create_task(play(t, rng, killer)) for t in tables]
            # Play until commits carry several tables' actions, then kill mid-stream.
            for _ in range(200):
                await asyncio.sleep(0.05)
                writes = (await admin.http.get("/api/admin/latency")).json()["action_writes"]
                if writes["largest_write"] > 1 and writes["actions"] > 60 * (kill + 1):
                    break
            assert writes["largest_write"] > 1, writes
            killer.armed = True
            await asyncio.wait_for(killer.done.wait(), 30)
            crashed = [r for r in robots if r.done()]
            assert not crashed, [r.exception() for r in crashed]
            for robot in robots:
                robot.cancel()
            await asyncio.gather(*robots, return_exceptions=True)
            await close_all(tables)
            unanswered = [s for t in tables for s in t.in_flight()]
            # The kill found actions of several tables on their way to the database.
            assert len(killer.in_flight_at_kill) >= IN_FLIGHT_AT_KILL, unanswered

            every = [s for t in tables for s in t.sent]
            times = await stored_times(db, [s.message["id"] for s in every])
            lost = [s.message for s in every if s.acknowledged and times[s.message["id"]] != 1]
            assert not lost, lost
            assert all(times[s.message["id"]] <= 1 for s in unanswered), times

            server.start()
            await open_all(tables)
            # The unanswered actions again, with their ids and versions as first sent: the
            # server knows those stored before the kill, and applies the others now.
            for sent in unanswered:
                await sent.player.send(sent.message)
            for sent in unanswered:
                assert await answered_once(db, sent) == 1, (sent.message, sent.player.errors())
            for sent in unanswered:
                sent.acknowledged = True  # stored once now: the next round starts clean
        await close_all(tables)
        # Nothing was applied twice later either: every action sent is stored once.
        every = [s.message["id"] for t in tables for s in t.sent]
        assert set((await stored_times(db, every)).values()) == {1}
    finally:
        for table in tables:
            for player in table.players:
                await player.http.aclose()
        if admin is not None:
            await admin.http.aclose()
        await db.dispose()
        server.stop()
    audit = salon("audit", env=pg_env)
    assert audit.returncode == 0, audit.stdout
