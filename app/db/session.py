"""Engine and session factory for the configured database.

SQLite (the embedded default) gets the settings that make it a safe little server: foreign
keys on, WAL so readers don't block the writer, a busy timeout, and `BEGIN IMMEDIATE` so a
transaction takes the write lock up front instead of failing half-way with "database is
locked" when two writers meet.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import NullPool


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


def create_engine(url: str, *, pool_size: int = 10, null_pool: bool = False) -> AsyncEngine:
    kwargs: dict[str, Any] = {}
    if null_pool:
        kwargs["poolclass"] = NullPool
    elif url.startswith("postgresql"):
        kwargs.update(pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine)
    return engine


class Database:
    """The app's one engine and its session factory."""

    def __init__(self, url: str, *, pool_size: int = 10, null_pool: bool = False) -> None:
        self.url = url
        self.engine = create_engine(url, pool_size=pool_size, null_pool=null_pool)
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
