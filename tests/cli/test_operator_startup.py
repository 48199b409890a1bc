"""`salon serve` refuses in one sentence (exit status 2) what would otherwise fail after it
announced itself: a port another program holds, a second server on the embedded database.
The real command, against real servers."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.cli.one_sentence import assert_one_sentence
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import RestartableServer, free_port, salon, salon_env


def _migrated(tmp_path: Path) -> dict[str, str]:
    env = salon_env(tmp_path)
    migrated = salon("migrate", env=env)
    assert migrated.returncode == 0, migrated.stderr
    return env


def test_a_port_in_use_is_refused_before_anything_is_announced(tmp_path: Path) -> None:
    env = _migrated(tmp_path)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = salon("serve", "--port", str(port), env=env)
    assert_one_sentence(result, f"Port {port} on 127.0.0.1 is already in use", "--port")
    assert "Salon serving" not in result.stdout
    assert "startup" not in result.stdout + result.stderr
    outside = salon("serve", "--port", "70000", env=env)
    assert_one_sentence(outside, "--port 70000 is not a port", "1 to 65535")


def test_a_port_in_use_is_refused_before_joining_the_other_processes(tmp_path: Path) -> None:
    scratch = create_postgres_database()
    try:
        prefix = f"salon-port-test-{free_port()}"
        env = salon_env(
            tmp_path, scratch, REDIS_URL="redis://127.0.0.1:6379/0", SALON_REDIS_PREFIX=prefix
        )
        assert salon("migrate", env=env).returncode == 0
        with socket.socket() as holder:
            holder.bind(("127.0.0.1", 0))
            holder.listen()
            port = holder.getsockname()[1]
            result = salon("serve", "--port", str(port), env=env)
        assert_one_sentence(result, f"Port {port} on 127.0.0.1 is already in use")
        assert "other processes" not in result.stdout + result.stderr
    finally:
        drop_postgres_database(scratch)


def test_the_embedded_database_has_one_serving_process(tmp_path: Path) -> None:
    env = _migrated(tmp_path)
    first = RestartableServer(env)
    first.start()
    try:
        assert first.process is not None
        second = salon("serve", "--port", str(free_port()), env=env)
        assert_one_sentence(
            second,
            f"Another `salon serve` (process {first.process.pid}) is already serving",
            "PostgreSQL and Redis",
        )
        assert "Salon serving" not in second.stdout
        # Killed outright, the first leaves no lock behind: a new server starts.
        first.kill()
        first.start()
    finally:
        first.stop()
