"""Migration 0004 gives every hand finished before it its per-seat rows and pot, on both
databases: hands played live, the migration undone and done again, the same rows back."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select

from app.config import Settings
from app.db.migrate import alembic_config, upgrade_head
from app.db.models import Hand, HandSeat
from app.db.session import Database
from tests.api.hand_play import NAMES, TABLES, open_sockets, play_hands
from tests.databases import create_postgres_database, drop_postgres_database
from tests.tables.harness import open_room

Rows = list[tuple[object, ...]]


async def _rows(db: Database) -> tuple[Rows, Rows]:
    async with db.transaction() as session:
        seats = (await session.scalars(select(HandSeat).order_by(HandSeat.id))).all()
        hands = (await session.scalars(select(Hand).order_by(Hand.id))).all()
        return (
            [
                (
                    s.hand_id,
                    s.table_id,
                    s.user_id,
                    s.seat_no,
                    s.game,
                    s.ended_at,
                    s.stack_before,
                    s.stack_after,
                    s.net,
                    s.won,
                    s.bourres_paid,
                    s.brelan,
                )
                for s in seats
            ],
            [(h.id, h.pot) for h in hands],
        )


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("game", ["bourre", "bouillotte"])
async def test_the_migration_backfills_finished_hands(
    tmp_path: Path, backend: str, game: str
) -> None:
    url = (
        f"sqlite+aiosqlite:///{tmp_path / 'backfill.db'}"
        if backend == "sqlite"
        else await asyncio.to_thread(create_postgres_database)
    )
    try:
        await asyncio.to_thread(upgrade_head, url)
        settings = Settings(
            env="test",
            database_url=url,
            data_dir=tmp_path,
            secret_key="test-secret-key-" + "x" * 32,
        )
        db = Database(url, pool_size=5)
        async with open_room(
            settings, db, TABLES[game], NAMES, 100, ws_messages_per_window=10_000
        ) as room:
            await open_sockets(room.players, room.table_id)
            await play_hands(room, 3, random.Random(21))
        seats, pots = await _rows(db)
        assert len(pots) == 3 and len(seats) >= 6
        await db.dispose()

        config = alembic_config(url)
        await asyncio.to_thread(command.downgrade, config, "0003")
        await asyncio.to_thread(command.upgrade, config, "head")

        db = Database(url, pool_size=5)
        backfilled, pots_again = await _rows(db)
        assert sorted(r for r in backfilled) == sorted(seats)
        assert pots_again == pots
        async with db.transaction() as session:
            assert all(h.revealed for h in (await session.scalars(select(Hand))).all())
        await db.dispose()
    finally:
        if backend == "postgres":
            await asyncio.to_thread(drop_postgres_database, url)
