"""`salon bench live` runs end to end on a scratch database and prints its figures."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, ClassVar

import orjson
import pytest
from websockets.asyncio.server import ServerConnection, serve

from app.commands import bench_clients, bench_live
from app.commands.bench_clients import Outcome, Play, TablePlan
from app.commands.bench_live import _drive
from app.engine.registry import driver
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import salon, salon_env


def test_bench_live_prints_latency_figures(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    env = salon_env(tmp_path)
    summary, stdout = _floor_run(tmp_path, url)
    assert summary["tables"] == 1 and summary["actions"] == 8
    assert summary["actions_per_second"] > 0 and summary["errors"] >= 0
    assert summary["gave_up"] == []
    assert summary["async_commit"] is False and summary["actions_per_write"] == 1.0
    # The server's memory, before seating and with every socket open.
    assert summary["server_rss_before_mb"] > 0 and summary["server_rss_mb"] > 0
    assert abs(summary["rss_kb_per_table"] - 4 * summary["rss_kb_per_socket"]) < 1
    assert 0 < summary["median_ms"] <= summary["p99_ms"] <= summary["max_ms"]
    # The server timed the same actions. Its figures are not bounded by the clients': the
    # server stamps a broadcast once its send returns, which on a busy machine can be after
    # the client has read the frame. The robots close their sockets once they have played
    # their share, so the last action may find one closed and go unmeasured.
    assert 8 - 1 <= summary["server_actions"] <= 8
    assert 0 < summary["server_median_ms"] <= summary["server_p99_ms"]
    assert "server: action received -> last seat's broadcast sent" in stdout
    # The collector's pauses over the same play, per generation, as the server counted them.
    assert sorted(summary["gc_pauses"]) == ["0", "1", "2"]
    assert all(p["count"] >= 0 for p in summary["gc_pauses"].values())
    assert "garbage collections during play: gen 0:" in stdout
    # The write-ahead floor needs Postgres: said so, and no figures.
    assert summary["floor_insert_skipped"] == "the insert floor needs Postgres"
    assert summary["floor_insert_p99_ms"] is None and summary["p99_over_floor_insert"] is None
    again = salon("bench", "live", "--database-url", url, env=env)
    assert again.returncode != 0
    assert "use a scratch one" in again.stderr


def test_bench_live_buys_new_caves_and_spreads_its_clients(tmp_path: Path) -> None:
    """At Bouillotte a hand needs three players with chips: robots whose cave is gone buy
    a new one between hands, or the table stops dealing and the bench waits forever."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    result = salon(
        "bench", "live", "--database-url", url, "--game", "bouillotte",
        "--tables", "2", "--actions", "60", "--clients", "2", "--no-floor",
        env=salon_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["clients"] == 2 and summary["actions"] == 120
    assert summary["floor_skipped"] == "--no-floor" and summary["p99_over_floor"] is None
    # The server records an action once its last seat's socket has the frame; the robots
    # close their sockets as soon as they have played their share, so the last action of
    # each table may find one closed: at most one per table goes unmeasured.
    assert 120 - 2 <= summary["server_actions"] <= 120


def _floor_run(tmp_path: Path, url: str, *options: str) -> tuple[dict[str, Any], str]:
    result = salon(
        "bench", "live", "--database-url", url, "--tables", "1", "--actions", "8",
        "--clients", "1", *options,
        env=salon_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    summary: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    # The bare floor plays the same shape: the same tables and actions, timed both ways.
    assert summary["floor_skipped"] is None and summary["floor_errors"] == 0
    assert summary["floor_server_p99_ms"] > 0 and summary["floor_p99_ms"] > 0
    assert summary["floor_actions_per_second"] > 0
    assert summary["p99_over_floor"] > 0 and summary["server_p99_over_floor"] > 0
    assert "Salon's p99 over it" in result.stdout
    return summary, result.stdout


def test_bench_live_measures_against_a_floor_that_writes_ahead(tmp_path: Path) -> None:
    url = create_postgres_database()
    try:
        summary, stdout = _floor_run(tmp_path, url, "--async-commit")
    finally:
        drop_postgres_database(url)
    # The durability policy asked for is the one measured, and said.
    assert summary["async_commit"] is True and "asynchronous commit" in stdout
    # One table acts one action at a time: each commit carries one.
    assert summary["actions_per_write"] == 1.0
    assert summary["floor_insert_skipped"] is None and summary["floor_insert_errors"] == 0
    assert summary["floor_insert_server_p99_ms"] > 0 and summary["floor_insert_p99_ms"] > 0
    assert summary["p99_over_floor_insert"] > 0 and summary["server_p99_over_floor_insert"] > 0


class _FakeTable:
    """A table server for the robots alone: seat 0 always has `pass` to play. It refuses
    the first action (or, `silent`, never answers one) and answers a resync with a snapshot."""

    VIEW: ClassVar[dict[str, Any]] = {
        "hand": {"phase": "play", "to_act": [0], "legal_actions": [{"action": "pass"}]}
    }

    def __init__(self, *, silent: bool = False) -> None:
        self.silent = silent
        self.version = 1
        self.refused = 0
        self.resyncs = 0
        self.sockets: set[ServerConnection] = set()

    def snapshot(self) -> str:
        return orjson.dumps(
            {"type": "snapshot", "version": self.version, "view": self.VIEW}
        ).decode()

    async def serve(self, ws: ServerConnection) -> None:
        self.sockets.add(ws)
        await ws.send(self.snapshot())
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "resync":
                self.resyncs += 1
                await ws.send(self.snapshot())
            elif self.silent:
                continue
            elif not self.refused:
                self.refused += 1
                error = {"type": "error", "code": "stale_version", "ref": message["id"]}
                await ws.send(orjson.dumps(error).decode())
            else:
                self.version += 1
                for peer in self.sockets:
                    await peer.send(self.snapshot())


async def _robots_at(table: _FakeTable, actions: int) -> Outcome:
    async with serve(table.serve, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        play = Play(f"http://127.0.0.1:{port}", "bourre", actions, think=0, buy_in=10_000)
        plan = TablePlan(table_id=1, seed=0.5, cookies=[{"salon_session": "x"}] * 4)

        async def ready() -> None:
            return None

        return await _drive(play, [plan], ready)


async def test_a_refused_action_is_counted_and_the_robot_looks_again() -> None:
    table = _FakeTable()
    outcome = await asyncio.wait_for(_robots_at(table, actions=2), 10)
    assert outcome.errors == 1 and table.resyncs == 1
    assert len(outcome.samples) == 2 and outcome.gave_up == []


async def test_a_table_that_never_answers_is_given_up_not_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_clients, "STUCK_SECONDS", 0.3)
    monkeypatch.setattr(bench_live, "STUCK_SECONDS", 0.3)
    outcome = await asyncio.wait_for(_robots_at(_FakeTable(silent=True), actions=2), 10)
    assert outcome.samples == []
    assert len(outcome.gave_up) == 1 and "had no answer" in outcome.gave_up[0]


@pytest.mark.parametrize(
    ("game", "stack", "buys"),
    [
        ("bourre", 999, True),
        ("bourre", 1000, False),
        ("bouillotte", 0, True),
        ("bouillotte", 1, False),
    ],
)
def test_a_robot_buys_again_when_low_if_its_game_lets_it(game: str, stack: int, buys: bool) -> None:
    """Down to a tenth of its buy-in; at Bouillotte only once the cave is gone (§1)."""
    assert bench_clients.needs_chips(game, stack, driver(game).bench_table.buy_in) is buys
