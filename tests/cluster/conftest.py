"""Several `salon serve` processes sharing one Postgres database and a Redis of their own.

Each test gets a private `redis-server` on a free port (so that a test may restart it) and a
fresh Postgres database with the demo club. Without `redis-server` these tests skip on a
developer's machine and fail under `CI=true`, like the Postgres tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import salon, salon_env
from tests.processes import RedisServer


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def cluster_env(tmp_path: Path, redis_server: RedisServer) -> Iterator[dict[str, str]]:
    """The environment of every process: one migrated Postgres database with the demo club,
    the private Redis, leases of one second (takeovers within a test's patience)."""
    url = create_postgres_database()
    try:
        env = salon_env(
            tmp_path,
            url,
            REDIS_URL=redis_server.url,
            SALON_LEASE_SECONDS="1",
            SALON_NEXT_HAND_SECONDS="0.3",
        )
        assert salon("migrate", env=env).returncode == 0
        assert salon("demo", env=env).returncode == 0
        yield env
    finally:
        drop_postgres_database(url)
