"""The server's own latency measure: an action received → the last seat's broadcast sent."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import HandAction
from app.db.session import Database
from app.tables.latency import BroadcastTracker, LatencyRecorder
from tests.helpers import csrf_headers
from tests.tables.harness import Player, Room, open_room, play_until_over

NAMES = ["ana", "bob", "cyd", "dee"]


def test_the_recorder_keeps_the_latest_samples_and_summarises_them() -> None:
    recorder = LatencyRecorder(max_samples=200)
    assert recorder.summary().count == 0 and recorder.summary().median_ms is None
    for ms in range(1, 301):  # 1 … 300: only 101 … 300 are kept
        recorder.record(float(ms))
    summary = recorder.summary()
    assert summary.count == 200
    assert summary.median_ms == 200.5
    assert summary.p99_ms == 299.0
    assert summary.max_ms == 300.0
    recorder.reset()
    assert recorder.summary().count == 0


def test_a_broadcast_is_recorded_once_its_last_seat_is_sent() -> None:
    recorder = LatencyRecorder()
    tracker = BroadcastTracker(recorder, received=0.0)
    tracker.pending = 3
    tracker.sent()
    tracker.sent()
    assert recorder.summary().count == 0
    tracker.sent()
    assert recorder.summary().count == 1


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Timed",
        "game": "bourre",
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
    }
    async with open_room(settings, db, table, NAMES, buy_in=100) as room:
        for player in [*room.players, room.owner]:  # the owner watches
            await player.open(room.table_id)
            await player.wait_for(lambda p: p.snapshot is not None)
        await room.clock.advance(3)
        for player in room.players:
            await player.wait_for(lambda p: p.hand is not None)
        yield room


async def latency(player: Player) -> dict[str, object]:
    response = await player.http.get("/api/admin/latency")
    assert response.status_code == 200, response.text
    summary: dict[str, object] = response.json()
    return summary


async def accepted_actions(db: Database) -> int:
    async with db.transaction() as session:
        found = await session.scalar(
            select(func.count()).select_from(HandAction).where(HandAction.user_id.is_not(None))
        )
    return int(found or 0)


async def test_every_accepted_action_is_timed_once(room: Room, db: Database) -> None:
    assert (await latency(room.owner))["count"] == 0
    hand = room.players[0].hand
    assert hand is not None
    waiting = next(p for n, p in enumerate(room.players) if n not in hand["to_act"])
    await waiting.act({"action": "pass"})  # not their turn: refused, not timed
    await waiting.wait_for(lambda p: bool(p.errors()))
    waiting.frames.clear()

    await play_until_over(dict(enumerate(room.players)), random.Random(5))
    accepted = await accepted_actions(db)
    assert accepted > 0
    summary = await latency(room.owner)
    for _ in range(100):  # the last writer may finish just after the players read
        if summary["count"] == accepted:
            break
        await asyncio.sleep(0.01)
        summary = await latency(room.owner)
    assert summary["count"] == accepted
    median, p99, most = summary["median_ms"], summary["p99_ms"], summary["max_ms"]
    assert isinstance(median, float) and isinstance(p99, float) and isinstance(most, float)
    assert 0 < median <= p99 <= most < 10_000
    # Every stored action went through the group writer (the timer's too, if it acted).
    writes = summary["action_writes"]
    assert isinstance(writes, dict)
    assert writes["actions"] >= accepted and 1 <= writes["writes"] <= writes["actions"]


async def test_only_admins_read_and_reset_it(room: Room) -> None:
    hand = room.players[0].hand
    assert hand is not None
    actor = room.players[hand["to_act"][0]]
    choice = dict((actor.hand or {})["legal_actions"][0])
    if "min" in choice:
        choice = {"action": choice["action"], "amount": choice["min"]}
    before = actor.version
    await actor.act(choice)
    await actor.wait_for(lambda p: p.version > before)
    assert not actor.errors()
    for _ in range(100):
        if (await latency(room.owner))["count"] == 1:
            break
        await asyncio.sleep(0.01)
    assert (await latency(room.owner))["count"] == 1
    assert (await latency(room.owner))["action_writes"] == {
        "writes": 1,
        "actions": 1,
        "largest_write": 1,
        "actions_per_write": 1.0,
    }

    member = room.players[0].http
    read = await member.get("/api/admin/latency")
    assert read.status_code == 403 and read.json()["error"]["code"] == "admin_only"
    reset = await member.delete("/api/admin/latency", headers=csrf_headers(member))
    assert reset.status_code == 403 and reset.json()["error"]["code"] == "admin_only"
    forged = await room.owner.http.delete("/api/admin/latency")  # no CSRF token
    assert forged.status_code == 403
    assert (await latency(room.owner))["count"] == 1

    done = await room.owner.http.delete("/api/admin/latency", headers=csrf_headers(room.owner.http))
    assert done.status_code == 204
    after = await latency(room.owner)
    assert {key: after[key] for key in ("count", "median_ms", "p99_ms", "max_ms")} == {
        "count": 0,
        "median_ms": None,
        "p99_ms": None,
        "max_ms": None,
    }
    # The collector's pauses come with them, one line per generation.
    assert after["action_writes"] == {
        "writes": 0,
        "actions": 0,
        "largest_write": 0,
        "actions_per_write": None,
    }
    pauses = after["gc_pauses"]
    assert isinstance(pauses, list) and [p["generation"] for p in pauses] == [0, 1, 2]
