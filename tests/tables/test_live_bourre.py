"""Bourré played live: real Uvicorn, real WebSocket clients, the database on both backends."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Hand
from app.db.session import Database
from app.engine.log import replay
from app.services import ledger
from app.services.audit import club_audit
from app.services.tables import seats_of
from tests.tables.harness import Room, open_room, play_until_over

NAMES = ["ana", "bob", "cyd", "dee"]
# What the table's hand report adds to the replay report: the hand's number, what a
# player checks the deal with (docs/fair-shuffle.md), what the turn timer did and, in the
# live result, the players' display names.
TABLE_ONLY = ("number", "hand_id", "seed", "server_seed", "contributions", "timeouts", "names")


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Friday",
        "game": "bourre",
        "seat_count": 6,
        "buy_in_min": 20,
        "buy_in_max": 200,
    }
    async with open_room(settings, db, table, NAMES, buy_in=100) as room:
        yield room


async def test_a_full_hand_from_join_to_settlement(room: Room, db: Database) -> None:
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
    assert room.players[0].hand is None
    assert room.players[0].view["next_hand_in"] == 3.0

    await room.clock.advance(3)
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)
    hand = room.players[0].hand
    assert hand is not None and hand["pot"] == 4  # four antes of 1
    for n, player in enumerate(room.players):
        mine = player.hand
        assert mine is not None and len(mine["hand"]) == 5 and mine["viewer"] == n

    await play_until_over(dict(enumerate(room.players)), random.Random(3))
    for player in room.players:
        await player.wait_for(lambda p: p.view["last_result"] is not None)
    result = room.players[0].view["last_result"]
    # The club reveals seeds when the table's session ends (the default): not in the result.
    assert result["number"] == 1 and "seed" not in result and result["hand_id"] >= 1
    assert sum(result["tricks"].values()) == 5  # tricks were really played

    # Chips: the balances paid the buy-ins; stacks and pot hold the rest, exactly.
    async with db.transaction() as session:
        stacks = {s.username: s.stack for s in await seats_of(session, room.table_id)}
        pot = await ledger.balance_of(session, f"pot:{room.table_id}")
        report = await club_audit(session)
        stored = await session.scalar(select(Hand).where(Hand.table_id == room.table_id))
    assert report.ok, report.problems
    assert sum(stacks.values()) + pot == 400
    assert stacks == {k: v for k, v in result["stacks"].items() if not k.startswith("empty-")}
    assert pot == result["carry"]
    balances = {p.username: (await p.http.get("/api/me")).json()["balance"] for p in room.players}
    assert balances == dict.fromkeys(NAMES, 900)

    # The stored history replays to the same result.
    assert stored is not None and stored.entry is not None and not stored.running
    document = {**stored.header, "hands": [stored.entry]}
    replayed = replay(document)
    expected = {k: v for k, v in result.items() if k not in TABLE_ONLY}
    assert replayed["hands"] == [expected]
