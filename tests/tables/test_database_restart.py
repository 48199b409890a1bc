"""The database server restarts, or a write fails as on a full disk, in the middle of a hand.

A PostgreSQL server of the test's own (tests/private_postgres.py) serves a real Uvicorn
server whose clock the test moves. While the database is away the table pauses and says
so to everyone; an action is refused with `storage_unavailable` and changes nothing; every
action acknowledged before stays; once the database answers, the table is read back by
itself, play resumes from where it was and the hand is played out; the ledger balances.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.config import Settings
from app.db.migrate import upgrade_head
from app.db.session import Database
from app.services import ledger
from tests.private_postgres import PrivatePostgres, private_postgres
from tests.tables.harness import (
    Player,
    Room,
    act_at,
    deal,
    hand_state,
    legal_for,
    open_room,
    play_until_over,
    watch,
)

TABLE = {
    "name": "Evening",
    "game": "bourre",
    "seat_count": 4,
    "buy_in_min": 20,
    "buy_in_max": 300,
    "turn_seconds": 30,
}
NAMES = ["alice", "bob", "carol"]


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[tuple[PrivatePostgres, Settings, Database]]:
    with private_postgres() as postgres:
        await asyncio.to_thread(upgrade_head, postgres.url)
        settings = Settings(
            env="test",
            database_url=postgres.url,
            data_dir=tmp_path,
            secret_key="test-secret-key-" + "x" * 32,
            gc_freeze=False,
            argon2_profile="fast-insecure",
        )
        db = Database(postgres.url)
        try:
            yield postgres, settings, db
        finally:
            await db.dispose()


def seen(player: Player) -> tuple[int, dict[str, Any]]:
    """The table's version a player last saw, and what they see of the hand."""
    return player.version, hand_state(player)


def storage_frames(player: Player) -> list[bool]:
    return [f["available"] for f in player.frames if f["type"] == "storage"]


async def into_the_hand(room: Room, rng: random.Random) -> dict[int, Player]:
    """Deal, and play until a few actions of the hand are acknowledged."""
    await watch(room)
    await deal(room)
    players = {n: p for n, p in enumerate(room.players)}
    for _ in range(4):
        hand = room.players[0].hand
        assert hand is not None and hand["phase"] != "over"
        seat = hand["to_act"][0]
        legal = await legal_for(players, seat)
        playing = [a for a in legal if a["action"] == "play"]
        await act_at(players, seat, dict(playing[0] if playing else rng.choice(legal)))
    return players


async def refused_while_away(players: dict[int, Player]) -> None:
    """The player to act tries to act: refused with `storage_unavailable`, and everyone
    has been told that the table waits for its database."""
    hand = players[0].hand
    assert hand is not None
    seat = hand["to_act"][0]
    legal = await legal_for(players, seat)
    await players[seat].act(dict(legal[0]))
    await players[seat].wait_for(lambda p: bool(p.errors()), 15)
    assert [e["code"] for e in players[seat].errors()] == ["storage_unavailable"]
    for player in players.values():
        await player.wait_for(lambda p: storage_frames(p) == [False])


async def back(room: Room, players: dict[int, Player], before: dict[int, Any]) -> None:
    """Once the table is read back (its retry is on the table's clock), everyone is told
    and sees the hand exactly as it was acknowledged: the refused action left no trace."""
    told = players[0]
    for _ in range(10):  # the first tries may meet connections the restart broke
        await room.clock.advance(2)
        with contextlib.suppress(TimeoutError):
            await told.wait_for(lambda p: storage_frames(p) == [False, True], 2)
            break
    for player in players.values():
        await player.wait_for(lambda p: storage_frames(p) == [False, True], 15)
        await player.wait_for(lambda p: p.frames[-1]["type"] == "snapshot")
    assert {n: seen(p) for n, p in players.items()} == before
    for player in players.values():
        player.frames.clear()


async def balanced(url: str) -> None:
    """Every chip is where the ledger says; nothing was written twice (read on fresh
    connections: the test's own died with the restart)."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            audit = await ledger.audit(session)
    finally:
        await db.dispose()
    assert audit.ok, audit


async def test_the_database_restarts_mid_hand_and_play_resumes_by_itself(
    server: tuple[PrivatePostgres, Settings, Database],
) -> None:
    postgres, settings, db = server
    rng = random.Random(3)
    async with open_room(settings, db, TABLE, NAMES, buy_in=200) as room:
        players = await into_the_hand(room, rng)
        before = {n: seen(p) for n, p in players.items()}
        await asyncio.to_thread(postgres.stop)
        await refused_while_away(players)
        # Time passes while the database is away: no turn runs out, no deal starts.
        await room.clock.advance(300)
        assert {n: seen(p) for n, p in players.items()} == before
        await asyncio.to_thread(postgres.start)
        await back(room, players, before)
        await play_until_over(players, rng)
    await balanced(settings.database_url)


async def test_a_write_refused_as_on_a_full_disk_leaves_the_hand_intact(
    server: tuple[PrivatePostgres, Settings, Database],
) -> None:
    """PostgreSQL answers a write it cannot make for lack of room with SQLSTATE 53100
    (disk_full); a trigger raises exactly that on the table's next action, then is dropped
    as an operator freeing space would."""
    _, settings, db = server
    rng = random.Random(5)
    async with open_room(settings, db, TABLE, NAMES, buy_in=200) as room:
        players = await into_the_hand(room, rng)
        before = {n: seen(p) for n, p in players.items()}
        async with db.transaction() as session:
            await session.execute(
                text(
                    "CREATE FUNCTION disk_is_full() RETURNS trigger LANGUAGE plpgsql AS $$"
                    " BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full';"
                    " END $$"
                )
            )
            await session.execute(
                text(
                    "CREATE TRIGGER disk_is_full BEFORE INSERT ON hand_actions"
                    " FOR EACH ROW EXECUTE FUNCTION disk_is_full()"
                )
            )
        await refused_while_away(players)
        async with db.transaction() as session:
            stored = await session.execute(text("SELECT count(*) FROM hand_actions"))
            count = stored.scalar_one()
            await session.execute(text("DROP TRIGGER disk_is_full ON hand_actions"))
        await back(room, players, before)
        await play_until_over(players, rng)
        async with db.transaction() as session:
            after = await session.execute(text("SELECT count(*) FROM hand_actions"))
            assert after.scalar_one() > count
    await balanced(settings.database_url)
