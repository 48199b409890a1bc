"""A timeout is said out loud: when the turn timer acts for a player, everyone is told
that it was the timer and what it did (never which cards it exchanged), and the hand's
result lists it; the live result also names the players by their display names."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.config import Settings
from app.db.session import Database
from tests.tables.harness import Room, open_room

NAMES = ["ana", "bob", "cyd"]
TURN = 20


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Clock",
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


def events(frames: list[dict[str, Any]], after: int) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "event" and f["version"] > after]


async def test_the_timer_says_it_acted_and_the_result_lists_it(room: Room) -> None:
    watcher = room.players[0]
    await room.clock.advance(3)
    await watcher.wait_for(lambda p: p.hand is not None)
    seat = watcher.hand["to_act"][0]  # type: ignore[index]
    before = watcher.version
    await room.clock.advance(TURN)
    await watcher.wait_for(lambda p, v=before: p.version > v)
    told = events(watcher.frames, before)
    kinds = [e["kind"] for e in told]
    # First the timeout, then what it did: a pass at the declaration.
    assert kinds[:2] == ["timed_out", "declared"], kinds
    assert told[0]["data"] == {"seat": seat, "action": "pass"}
    assert told[1]["data"]["seat"] == seat
    # The version count includes the extra event: a reconnecting client misses nothing.
    assert watcher.version == told[-1]["version"]
    caught_up = [e for e in watcher.frames if e["type"] == "event" and e["kind"] == "timed_out"]
    assert len(caught_up) == 1

    # Let the timer play the rest of the hand for everybody.
    for _ in range(40):
        if watcher.view["last_result"] is not None and watcher.hand is None:
            break
        before = watcher.version
        await room.clock.advance(TURN)
        await watcher.wait_for(lambda p, v=before: p.version > v)
    result = watcher.view["last_result"]
    assert result is not None
    timeouts = result["timeouts"]
    timed_out_events = [
        e for e in watcher.frames if e["type"] == "event" and e["kind"] == "timed_out"
    ]
    assert len(timeouts) == len(timed_out_events) >= 2
    usernames = {s["seat"]: s["username"] for s in watcher.view["seats"]}
    assert timeouts[0] == {"player": usernames[seat], "action": "pass"}
    # Display names for every player of the hand, by the report's names.
    assert result["names"] == {u: u.capitalize() for u in usernames.values()}


async def test_a_timed_out_exchange_says_how_many_cards_never_which(room: Room) -> None:
    watcher = room.players[0]
    await room.clock.advance(3)
    await watcher.wait_for(lambda p: p.hand is not None)
    # Everyone comes in; the timer then speaks for whoever has to exchange.
    for _ in range(12):
        hand = watcher.hand
        assert hand is not None
        if hand["phase"] != "declare":
            break
        seat = hand["to_act"][0]
        player = room.players[seat]
        await player.wait_for(lambda p, v=watcher.version: p.version >= v)
        before = player.version
        await player.act({"action": "play"})
        await watcher.wait_for(lambda p, v=before: p.version > v)
    hand = watcher.hand
    assert hand is not None and hand["phase"] == "draw", hand["phase"]
    before = watcher.version
    await room.clock.advance(TURN)
    await watcher.wait_for(lambda p, v=before: p.version > v)
    told = events(watcher.frames, before)
    assert told[0]["kind"] == "timed_out"
    said = told[0]["data"]
    assert said["action"] == "discard" and isinstance(said["count"], int)
    assert "cards" not in said
