"""Salon processes and a Redis of a test's own: what the tests of several processes start.

A private `redis-server` (on a free port, without persistence, so that a test may restart it
and lose everything), and `salon serve` processes that a test may kill or freeze and whose
process ids (their log's first line) it reads. Without `redis-server` a test skips on a
developer's machine and fails under `CI=true`, like the Postgres tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis

from tests.databases import create_postgres_database, drop_postgres_database, postgres_required
from tests.live import RestartableServer, free_port, salon, salon_env

T = TypeVar("T")


def in_thread(work: Callable[..., T], *args: Any) -> T:
    """Run `work` in a thread of its own: the database helpers run an event loop of their
    own, and the caller's thread may be running one already (Playwright's synchronous API)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(work, *args).result()


@contextmanager
def demo_club_env(
    folder: Path, redis_url: str, *, next_hand_seconds: str
) -> Iterator[dict[str, str]]:
    """The environment of every process of a test: a fresh Postgres database, migrated, with
    the demo club; `redis_url`; leases of one second (takeovers within a test's patience).
    The database is dropped afterwards."""
    url = in_thread(create_postgres_database)
    try:
        env = salon_env(
            folder,
            url,
            REDIS_URL=redis_url,
            SALON_LEASE_SECONDS="1",
            SALON_NEXT_HAND_SECONDS=next_hand_seconds,
        )
        assert salon("migrate", env=env).returncode == 0
        assert salon("demo", env=env).returncode == 0
        yield env
    finally:
        in_thread(drop_postgres_database, url)


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

    def kill(self, *, keep_data: bool) -> None:
        """Redis dies at once (SIGKILL). `keep_data`: what it held is saved first and loaded
        at its next start, as with persistence; otherwise it starts empty."""
        dump = self.folder / "dump.rdb"
        if keep_data:
            self.client().save()
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)
        if not keep_data:
            dump.unlink(missing_ok=True)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True)


@contextmanager
def private_redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Process(RestartableServer):
    """`salon serve` with a name of its own (its log: process-NAME.log)."""

    def __init__(self, env: dict[str, str], name: str) -> None:
        super().__init__(env)
        self.name = name
        self.log = Path(env["SALON_DATA_DIR"]) / f"process-{name}.log"

    @property
    def process_id(self) -> str:
        found: list[str] = re.findall(r"processes as process (\S+)", self.log.read_text())
        assert found, self.log.read_text()
        return found[-1]

    def signal(self, number: int) -> None:
        assert self.process is not None
        os.kill(self.process.pid, number)
