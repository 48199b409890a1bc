"""Run the real `salon` command as a subprocess: a server on a free port, CLI commands."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

PROJECT_DIR = Path(__file__).resolve().parents[1]


def salon_env(data_dir: Path, database_url: str | None = None, **extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("SALON_") and k != "DATABASE_URL"
    }
    env["SALON_DATA_DIR"] = str(data_dir)
    # Hundreds of members log in during a run: the cheap hash (production refuses it).
    env["SALON_ARGON2_PROFILE"] = "fast-insecure"
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update(extra)
    # Unless a test asks for its own, play starts after the same short pause as between
    # hands (the club's longer gathering countdown would slow every test that deals).
    if "SALON_NEXT_HAND_SECONDS" in env:
        env.setdefault("SALON_GATHERING_SECONDS", env["SALON_NEXT_HAND_SECONDS"])
    return env


def salon(
    *args: str, env: dict[str, str], stdin: str | None = None, source: Path = PROJECT_DIR
) -> subprocess.CompletedProcess[str]:
    """The `salon` command of the source tree `source` (this checkout unless another is
    named, such as a previous release's exported tree)."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        env=env,
        cwd=source,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(env: dict[str, str], *, stderr_to: Path | None = None) -> Iterator[str]:
    """`salon serve` on a free port; yields its base URL and stops it afterwards.
    `stderr_to`: the server's log lines (stderr) go to that file, apart from its stdout."""
    port = free_port()
    # The server's log goes to a file: a pipe nobody reads would fill up and stall it.
    log_path = Path(env["SALON_DATA_DIR"]) / f"server-{port}.log"
    log_file = log_path.open("w")
    errors = stderr_to.open("w") if stderr_to is not None else None
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        env=env,
        cwd=PROJECT_DIR,
        stdout=log_file,
        stderr=errors if errors is not None else subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                said = log_path.read_text() + (stderr_to.read_text() if stderr_to else "")
                raise RuntimeError(f"salon serve exited: {said}")
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("salon serve did not become healthy in 30 s")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log_file.close()
        if errors is not None:
            errors.close()


class RestartableServer:
    """`salon serve` on a port of its own that a test may kill (SIGKILL) and start again
    on the same port, the same database and data directory."""

    def __init__(
        self, env: dict[str, str], *, source: Path = PROJECT_DIR, log_name: str = "crash-server.log"
    ) -> None:
        self.env = env
        # The source tree whose `salon` runs (see `salon`).
        self.source = source
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(env["SALON_DATA_DIR"]) / log_name

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
            env=self.env,
            cwd=self.source,
            stdout=self.log.open("a"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://{self.host}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(self.log.read_text())

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Stop the server as a service manager would: SIGTERM, then SIGKILL after 15 s."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def demo_password(env: dict[str, str], who: str) -> str:
    """The password `salon demo` printed for the admin (who="admin") or the members."""
    text = (Path(env["SALON_DATA_DIR"]) / "demo-credentials.txt").read_text()
    pattern = r"admin login:\s+admin / (\S+)" if who == "admin" else r"member logins: .* / (\S+)"
    found = re.search(pattern, text)
    assert found
    return found.group(1)
