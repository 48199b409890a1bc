"""The turn timer, driven by the fake clock (no sleeps)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import HandAction, TableSeat
from app.db.session import Database
from app.engine.cards import CARD_INDEX, rank_of
from app.services.tables import seats_of
from tests.tables.harness import Room, open_room

NAMES = ["ana", "bob", "cyd"]
TURN = 20


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Timers",
        "game": "bourre",
        "seat_count": 3,
        "buy_in_min": 20,
        "buy_in_max": 200,
        "turn_seconds": TURN,
    }
    async with open_room(settings, db, table, NAMES, buy_in=100) as room:
        for player in room.players:
            await player.open(room.table_id)
            await player.wait_for(lambda p: p.snapshot is not None)
        yield room


async def idle_hand(room: Room) -> dict[str, object]:
    """Start a hand and let the timer play it out; returns its result."""
    watcher = room.players[0]
    await room.clock.advance(3)
    await watcher.wait_for(lambda p: p.hand is not None)
    for _ in range(40):
        if watcher.view["last_result"] is not None and watcher.hand is None:
            break
        before = watcher.version
        await room.clock.advance(TURN)
        await watcher.wait_for(lambda p, v=before: p.version > v)
    result = watcher.view["last_result"]
    assert isinstance(result, dict)
    return result


async def test_the_timer_passes_for_idle_players_and_sits_them_out(
    room: Room, db: Database
) -> None:
    first = await idle_hand(room)
    assert first["players"] in ([], [first["winner"]])  # everyone passed but the dealer
    async with db.transaction() as session:
        auto = (await session.scalars(select(HandAction))).all()
        seats = {s.seat_no: s for s in (await session.scalars(select(TableSeat))).all()}
    assert auto and all(a.user_id is None and a.action["action"] == "pass" for a in auto)
    timed_out_once = {a.seat for a in auto}
    assert all(seats[s].timed_out_hands == 1 for s in timed_out_once)

    await idle_hand(room)
    async with db.transaction() as session:
        seats = {s.seat_no: s for s in (await session.scalars(select(TableSeat))).all()}
        auto2 = (await session.scalars(select(HandAction).where(HandAction.id > auto[-1].id))).all()
    twice = timed_out_once & {a.seat for a in auto2}
    assert twice, "some seat timed out in both hands"
    for seat in twice:
        assert seats[seat].sitting_out
    view_seats = {s["seat"]: s for s in room.players[0].view["seats"]}
    assert all(view_seats[s]["sitting_out"] for s in twice)
    # The table keeps its seats itself after a hand instead of reading them back: what it
    # shows is what was stored.
    async with db.transaction() as session:
        stored = await seats_of(session, room.table_id)
    assert {s.seat_no: (s.stack, s.sitting_out) for s in stored} == {
        n: (s["stack"], s["sitting_out"]) for n, s in view_seats.items()
    }


async def test_the_timer_plays_the_lowest_legal_card(room: Room) -> None:
    watcher = room.players[0]
    await room.clock.advance(3)
    await watcher.wait_for(lambda p: p.hand is not None)
    # Everyone comes in and keeps their cards, then the timer takes over in the tricks.
    for _ in range(12):
        hand = watcher.hand
        assert hand is not None
        if hand["phase"] == "tricks":
            break
        seat = hand["to_act"][0]
        player = room.players[seat]
        await player.wait_for(lambda p, v=watcher.version: p.version >= v)
        legal = player.hand["legal_actions"]  # type: ignore[index]
        kinds = {a["action"] for a in legal}
        choice = (
            {"action": "play"}
            if "play" in kinds
            else ({"action": "discard", "cards": []} if "discard" in kinds else legal[0])
        )
        before = player.version
        await player.act(choice)
        await watcher.wait_for(lambda p, v=before: p.version > v)
    hand = watcher.hand
    assert hand is not None and hand["phase"] == "tricks"
    seat = hand["to_act"][0]
    player = room.players[seat]
    await player.wait_for(lambda p, v=watcher.version: p.version >= v)
    legal_cards = [a["card"] for a in player.hand["legal_actions"]]  # type: ignore[index]
    lowest = min(legal_cards, key=lambda c: rank_of(CARD_INDEX[c]))
    before = watcher.version
    await room.clock.advance(TURN - 1)
    assert watcher.version == before  # not yet
    await room.clock.advance(1)
    await watcher.wait_for(lambda p, v=before: p.version > v)
    played = [f for f in watcher.frames if f["type"] == "event" and f["version"] > before]
    card_events = [f for f in played if f["kind"] == "card_played"]
    assert card_events and card_events[0]["data"]["seat"] == seat
    assert rank_of(CARD_INDEX[card_events[0]["data"]["card"]]) == rank_of(CARD_INDEX[lowest])
