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
    again = salon("bench", "live", "--database-url", url, env=env)
    assert again.returncode != 0
    assert "use a scratch one" in again.stderr
