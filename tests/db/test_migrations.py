"""The migrations and the models describe the same schema, on both databases."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from app.db.base import Base
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
