"""Fixtures of the table runtime's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import salon, salon_env


@pytest.fixture
def pg_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """`salon serve`'s environment for the kill -9 tests: a migrated Postgres database
    holding the demo club, dropped afterwards."""
    url = create_postgres_database()
    try:
        env = salon_env(tmp_path, url, SALON_NEXT_HAND_SECONDS="0.3")
        assert salon("migrate", env=env).returncode == 0
        assert salon("demo", env=env).returncode == 0
        yield env
    finally:
        drop_postgres_database(url)
