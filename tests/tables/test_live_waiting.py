"""A table never stalls in silence: it counts down only when the game can deal, and says
what it waits for (a stable code and its parameters) when it cannot; play starts with a
gathering countdown the seated players may cut ("Deal now"); a player sat out by the turn
timer is told so; and every (re)connection rebuilds the hand log of the hand in play from
what that viewer was allowed to see. Real Uvicorn, real WebSockets, a fake clock."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.config import Settings
from app.db.session import Database
from tests.tables.harness import Player, Room, act_at, legal_for, open_room, seated

CAVE = 100
TURN = 20
# Table events that are not part of a hand's story (seats, presence, the deal's seed).
TABLE_KINDS = {
    "online",
    "offline",
    "contributed",
    "deal_now",
    "seated",
    "left",
    "leaving",
    "sitting_out",
    "back",
    "topped_up",
    "seats_drawn",
}


async def open_all(room: Room) -> None:
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)


def settled(player: Player, number: int) -> bool:
    result = player.view["last_result"]
    return player.hand is None and result is not None and result["number"] == number


# ---------------------------------------------------------------- a bust at Bouillotte


@pytest.fixture
async def bouillotte(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Salon rouge",
        "game": "bouillotte",
        "seat_count": 3,
        "buy_in_min": CAVE,
        "buy_in_max": CAVE,
        "turn_seconds": TURN,
    }
    async with open_room(settings, db, table, ["ines", "jean", "karl"], buy_in=CAVE) as room:
        await open_all(room)
        yield room


def choose(legal: list[dict[str, Any]], order: tuple[str, ...]) -> dict[str, Any]:
    for kind in order:
        for action in legal:
            if action["action"] == kind:
                return {k: v for k, v in action.items() if k not in ("min", "max")}
    raise AssertionError(f"none of {order} in {legal}")


async def play_a_hand_all_in(room: Room, bold: set[int]) -> None:
    """The `bold` seats go all in (or call) at every turn, the others get out of the way:
    one of the bold leaves the hand with nothing, barring a split pot."""
    players = seated(room)
    watcher = room.players[0]
    for _ in range(60):
        hand = watcher.hand
        if hand is None or hand["phase"] == "over":
            return
        seat = hand["to_act"][0]
        legal = await legal_for(players, seat)
        order = (
            ("all_in", "call", "decline", "pass")
            if seat in bold
            else ("fold", "pass", "decline", "call")
        )
        await act_at(players, seat, choose(legal, order))
    raise AssertionError("the hand did not end")


async def test_a_bust_leaves_the_table_waiting_for_a_cave_and_a_cave_deals_again(
    bouillotte: Room,
) -> None:
    room = bouillotte
    watcher = room.players[0]
    await room.clock.advance(3)
    await watcher.wait_for(lambda p: p.hand is not None)
    busted = None
    for _ in range(8):
        number = watcher.hand["number"]  # type: ignore[index]
        await play_a_hand_all_in(room, bold={0, 1})
        await watcher.wait_for(lambda p, n=number: settled(p, n))
        broke = [s["seat"] for s in watcher.view["seats"] if s["stack"] == 0]
        if broke:
            busted = broke[0]
            break
        await room.clock.advance(3)
        await watcher.wait_for(lambda p, n=number: p.hand is not None and p.hand["number"] > n)
    assert busted is not None, "nobody went broke in eight all-in hands"

    # Two players have chips; Bouillotte deals to three (rules/bouillotte.md §1): no
    # countdown, however long everyone waits, and the view says what is awaited.
    await room.clock.advance(120)
    for player in room.players:
        await player.wait_for(lambda p: p.view["waiting_for"] is not None)
        view = player.view
        assert view["hand"] is None
        assert view["next_hand_in"] is None
        assert view["gathering"] is None
        assert view["waiting_for"] == {
            "code": "more_players",
            "min": 3,
            "missing": 1,
            "broke": [busted],
            "sitting_out": [],
        }

    # The busted player buys a new cave: the table gathers and deals again.
    loser = seated(room)[busted]
    bought = await loser.post(
        f"/api/tables/{room.table_id}/top-up", {"amount": CAVE, "request_key": "cave-0001"}
    )
    assert bought.status_code == 200, bought.text
    await watcher.wait_for(lambda p: p.view["waiting_for"] is None)
    assert watcher.view["next_hand_in"] is not None
    await room.clock.advance(3)
    await watcher.wait_for(lambda p: p.hand is not None)
    assert busted in watcher.hand["to_act"] or watcher.hand["seats"][busted]["stack"] > 0  # type: ignore[index]


# ---------------------------------------------------------------- gathering


GATHERING = 30.0


@pytest.fixture
async def gathering_room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Gathering",
        "game": "bourre",
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
        "turn_seconds": TURN,
    }
    async with open_room(
        settings, db, table, ["ana", "bob", "cyd"], buy_in=100, gathering_seconds=GATHERING
    ) as room:
        await open_all(room)
        yield room


async def test_play_starts_with_a_gathering_that_every_seated_player_may_cut(
    gathering_room: Room,
) -> None:
    room = gathering_room
    ana, bob, cyd = room.players
    view = ana.view
    # The countdown is the gathering one, not the short pause between hands.
    assert view["hand"] is None
    assert view["next_hand_in"] == pytest.approx(GATHERING, abs=0.5)
    assert view["gathering"] == {"ready": [], "awaited": [0, 1, 2]}
    assert view["waiting_for"] is None
    await room.clock.advance(GATHERING / 2)
    assert ana.hand is None

    # One eager player does not rush the others: the deal waits for every seated player.
    await ana.send({"type": "deal_now"})
    await ana.wait_for(lambda p: p.view["gathering"]["ready"] == [0])
    assert ana.view["gathering"]["awaited"] == [1, 2]
    assert ana.hand is None
    await bob.send({"type": "deal_now"})
    await ana.wait_for(lambda p: p.view["gathering"]["ready"] == [0, 1])
    assert ana.hand is None
    await cyd.send({"type": "deal_now"})
    # No clock moves: the last "Deal now" deals.
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)
    assert ana.view["gathering"] is None
    assert not any(p.errors() for p in room.players)

    # During a hand there is nothing to cut.
    await ana.send({"type": "deal_now"})
    await ana.wait_for(lambda p: bool(p.errors()))
    assert ana.errors()[-1]["code"] == "not_gathering"


async def test_a_spectator_cannot_cut_the_gathering(gathering_room: Room) -> None:
    room = gathering_room
    room.owner.frames.clear()
    await room.owner.open(room.table_id)
    await room.owner.wait_for(lambda p: p.snapshot is not None)
    await room.owner.send({"type": "deal_now"})
    await room.owner.wait_for(lambda p: bool(p.errors()))
    assert room.owner.errors()[-1]["code"] == "not_seated"
    assert room.owner.view["gathering"] == {"ready": [], "awaited": [0, 1, 2]}


async def test_a_table_sets_its_own_gathering(settings: Settings, db: Database) -> None:
    table = {
        "name": "Quick start",
        "game": "bourre",
        "seat_count": 3,
        "buy_in_min": 20,
        "buy_in_max": 200,
        "gathering_seconds": 7,
    }
    async with open_room(settings, db, table, ["ana", "bob"], buy_in=100) as room:
        await open_all(room)
        assert room.players[0].view["next_hand_in"] == pytest.approx(7, abs=0.5)
        refused = await room.owner.post(
            "/api/tables", {**table, "name": "Too long", "gathering_seconds": 500}
        )
        assert refused.status_code == 422


# ---------------------------------------------------------------- sat out by the timer


@pytest.fixture
async def clock_room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Clock",
        "game": "bourre",
        "seat_count": 3,
        "buy_in_min": 20,
        "buy_in_max": 200,
        "turn_seconds": TURN,
    }
    async with open_room(settings, db, table, ["ana", "bob", "cyd"], buy_in=100) as room:
        await open_all(room)
        yield room


async def let_the_timer_play(room: Room) -> None:
    watcher = room.players[0]
    await room.clock.advance(3)
    await watcher.wait_for(lambda p: p.hand is not None)
    number = watcher.hand["number"]  # type: ignore[index]
    for _ in range(60):
        if settled(watcher, number):
            return
        before = watcher.version
        await room.clock.advance(TURN)
        await watcher.wait_for(lambda p, v=before: p.version > v)
    raise AssertionError("the timer did not finish the hand")


async def test_a_player_sat_out_by_the_timer_is_told_and_comes_back(clock_room: Room) -> None:
    room = clock_room
    watcher = room.players[0]
    away: list[int] = []
    for _ in range(6):
        await let_the_timer_play(room)
        seats = watcher.view["seats"]
        # Until two timed-out hands in a row, nobody is said to have been sat out.
        assert all(s["sat_out_after"] == (2 if s["sitting_out"] else None) for s in seats)
        away = [s["seat"] for s in seats if s["sitting_out"]]
        if away:
            break
    assert away, "the timer sat nobody out"
    seat = away[0]
    player = seated(room)[seat]
    await player.wait_for(lambda p: p.view["seats"][seat]["sitting_out"])
    assert player.view["seats"][seat]["sat_out_after"] == 2

    back = await player.post(f"/api/tables/{room.table_id}/sit-in")
    assert back.status_code == 200, back.text
    await player.wait_for(lambda p: not p.view["seats"][seat]["sitting_out"])
    assert player.view["seats"][seat]["sat_out_after"] is None
    # A player who sits out by their own choice is not said to have been sat out.
    gone = await player.post(f"/api/tables/{room.table_id}/sit-out")
    assert gone.status_code == 200, gone.text
    await player.wait_for(lambda p: p.view["seats"][seat]["sitting_out"])
    assert player.view["seats"][seat]["sat_out_after"] is None


# ---------------------------------------------------------------- the hand log


def hand_story(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the last hand among `frames`, as a hand log lists them."""
    events = [f for f in frames if f["type"] == "event"]
    start = max(i for i, f in enumerate(events) if f["kind"] == "new_hand")
    return [
        {"kind": f["kind"], "data": f["data"]}
        for f in events[start:]
        if f["kind"] not in TABLE_KINDS
    ]


