"""`salon bench live --processes N`: N server processes share one Postgres database through
a Redis, and the robots' requests and sockets are spread over them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import redis

from tests.databases import create_postgres_database, drop_postgres_database, postgres_required
from tests.live import salon, salon_env

REDIS_URL = "redis://127.0.0.1:6379/0"


def _redis_or_skip() -> None:
    """The local Redis, or skip (fail under CI: it must never pass by skipping)."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=2).ping()
    except (redis.RedisError, OSError) as error:
        message = f"Redis is not reachable at {REDIS_URL}: {error}"
        if postgres_required():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def _keys(prefix: str) -> list[str]:
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    return list(client.scan_iter(match=f"{prefix}:*"))


def test_bench_live_plays_on_two_processes(tmp_path: Path) -> None:
    _redis_or_skip()
    url = create_postgres_database()
    try:
        result = salon(
            "bench", "live", "--database-url", url, "--tables", "2", "--actions", "20",
            "--processes", "2", "--redis-url", REDIS_URL, "--no-floor",
            env=salon_env(tmp_path),
        )  # fmt: skip
    finally:
        drop_postgres_database(url)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["processes"] == 2 and summary["database"] == "postgresql"
    assert summary["errors"] == 0 and summary["gave_up"] == []
    assert summary["actions"] == 40 and summary["actions_per_second"] > 0
    # Every table was served by one of the two processes.
    assert len(summary["tables_per_process"]) == 2 and sum(summary["tables_per_process"]) == 2
    # Each process times only the actions that reached its own sockets at its own tables.
    assert 0 <= summary["server_actions"] <= 40
    assert "actions arriving at their table's own process only" in result.stdout
    assert "server memory (2 processes together)" in result.stdout
    assert summary["server_rss_mb"] > 0
    # The run's keys are gone: its prefix was its own.
    assert summary["redis_prefix"].startswith("bench-")
    assert _keys(summary["redis_prefix"]) == []


def test_bench_live_refuses_several_processes_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    result = salon(
        "bench", "live", "--database-url", url, "--processes", "2", env=salon_env(tmp_path)
    )
    assert result.returncode == 2
    assert "several processes can only share a PostgreSQL database" in result.stderr
    assert not (tmp_path / "bench.db").exists()
