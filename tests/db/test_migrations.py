"""The migrations and the models describe the same schema, on both databases."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from app.db.base import Base
from app.db.migrate import alembic_config
from app.db.models import Club
from app.db.session import Database


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_models_match_the_migrated_schema(db: Database) -> None:
    async with db.engine.connect() as conn:
        differences = await conn.run_sync(_diff)
    assert differences == []


async def test_the_no_overdraft_check_exists(db: Database) -> None:
    def checks(connection: Connection) -> list[str]:
        return [c["name"] or "" for c in inspect(connection).get_check_constraints("accounts")]

    async with db.engine.connect() as conn:
        names = await conn.run_sync(checks)
    assert any("no_overdraft" in name for name in names)


def test_upgrading_keeps_existing_data(tmp_path: Path) -> None:
    """A club made under the first schema survives every later migration, on both
    databases (new columns get their defaults)."""
    from tests.databases import create_postgres_database, drop_postgres_database

    postgres = create_postgres_database()
    try:
        for url in (f"sqlite+aiosqlite:///{tmp_path / 'old.db'}", postgres):
            config = alembic_config(url)
            command.upgrade(config, "0001")
            asyncio.run(_insert_old_club(url))
            command.upgrade(config, "head")
            assert asyncio.run(_read_club(url)) == ("Old Club", False)
    finally:
        drop_postgres_database(postgres)


async def _insert_old_club(url: str) -> None:
    db = Database(url, null_pool=True)
    async with db.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO club (id, name, chip_unit, signup_requires_approval, "
                "default_turn_seconds, created_at) VALUES (1, 'Old Club', 'chips', true, 30, "
                "CURRENT_TIMESTAMP)"
            )
        )
    await db.dispose()


async def _read_club(url: str) -> tuple[str, bool]:
    db = Database(url, null_pool=True)
    async with db.transaction() as session:
        club = await session.get(Club, 1)
        assert club is not None
        found = (club.name, club.members_may_create_tables)
    await db.dispose()
    return found


async def _write(url: str, sql: str, **values: object) -> None:
    db = Database(url, null_pool=True)
    try:
        async with db.engine.begin() as conn:
            await conn.execute(text(sql), values)
    finally:
        await db.dispose()


async def _insert_ruleset(url: str, owner: int, game: str) -> None:
    await _write(
        url,
        "INSERT INTO rulesets (game, name, description, options, archived, created_by_id, "
        "created_at, updated_at) VALUES (:game, :game, '', '{}', false, :owner, "
        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
        game=game,
        owner=owner,
    )


async def _game_checks(url: str) -> list[str]:
    def names(connection: Connection) -> list[str]:
        inspector = inspect(connection)
        return sorted(
            c["name"] or ""
            for table in ("game_tables", "rulesets")
            for c in inspector.get_check_constraints(table)
            if "game_known" in (c["name"] or "")
        )

    db = Database(url, null_pool=True)
    try:
        async with db.engine.connect() as conn:
            return await conn.run_sync(names)
    finally:
        await db.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_the_games_are_the_registrys_to_check_not_the_databases(
    tmp_path: Path, backend: str
) -> None:
    """0012 drops the checks that listed the two games (a third would have needed a
    migration); its downgrade puts them back, and the database enforces them again."""
    from tests.databases import create_postgres_database, drop_postgres_database
    from tests.helpers import found_club

    url = (
        f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
        if backend == "sqlite"
        else await asyncio.to_thread(create_postgres_database)
    )
    try:
        config = alembic_config(url)
        await asyncio.to_thread(command.upgrade, config, "head")
        assert await _game_checks(url) == []
        db = Database(url, null_pool=True)
        owner = await found_club(db)
        await db.dispose()
        await _insert_ruleset(url, owner, "a_new_game")
        # The downgrade's check would refuse that row (and the downgrade with it).
        await _write(url, "DELETE FROM rulesets WHERE game = 'a_new_game'")

        await asyncio.to_thread(command.downgrade, config, "0011")
        assert await _game_checks(url) == ["ck_game_tables_game_known", "ck_rulesets_game_known"]
        with pytest.raises(IntegrityError):
            await _insert_ruleset(url, owner, "another_game")
        await _insert_ruleset(url, owner, "bouillotte")

        await asyncio.to_thread(command.upgrade, config, "head")
        assert await _game_checks(url) == []
    finally:
        if backend == "postgres":
            await asyncio.to_thread(drop_postgres_database, url)
