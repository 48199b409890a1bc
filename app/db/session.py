"""Engine and session factory for the configured database.

SQLite (the embedded default) gets the settings that make it a safe little server: foreign
keys on, WAL so readers don't block the writer, a busy timeout, and `BEGIN IMMEDIATE` so a
transaction takes the write lock up front instead of failing half-way with "database is
locked" when two writers meet.

Postgres connections that sat idle in the pool are checked before use (a restarted server
or a firewall may have dropped them); one used moments ago is not: asyncpg's check is three
round trips (BEGIN, a query, ROLLBACK), which would triple the cost of a played card. If a
busy connection turns out dead all the same, its statement fails and SQLAlchemy replaces
every connection of the pool.

Postgres connections stay open: the pool has no overflow, so a busy moment waits for a
connection instead of opening one that is closed again when it comes back. A server on this
machine (localhost, a Unix socket) is reached without TLS unless the URL asks for it
(`?sslmode=`, app/db/tls.py): asyncpg's default tries TLS first, a handshake for nothing on a
local socket.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import NullPool

from app.db.tls import SslArgument, split_tls, ssl_argument

# A pooled connection unused for longer than this is checked before it is handed out.
PING_AFTER_IDLE_SECONDS = 10.0


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _ping_when_idle(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine.pool, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine.sync_engine.pool, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE_SECONDS:
            return  # new, or in use a moment ago
        try:
            dbapi_connection.ping()
        except Exception as error:
            raise DisconnectionError("a pooled connection was dropped") from error  # retried


LOCAL_HOSTS = {"", "localhost", "127.0.0.1", "::1"}


def is_local(url: str) -> bool:
    """A Postgres URL to this machine (a local address, or a Unix socket's folder)."""
    parts = urlsplit(url)
    socket_dir = parse_qs(parts.query).get("host", [""])[0]
    return (parts.hostname or "") in LOCAL_HOSTS or socket_dir.startswith("/")


def postgres_connection(url: str) -> tuple[str, SslArgument | None]:
    """A Postgres URL without its TLS keys, and asyncpg's `ssl` argument for what they ask
    (None: asyncpg's default). A local server the URL says nothing of TLS about is reached
    without it."""
    bare, request = split_tls(url)
    argument = ssl_argument(request)
    if argument is None and is_local(bare):
        argument = False
    return bare, argument


def create_engine(
    url: str, *, pool_size: int = 20, null_pool: bool = False, async_commit: bool = False
) -> AsyncEngine:
    """`async_commit` (Postgres): a commit returns before its log reaches the disk
    (`synchronous_commit = off`). A crash of the database itself (or of the machine) may
    then forget the last commits — up to three times `wal_writer_delay`, 600 ms by
    default — though never half of one; a crash of this process loses nothing."""
    kwargs: dict[str, Any] = {}
    connect_args: dict[str, Any] = {}
    if url.startswith("postgresql"):
        url, tls = postgres_connection(url)
        if tls is not None:
            connect_args["ssl"] = tls
    if url.startswith("postgresql") and async_commit:
        connect_args["server_settings"] = {"synchronous_commit": "off"}
    if connect_args:
        kwargs["connect_args"] = connect_args
    if null_pool:
        kwargs["poolclass"] = NullPool
    elif url.startswith("postgresql"):
        kwargs.update(pool_size=pool_size, max_overflow=0)
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine)
    elif not null_pool:
        _ping_when_idle(engine)
    return engine


class Database:
    """The app's one engine and its session factory."""

    def __init__(
        self, url: str, *, pool_size: int = 20, null_pool: bool = False, async_commit: bool = False
    ) -> None:
        self.url = url
        self.engine = create_engine(
            url, pool_size=pool_size, null_pool=null_pool, async_commit=async_commit
        )
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)

    @property
    def kind(self) -> str:
        return (
            "postgresql" if self.engine.dialect.name == "postgresql" else self.engine.dialect.name
        )

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One unit of work: committed when the block ends, rolled back if it raises."""
        async with self.sessionmaker() as session, session.begin():
            yield session

    async def dispose(self) -> None:
        await self.engine.dispose()
