"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.config import Settings
from app.db.base import Base
from app.db.migrate import upgrade_head
from app.db.session import Database
from app.main import create_app
from app.security.passwords import use_hashing
from tests.databases import create_postgres_database, drop_postgres_database
from tests.processes import RedisServer, private_redis

BACKENDS = ("sqlite", "postgres")

# Members are created and log in by the thousand in a run: the cheap Argon2 parameters,
# also for what tests create without an app (tests/security checks the standard ones).
use_hashing("fast-insecure")


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('sqlite') / 'salon.db'}"
    upgrade_head(url)
    return url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh, migrated Postgres database for this run, dropped at the end."""
    url = create_postgres_database()
    try:
        upgrade_head(url)
        yield url
    finally:
        drop_postgres_database(url)


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test using it runs once on SQLite and once on Postgres."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


async def emptied(url: str) -> Database:
    """The database with every table emptied. Append-only tables (the admins' audit log)
    refuse deletion by triggers: here, and only here, those triggers are set aside for the
    cleanup and put back as they were, in the same transaction."""
    database = Database(url, pool_size=5)
    tables = [t.name for t in reversed(Base.metadata.sorted_tables)]
    async with database.engine.begin() as conn:
        if database.kind == "postgresql":
            guarded = (
                await conn.execute(
                    text(
                        "SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger "
                        "WHERE NOT tgisinternal"
                    )
                )
            ).scalars()
            guarded_tables = list(guarded)
            for table in guarded_tables:
                await conn.execute(text(f"ALTER TABLE {table} DISABLE TRIGGER USER"))
            await conn.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
            for table in guarded_tables:
                await conn.execute(text(f"ALTER TABLE {table} ENABLE TRIGGER USER"))
        else:
            triggers = (
                await conn.execute(
                    text("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
                )
            ).all()
            for name, _ in triggers:
                await conn.execute(text(f'DROP TRIGGER "{name}"'))
            for table in tables:
                await conn.execute(text(f"DELETE FROM {table}"))  # noqa: S608 (our own names)
            for _, sql in triggers:
                await conn.exec_driver_sql(sql)
    return database


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """The database, emptied before each test."""
    database = await emptied(database_url)
    yield database
    await database.dispose()


@pytest.fixture
async def pg_db(postgres_url: str) -> AsyncIterator[Database]:
    """Postgres only, for what only Postgres can show (row-lock concurrency)."""
    database = await emptied(postgres_url)
    yield database
    await database.dispose()


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(
        env="test",
        database_url=database_url,
        data_dir=tmp_path,
        secret_key="test-secret-key-" + "x" * 32,
        login_max_failures=5,
        # Many apps start and stop in one test process: freezing would keep their garbage.
        gc_freeze=False,
        argon2_profile="fast-insecure",
        # Play starts after the pause the live tests let run out (3 s) rather than the
        # club's longer gathering countdown; the tests of the gathering set their own.
        gathering_seconds=3.0,
    )


@pytest.fixture
async def app(settings: Settings, db: Database) -> AsyncIterator[FastAPI]:
    application = create_app(settings)
    yield application
    await application.state.db.dispose()


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as c:
        yield c


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own (tests/processes.py), stopped afterwards."""
    with private_redis(tmp_path) as server:
        yield server
