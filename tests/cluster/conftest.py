"""Several `salon serve` processes sharing one Postgres database and a Redis of their own.

Each test gets a private `redis-server` on a free port (so that a test may restart it) and a
fresh Postgres database with the demo club. Without `redis-server` these tests skip on a
developer's machine and fail under `CI=true`, like the Postgres tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import RedisServer, demo_club_env


@pytest.fixture
def cluster_env(tmp_path: Path, redis_server: RedisServer) -> Iterator[dict[str, str]]:
    """The environment of every process: one migrated Postgres database with the demo club,
    the private Redis, leases of one second (takeovers within a test's patience)."""
    with demo_club_env(tmp_path, redis_server.url, next_hand_seconds="0.3") as env:
        yield env
