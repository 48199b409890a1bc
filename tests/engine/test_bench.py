import json

import pytest

from app.commands.bench_engine import run_engine_bench


def test_bench_prints_json_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_engine_bench("bourre", 7, 30, seed=1) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(lines[-1])
    assert summary["game"] == "bourre" and summary["players"] == 7 and summary["hands"] == 30
    assert summary["actions"] > 30 and summary["hands_per_s"] > 0 and summary["us_per_action"] > 0


def test_bench_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    run_engine_bench("bourre", 3, 20, seed=5)
    first = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    run_engine_bench("bourre", 3, 20, seed=5)
    second = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert first["actions"] == second["actions"]


def test_bench_bouillotte(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_engine_bench("bouillotte", 4, 40, seed=2) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["game"] == "bouillotte" and summary["hands"] == 40
    assert summary["actions"] > 40 and summary["hands_per_s"] > 0


def test_bench_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_engine_bench("bouillotte", 6, 10) == 2
    assert "3 to 5 players" in capsys.readouterr().err
    assert run_engine_bench("chess", 6, 10) == 2
    assert run_engine_bench("bourre", 9, 10) == 2