async def test_a_reconnection_rebuilds_the_hand_log_without_a_hidden_card(
    clock_room: Room,
) -> None:
    room = clock_room
    players = seated(room)
    watcher = room.players[0]
    await room.clock.advance(3)
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)
    # Everyone comes in, then the exchange: private cards on both sides of the log.
    for _ in range(12):
        hand = watcher.hand
        assert hand is not None
        if hand["phase"] not in ("declare",):
            break
        seat = hand["to_act"][0]
        legal = await legal_for(players, seat)
        await act_at(players, seat, choose(legal, ("play",)))
    for _ in range(3):
        hand = watcher.hand
        assert hand is not None
        if hand["phase"] != "draw":
            break
        seat = hand["to_act"][0]
        mine = players[seat].hand["hand"]  # type: ignore[index]
        await act_at(players, seat, {"action": "discard", "cards": mine[:2]})
    # And a timeout, which the rebuilt log must say too.
    before = watcher.version
    await room.clock.advance(TURN)
    await watcher.wait_for(lambda p, v=before: p.version > v)

    # The cards each seat alone was told of (not those everyone has seen since).
    shown = cards_public(watcher)
    private = {seat: cards_seen_by(p) - shown for seat, p in players.items()}
    assert all(private.values())
    for seat, player in players.items():
        lived = hand_story(player.frames)
        others = set().union(*(cards for other, cards in private.items() if other != seat))
        await player.close()
        player.frames.clear()
        player.snapshot = None
        await player.open(room.table_id)
        await player.wait_for(lambda p: any(f["type"] == "hand_log" for f in p.frames))
        log = next(f for f in player.frames if f["type"] == "hand_log")
        assert log["hand"] == watcher.hand["number"]  # type: ignore[index]
        # What this seat saw live, event for event: its own cards, and no one else's.
        assert log["events"] == lived
        assert any(e["kind"] == "timed_out" for e in log["events"])
        assert any(e["kind"] == "dealt" for e in log["events"])
        text = json.dumps(log["events"])
        assert not [card for card in others if f'"{card}"' in text], seat

    # A spectator's log has every public event and no private one.
    room.owner.frames.clear()
    await room.owner.open(room.table_id)
    await room.owner.wait_for(lambda p: any(f["type"] == "hand_log" for f in p.frames))
    log = next(f for f in room.owner.frames if f["type"] == "hand_log")
    kinds = [e["kind"] for e in log["events"]]
    assert "timed_out" in kinds and "discarded" in kinds
    assert "dealt" not in kinds and "drew" not in kinds
    text = json.dumps(log["events"])
    everyone = set().union(*private.values())
    assert not [card for card in everyone if f'"{card}"' in text]


def cards_seen_by(player: Player) -> set[str]:
    """Every card named in the private events this player received."""
    seen: set[str] = set()
    for frame in player.frames:
        if frame["type"] == "event" and frame["kind"] in ("dealt", "drew"):
            data = frame["data"]
            for key in ("cards", "discarded", "received"):
                seen.update(data.get(key, []))
    return seen


def cards_public(player: Player) -> set[str]:
    """Cards shown to everyone: the turned card, cards played, face-up discards."""
    hand = player.hand or {}
    shown = {hand.get("turned_card")} | set(hand.get("face_up_discards", []))
    shown |= {c["card"] for c in hand.get("trick", [])}
    return {c for c in shown if c}
