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
from pathlib import Path

import pytest
import redis

from tests.databases import postgres_required
from tests.live import RestartableServer, free_port


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
