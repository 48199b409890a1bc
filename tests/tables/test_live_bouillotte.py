"""Bouillotte played live: real Uvicorn, real WebSocket clients, both databases."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Hand, HandAction
from app.db.session import Database
from app.engine.log import replay
from app.services import ledger
from app.services.audit import club_audit
from app.services.tables import seat_key, seats_of
from tests.tables.harness import Player, Room, act_at, legal_for, open_room, play_until_over, seated

NAMES = ["ines", "jean", "karl", "lise"]
# What the table's hand report adds to the replay report: the hand's number, what a
# player checks the deal with (docs/fair-shuffle.md), what the turn timer did and, in the
# live result, the players' display names.
TABLE_ONLY = ("number", "hand_id", "seed", "server_seed", "contributions", "timeouts", "names")
TURN = 30


# House rules that then have no effect are valid (rules/bouillotte.md §8 "Rules config").
INERT_RULES = {"brelans": False, "mistigri": True, "bonus_carre": 1, "bonus_brelan": 3}


@pytest.fixture
async def room(
    request: pytest.FixtureRequest, settings: Settings, db: Database
) -> AsyncIterator[Room]:
    """A four-seat table; a test may give as the fixture's parameter its house rules and the
    seats the players take, in the order they join (NAMES)."""
    rules, joined = getattr(request, "param", ({}, None))
    table = {
        "rules": rules,
        "name": "Salon rouge",
        "game": "bouillotte",
        "seat_count": 4,
        "buy_in_min": 100,
        "buy_in_max": 100,
        "turn_seconds": TURN,
    }
    async with open_room(settings, db, table, NAMES, buy_in=100, seats=joined) as room:
        yield room


@pytest.mark.parametrize(
    "room", [({}, None), (INERT_RULES, None)], ids=["default", "inert_rules"], indirect=True
)
async def test_a_full_hand_from_join_to_settlement(room: Room, db: Database) -> None:
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
    await room.clock.advance(3)
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)
    players = seated(room)  # the seats are drawn when the first hand starts
    for seat, player in players.items():
        assert player.hand is not None and player.hand["viewer"] == seat

    await play_until_over(players, random.Random(11))
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
    assert replayed["hands"] == [{k: v for k, v in result.items() if k not in TABLE_ONLY}]


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


async def straddle_then_minimum_opening(room: Room) -> tuple[dict[int, Player], int, int]:
    """Deal a hand in which the first to speak straddles (stake 6), the next declines and
    opens at the straddle, and the two others fold: two are left, level, and the straddler
    has not spoken yet (rules/bouillotte.md §8, worked sequence 2). Returns the players by
    seat, the straddler's seat and the opener's."""
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
    await room.clock.advance(3)
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)
    players = seated(room)
    hand = room.players[0].hand
    assert hand is not None
    straddler, opener, third, dealer = hand["order"]
    await act_at(players, straddler, {"action": "straddle"})
    await act_at(players, opener, {"action": "decline"})
    assert (players[opener].hand or {}).get("opening_minimum") == 6
    await act_at(players, opener, {"action": "open", "amount": 6})
    await act_at(players, third, {"action": "fold"})
    await act_at(players, dealer, {"action": "fold"})
    return players, straddler, opener


async def test_the_straddler_raises_after_a_minimum_opening(room: Room) -> None:
    players, straddler, opener = await straddle_then_minimum_opening(room)
    legal = await legal_for(players, straddler)
    view = players[straddler].hand
    assert view is not None and view["phase"] == "calls" and view["to_call"] == 0
    assert legal == [
        {"action": "call"},
        {"action": "fold"},
        {"action": "all_in"},
        {"action": "raise", "min": 7, "max": 100},
    ]
    await act_at(players, straddler, {"action": "raise", "amount": 20})
    for player in players.values():
        assert (player.hand or {}).get("to_act") == [opener]
    answer = players[opener].hand
    assert answer is not None and answer["to_call"] == 14
    await act_at(players, opener, {"action": "call"})
    for player in players.values():
        await player.wait_for(lambda p: p.view["last_result"] is not None)
    result = room.players[0].view["last_result"]
    assert sum(pot["amount"] for pot in result["pots"]) == 43
    assert sorted(result["players"]) == sorted(players[s].username for s in (straddler, opener))


async def test_the_timer_calls_for_free_for_a_level_straddler(room: Room, db: Database) -> None:
    players, straddler, opener = await straddle_then_minimum_opening(room)
    await room.clock.advance(TURN)
    for player in players.values():
        await player.wait_for(lambda p: p.view["last_result"] is not None)
    result = room.players[0].view["last_result"]
    # The free call ends the betting: the two level players show, nobody folded for nothing.
    assert sorted(result["players"]) == sorted(players[s].username for s in (straddler, opener))
    assert result["pots"][0]["amount"] == 15 and result["showdown"]
    async with db.transaction() as session:
        last = await session.scalar(select(HandAction).order_by(HandAction.id.desc()).limit(1))
    assert last is not None and last.user_id is None
    assert last.action == {"seat": straddler, "action": "call"}


async def deal_first_hand(room: Room) -> None:
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
    await room.clock.advance(3)
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)


def seats_drawn(player: Player) -> list[dict[str, Any]]:
    return [f["data"] for f in player.frames if f.get("kind") == "seats_drawn"]


async def test_seats_are_drawn_when_the_first_hand_starts(room: Room, db: Database) -> None:
    """rules/bouillotte.md §1 ``seating: draw`` (the default): when the table deals its first
    hand, the players seated are drawn for seats; the king keeps his seat and deals."""
    await deal_first_hand(room)
    (draw,) = seats_drawn(room.players[0])
    assert all(seats_drawn(p) == [draw] for p in room.players)
    # Cards from the king down, each with the seat its player now sits on.
    assert [entry["card"][0] for entry in draw["seats"]] == ["K", "Q", "J", "9"]
    king = draw["seats"][0]["seat"]
    view = room.players[0].view
    assert draw["dealer"] == king == view["hand"]["dealer"]
    names = {s["seat"]: s["name"] for s in view["seats"]}
    assert {entry["seat"]: entry["name"] for entry in draw["seats"]} == names
    for player in room.players:
        assert player.view["you"]["seat"] == player.hand["viewer"]  # type: ignore[index]
    async with db.transaction() as session:
        rows = {s.username: s.seat_no for s in await seats_of(session, room.table_id)}
        # The stacks are the table's accounts of each member: moving seats moved no chip.
        balances = [
            await ledger.balance_of(session, seat_key(room.table_id, p.user_id))
            for p in await seats_of(session, room.table_id)
        ]
    assert rows == {s["username"]: s["seat"] for s in view["seats"]}
    assert balances == [100] * 4

    players = seated(room)
    await play_until_over(players, random.Random(3))
    for player in room.players:
        await player.wait_for(lambda p: p.view["last_result"] is not None)
    async with db.transaction() as session:
        assert (await club_audit(session)).ok
        stored = await session.scalar(select(Hand).where(Hand.table_id == room.table_id))
    assert stored is not None and stored.entry is not None
    assert stored.header["dealer"] == king
    assert [s["name"] for s in stored.header["seats"]] == [players[n].username for n in range(4)]
    # The second hand: no new draw; the deal passes to the right of the king.
    await room.clock.advance(3)
    await room.players[0].wait_for(lambda p: (p.hand or {}).get("number") == 2)
    assert len(seats_drawn(room.players[0])) == 1
    assert room.players[0].hand["dealer"] == (king - 1) % 4  # type: ignore[index]


@pytest.mark.parametrize("room", [({"seating": "as_joined"}, [2, 3, 0, 1])], indirect=True)
async def test_seated_as_joined_nobody_moves_and_the_first_to_join_deals(room: Room) -> None:
    await deal_first_hand(room)
    assert seats_drawn(room.players[0]) == []
    view = room.players[0].view
    assert [s["username"] for s in view["seats"]] == ["karl", "lise", "ines", "jean"]
    assert view["hand"]["dealer"] == 2  # ines joined first, on seat 2
