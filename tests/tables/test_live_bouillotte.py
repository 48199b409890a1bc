"""Bouillotte played live: real Uvicorn, real WebSocket clients, both databases."""

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

NAMES = ["ines", "jean", "karl", "lise"]


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Salon rouge",
        "game": "bouillotte",
        "seat_count": 4,
        "buy_in_min": 100,
        "buy_in_max": 100,
    }
    async with open_room(settings, db, table, NAMES, buy_in=100) as room:
        yield room


async def test_a_full_hand_from_join_to_settlement(room: Room, db: Database) -> None:
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
    await room.clock.advance(3)
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)
    for n, player in enumerate(room.players):
        assert player.hand is not None and player.hand["viewer"] == n

    await play_until_over(dict(enumerate(room.players)), random.Random(11))
    for player in room.players:
        await player.wait_for(lambda p: p.view["last_result"] is not None)
    result = room.players[0].view["last_result"]

    async with db.transaction() as session:
        stacks = {s.username: s.stack for s in await seats_of(session, room.table_id)}
        pot = await ledger.balance_of(session, f"pot:{room.table_id}")
        report = await club_audit(session)
        stored = await session.scalar(select(Hand).where(Hand.table_id == room.table_id))
    assert report.ok, report.problems
    assert sum(stacks.values()) + pot == 400
    assert stacks == result["stacks"] and pot == result["carry"]
    balances = {p.username: (await p.http.get("/api/me")).json()["balance"] for p in room.players}
    assert balances == dict.fromkeys(NAMES, 900)
    assert stored is not None and stored.entry is not None
    replayed = replay({**stored.header, "hands": [stored.entry]})
    assert replayed["hands"] == [{k: v for k, v in result.items() if k not in ("number", "seed")}]


async def test_the_buy_in_is_the_cave(room: Room) -> None:
    wrong = await room.owner.post(
        "/api/tables",
        {"name": "x", "game": "bouillotte", "seat_count": 4, "buy_in_min": 50, "buy_in_max": 200},
    )
    assert wrong.status_code == 422
    assert wrong.json()["error"]["code"] == "invalid_buy_in"
    assert "the buy-in is 100" in wrong.json()["error"]["message"]
    top_up = await room.players[0].post(
        f"/api/tables/{room.table_id}/top-up", {"amount": 100, "request_key": "more-00001"}
    )
    assert top_up.status_code == 422
    assert top_up.json()["error"]["code"] == "top_up_not_allowed"
