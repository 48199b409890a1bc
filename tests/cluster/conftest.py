"""Several `salon serve` processes sharing one Postgres database and a Redis of their own.

Each test gets a private `redis-server` on a free port (so that a test may restart it) and a
fresh Postgres database with the demo club. Without `redis-server` these tests skip on a
developer's machine and fail under `CI=true`, like the Postgres tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.databases import create_postgres_database, drop_postgres_database, postgres_required
from tests.live import free_port, salon, salon_env


class RedisServer:
    """A private redis-server, without persistence (as a restart that loses everything)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            message = "redis-server is not installed"
            if postgres_required():
                pytest.fail(message, pytrace=False)
            pytest.skip(message)
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def signal(self, number: int) -> None:
        assert self.process is not None
        os.kill(self.process.pid, number)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True)


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
