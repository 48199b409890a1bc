"""Pooled Postgres connections: checked when they sat idle, trusted when used a moment ago."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.db import session as db_session
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


@pytest.mark.parametrize(
    ("url", "local_plain"),
    [
        ("postgresql+asyncpg://salon@127.0.0.1:5432/salon", True),
        ("postgresql+asyncpg://salon@localhost/salon", True),
        ("postgresql+asyncpg://salon@[::1]/salon", True),
        ("postgresql+asyncpg://salon@/salon?host=/var/run/postgresql", True),
        ("postgresql+asyncpg://salon@127.0.0.1/salon?ssl=require", False),
        ("postgresql+asyncpg://salon@db.example.org/salon", False),
    ],
)
def test_tls_is_skipped_only_for_this_machine_and_only_unless_asked(
    url: str, local_plain: bool
) -> None:
    bare, tls = db_session.postgres_connection(url)
    assert (tls is False) is local_plain
    assert "ssl" not in bare


async def test_connections_stay_open_in_a_pool_without_overflow(postgres_url: str) -> None:
    database = Database(postgres_url, pool_size=3)
    try:
        pool = database.engine.sync_engine.pool
        assert pool.size() == 3 and getattr(pool, "_max_overflow", None) == 0
        pids = {await _backend(database) for _ in range(5)}
        assert len(pids) == 1  # one at a time: the same connection, kept open
    finally:
        await database.dispose()


async def test_commits_wait_for_the_disk_unless_asynchronous_commit_is_asked(
    postgres_url: str,
) -> None:
    for asked, expected in ((False, "on"), (True, "off")):
        database = Database(postgres_url, pool_size=1, async_commit=asked)
        try:
            async with database.transaction() as session:
                setting = await session.scalar(text("show synchronous_commit"))
        finally:
            await database.dispose()
        assert setting == expected
