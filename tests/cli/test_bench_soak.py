"""`salon bench soak`: a short soak at one process and at three (one killed in turn), and
the verdict, which fails when memory grows, an error is not a refusal, or nothing ran."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.commands.soak_verdict import (
    GROWTH_MB,
    MIN_SAMPLES,
    Life,
    judge,
    unexpected_errors,
    windows,
)
from app.commands.soak_verdict import growth as growth_of
from tests.cli.test_bench_live_processes import REDIS_URL, _keys, _redis_or_skip
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import salon, salon_env


def _soak(tmp_path: Path, *options: str) -> tuple[dict[str, Any], str]:
    url = create_postgres_database()
    try:
        result = salon(
            "bench", "soak", "--database-url", url, "--minutes", "0.3", "--tables", "4",
            "--sample-seconds", "2", *options,
            env=salon_env(tmp_path),
        )  # fmt: skip
    finally:
        drop_postgres_database(url)
    assert result.returncode == 0, result.stdout + result.stderr
    summary: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return summary, result.stdout


def _assert_clean(summary: dict[str, Any], stdout: str) -> None:
    # Each kind of table, in both games, played.
    assert summary["tables_by_kind"] == {"fill": 1, "practice": 1, "bots": 2}
    assert summary["hands"] > 0 and summary["actions"] > summary["hands"]
    # The members played, and every action they saw accepted is stored once.
    assert summary["member_actions_acknowledged"] > 0
    assert summary["failed_requests"] == [] and summary["unexpected_error_frames"] == {}
    # The answers that are no fault, counted apart from the error frames and incidents.
    assert "no_spectators" not in summary["error_frames"]
    assert summary["refused_after_standing"] >= 0 and summary["done_before_answered"] >= 0
    assert "refused no_spectators as a stand took effect" in stdout
    assert summary["audits"] and all(audit["ok"] for audit in summary["audits"])
    assert summary["stuck"] == []
    # The memory curve, one column per process, judged.
    assert "server memory (RSS, MB):" in stdout
    assert len(summary["rss_curve"]) >= MIN_SAMPLES and summary["memory"]
    assert summary["verdict"] == "pass" and summary["failures"] == []
    assert "verdict: PASS" in stdout


def test_bench_soak_at_one_process(tmp_path: Path) -> None:
    summary, stdout = _soak(tmp_path)
    _assert_clean(summary, stdout)
    assert summary["processes"] == 1 and summary["kills"] == 0
    assert all(len(row) == 1 for _, row in summary["rss_curve"])
    assert [g["process"] for g in summary["memory"]] == [0]


def test_bench_soak_at_three_processes_one_killed_in_turn(tmp_path: Path) -> None:
    _redis_or_skip()
    summary, stdout = _soak(
        tmp_path, "--processes", "3", "--redis-url", REDIS_URL, "--kill-every", "0.15",
        "--sample-seconds", "1",
    )  # fmt: skip
    _assert_clean(summary, stdout)
    assert summary["processes"] == 3 and summary["kills"] >= 1
    assert "processes killed: " in stdout
    # The killed process is shown down, then up again; the processes are judged together.
    assert any(None in row for _, row in summary["rss_curve"])
    assert [g["process"] for g in summary["memory"]] == [None]
    assert all(len(row) == 3 for _, row in summary["rss_curve"])
    assert _keys(summary["redis_prefix"]) == []


def _flat(process: int = 0, start: float = 0.0, mb: float = 120.0) -> Life:
    return Life(process, tuple((start + 30.0 * n, mb + n % 2) for n in range(12)))


def _clean(**changes: Any) -> Any:
    given: dict[str, Any] = {
        "lives": [_flat()],
        "errors": {"stale_version": 3, "table_unavailable": 1},
        "audits": [[], []],
        "lost": [],
        "stuck": [],
        "incidents": [],
        "hands": 100,
        "kills_expected": 0,
        "kills_done": 0,
    }
    return judge(**(given | changes))


def test_the_verdict_passes_a_clean_run() -> None:
    verdict = _clean()
    assert verdict.ok and verdict.failures == []
    assert verdict.growths[0].grown_mb <= GROWTH_MB


def test_the_verdict_fails_on_memory_that_keeps_growing() -> None:
    growing = Life(0, tuple((30.0 * n, 120.0 + 3 * n) for n in range(12)))
    verdict = _clean(lives=[growing])
    assert not verdict.ok
    assert verdict.failures == [
        "memory grew: process 0 went from 136.5 MB to 148.5 MB (+12.0 MB, over 8.0 MB)"
    ]
    # The warm-up (the first third) is not judged, however steep.
    warming = [100.0 + (20 if n > 3 else 5 * n) for n in range(12)]
    assert _clean(lives=[Life(0, tuple((30.0 * n, mb) for n, mb in enumerate(warming)))]).ok
    # Several processes are judged together, with a margin for each.
    together = Life(None, tuple((30.0 * n, 360.0 + 2 * n) for n in range(12)), processes=3)
    assert _clean(lives=[together]).ok
    faster = Life(None, tuple((30.0 * n, 360.0 + 8 * n) for n in range(12)), processes=3)
    assert _clean(lives=[faster]).failures == [
        "memory grew: the processes together went from 404.0 MB to 436.0 MB "
        "(+32.0 MB, over 24.0 MB)"
    ]


def _cycling(growth_per_cycle: float) -> Life:
    """Three processes killed in turn every 5 minutes for an hour, sampled every 30 s: the
    sum saw-tooths with the cycle of 15 minutes (a fresh process small, growing as it takes
    tables over), plus `growth_per_cycle` MB more each cycle."""
    cycle = 900.0
    samples = tuple(
        (30.0 * n, 500.0 + 40 * ((30.0 * n) % 300 / 300) + growth_per_cycle * (30.0 * n // cycle))
        for n in range(121)
    )
    return Life(None, samples, processes=3, cycle=cycle)


def test_with_kills_memory_is_judged_over_whole_cycles() -> None:
    """Thirds of an hour cut the kills' cycle where they fall; the last two whole cycles
    each hold every phase once."""
    same = _cycling(0.0)
    assert _clean(lives=[same]).ok
    growth = _clean(lives=[same]).growths[0]
    assert growth.middle_mb == growth.last_mb
    # The same curve cut in thirds (no cycle known) sees growth where there is none.
    thirds = growth_of(Life(None, same.samples, processes=3))
    assert thirds.middle_mb != thirds.last_mb
    # A process that grows from cycle to cycle is still caught.
    assert _clean(lives=[_cycling(30.0)]).failures == [
        "memory grew: the processes together went from 580.0 MB to 610.0 MB "
        "(+30.0 MB, over 29.0 MB)"
    ]
    # Fewer than three cycles: thirds, as without kills.
    short = Life(None, same.samples[:60], processes=3, cycle=900.0)
    assert windows(short) == windows(Life(None, same.samples[:60], processes=3))


def test_the_verdict_fails_on_an_error_frame_that_is_not_a_refusal() -> None:
    errors = {"stale_version": 2, "server_error": 1, "no_spectators": 4}
    assert unexpected_errors(errors) == {"no_spectators": 4, "server_error": 1}
    verdict = _clean(errors=errors)
    assert verdict.failures == [
        "error frames that are not refusals: no_spectators x4, server_error x1"
    ]


def test_the_verdict_fails_when_nothing_was_proved() -> None:
    """Too short to judge the memory, no hand, no audit, no kill: each is a failure."""
    verdict = _clean(
        lives=[Life(0, ((0.0, 100.0), (30.0, 101.0)))],
        audits=[],
        hands=0,
        kills_expected=3,
        kills_done=1,
    )
    assert len(verdict.failures) == 4
    assert verdict.failures[0].startswith("memory not judged")
    assert "no audit ran" in verdict.failures
    assert "no hand was played" in verdict.failures
    assert "1 process(es) killed, 3 expected" in verdict.failures


def test_the_verdict_fails_on_an_unclean_audit_a_lost_action_a_stuck_table_or_more() -> None:
    verdict = _clean(
        audits=[[], ["account seat:3:7 holds 10 chips without a seating"]],
        lost=["action soak0-4 of member 2 stored 0 time(s)"],
        stuck=["table 5 (bourre) started no hand in 60 s at 600 s"],
        incidents=["process 1 stopped by itself at 90 s (status 1)"],
    )
    assert [failure.split(" ")[0:3] for failure in verdict.failures] == [
        ["1", "of", "2"],
        ["1", "acknowledged", "action(s)"],
        ["1", "table(s)", "stopped"],
        ["1", "incident(s),", "e.g.:"],
    ]
