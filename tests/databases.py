"""Real databases for the tests: an SQLite file, and a fresh Postgres database per run.

Postgres is found at SALON_TEST_POSTGRES_URL (default: the local server, user postgres).
When it cannot be reached the Postgres tests skip on a developer's machine, but fail when
`CI=true` (or SALON_REQUIRE_POSTGRES=1): CI must never pass by skipping them.
"""

from __future__ import annotations

import asyncio
import os
import secrets

import asyncpg
import pytest

ADMIN_URL = os.environ.get(
    "SALON_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)


def postgres_required() -> bool:
    return os.environ.get("CI", "").lower() == "true" or os.environ.get(
        "SALON_REQUIRE_POSTGRES", ""
    ) in ("1", "true")


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def _with_database(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(_dsn(ADMIN_URL), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def create_postgres_database() -> str:
    """Create an empty database and return its SQLAlchemy URL (or skip/fail if no server)."""
    name = f"salon_test_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        message = f"PostgreSQL is not reachable at {ADMIN_URL}: {error}"
        if postgres_required():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return _with_database(ADMIN_URL, name)


def drop_postgres_database(url: str) -> None:
    name = url.rpartition("/")[2]
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
