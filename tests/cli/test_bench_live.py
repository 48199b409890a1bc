"""`salon bench live` runs end to end on a scratch database and prints its figures."""

from __future__ import annotations

import json
from pathlib import Path

from tests.live import salon, salon_env


def test_bench_live_prints_latency_figures(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    env = salon_env(tmp_path)
    result = salon(
        "bench", "live", "--database-url", url, "--tables", "1", "--actions", "6", env=env
    )
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["tables"] == 1 and summary["actions"] == 6
    assert 0 < summary["median_ms"] <= summary["p99_ms"] <= summary["max_ms"]
    # The server timed the same actions. Its figures are not bounded by the clients': the
    # server stamps a broadcast once its send returns, which on a busy machine can be after
    # the client has read the frame.
    assert summary["server_actions"] == 6
    assert 0 < summary["server_median_ms"] <= summary["server_p99_ms"]
    assert "server: action received -> last seat's broadcast sent" in result.stdout
    again = salon("bench", "live", "--database-url", url, env=env)
    assert again.returncode != 0
    assert "use a scratch one" in again.stderr


def test_bench_live_buys_new_caves_and_spreads_its_clients(tmp_path: Path) -> None:
    """At Bouillotte a hand needs three players with chips: robots whose cave is gone buy
    a new one between hands, or the table stops dealing and the bench waits forever."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    result = salon(
        "bench", "live", "--database-url", url, "--game", "bouillotte",
        "--tables", "2", "--actions", "60", "--clients", "2",
        env=salon_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["clients"] == 2 and summary["actions"] == 120
    # The server records an action once its last seat's socket has the frame; the robots
    # close their sockets as soon as they have played their share, so the last action of
    # each table may find one closed: at most one per table goes unmeasured.
    assert 120 - 2 <= summary["server_actions"] <= 120
