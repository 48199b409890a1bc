"""Pooled Postgres connections: checked when they sat idle, trusted when used a moment ago."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.exc import DBAPIError

from app.db import session as db_session
from app.db.models import Club
from app.db.session import Database


@pytest.fixture
async def one_connection(postgres_url: str) -> AsyncIterator[Database]:
    database = Database(postgres_url, pool_size=1)
    yield database
    await database.dispose()


async def _backend(db: Database) -> int:
    async with db.transaction() as session:
        return int(await session.scalar(text("select pg_backend_pid()")) or 0)


async def _drop(db: Database, pid: int) -> None:
    """What a restarted server or a firewall does to a connection sitting in the pool."""
    other = Database(db.url, null_pool=True)
    try:
        async with other.transaction() as session:
            await session.execute(text("select pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        await other.dispose()


async def test_an_idle_connection_dropped_meanwhile_is_replaced(
    one_connection: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_session, "PING_AFTER_IDLE_SECONDS", 0.0)
    first = await _backend(one_connection)
    await _drop(one_connection, first)
    assert await _backend(one_connection) not in (0, first)


async def test_a_busy_connection_is_not_checked_and_a_failure_renews_the_pool(
    one_connection: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No check for a connection used moments ago (it would be three round trips on every
    action); if it died all the same, that one statement fails, the next ones do not."""
    monkeypatch.setattr(db_session, "PING_AFTER_IDLE_SECONDS", 3600.0)
    first = await _backend(one_connection)
    await _drop(one_connection, first)
    with pytest.raises(DBAPIError):
        await _backend(one_connection)
    assert await _backend(one_connection) not in (0, first)


async def test_a_single_statement_is_committed_when_it_returns(db: Database) -> None:
    async with db.single_statement() as connection:
        await connection.execute(insert(Club).values(name="Solo"))
    other = Database(db.url, null_pool=True)
    try:
        async with other.transaction() as session:
            assert await session.scalar(select(Club.name)) == "Solo"
    finally:
        await other.dispose()
