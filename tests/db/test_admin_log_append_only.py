"""The audit log is append-only in the database itself: whatever the code does, an UPDATE
or a DELETE of one of its rows fails, on SQLite and on Postgres (and TRUNCATE on Postgres).

The `db` fixture empties every table before each test by setting these triggers aside and
putting them back: the refusals below also prove they are back.
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError

from app.db.models import AdminAction
from app.db.session import Database
from app.services import admin_log
from tests.helpers import found_club

REFUSED = [
    "UPDATE admin_actions SET action = 'member.ban'",
    "UPDATE admin_actions SET after = NULL WHERE id = 1",
    "DELETE FROM admin_actions",
    "DELETE FROM admin_actions WHERE id = 1",
]


async def _one_row(db: Database) -> int:
    owner = await found_club(db)
    async with db.transaction() as session:
        await admin_log.record(
            session,
            actor_id=owner,
            action="club.settings",
            target_kind="club",
            target_id=1,
            target_label="Test Club",
            before={"name": "Test Club"},
            after={"name": "Le Cercle"},
        )
    return owner


async def _rows(db: Database) -> list[tuple[object, ...]]:
    async with db.engine.connect() as conn:
        result = await conn.execute(
            text("SELECT id, actor_id, action, target_id, before, after FROM admin_actions")
        )
        return [tuple(row) for row in result.all()]


@pytest.mark.parametrize("statement", REFUSED)
async def test_the_database_refuses_to_change_or_delete_audit_rows(
    db: Database, statement: str
) -> None:
    await _one_row(db)
    before = await _rows(db)
    with pytest.raises(DBAPIError, match="append-only"):
        async with db.engine.begin() as conn:
            await conn.execute(text(statement))
    assert await _rows(db) == before


async def test_the_orm_cannot_edit_a_row_either(db: Database) -> None:
    await _one_row(db)
    with pytest.raises(DBAPIError, match="append-only"):
        async with db.transaction() as session:
            row = await session.scalar(select(AdminAction))
            assert row is not None
            row.action = "member.ban"
    async with db.transaction() as session:
        assert await session.scalar(select(AdminAction.action)) == "club.settings"


async def test_postgres_refuses_truncate(pg_db: Database) -> None:
    await _one_row(pg_db)
    with pytest.raises(DBAPIError, match="append-only"):
        async with pg_db.engine.begin() as conn:
            await conn.execute(text("TRUNCATE admin_actions"))
    async with pg_db.transaction() as session:
        assert await session.scalar(select(func.count(AdminAction.id))) == 1


async def test_a_failed_action_leaves_no_row(db: Database) -> None:
    """The row is written in the action's own transaction: when the action fails after
    recording, the row goes with it."""
    owner = await found_club(db)

    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with db.transaction() as session:
            await admin_log.record(
                session, actor_id=owner, action="club.settings", target_kind="club", target_id=1
            )
            raise Boom
    assert await _rows(db) == []


async def test_unknown_action_names_are_refused_by_the_code(db: Database) -> None:
    owner = await found_club(db)
    with pytest.raises(ValueError, match="unknown admin action"):
        async with db.transaction() as session:
            await admin_log.record(
                session, actor_id=owner, action="club.rename", target_kind="club", target_id=1
            )
