"""The bot bench: its figures, chip conservation, and club beating random."""

from __future__ import annotations

import json
import random

import pytest

import app.bots.bench as bot_bench
from app.bots.bench import Tally, bench_bots, configurations, default_levels
from app.commands.bench_bots import run_bots_bench


def test_a_small_run_has_every_figure_and_conserves_chips() -> None:
    configs = configurations("bourre")
    chosen = {name: configs[name] for name in ("classic_cajun", "dealer_antes")}
    bench = bench_bots("bourre", 200, random.Random(1), configs=chosen)
    assert bench.levels == ("club", "random", "club", "random")
    assert [c.name for c in bench.configs] == ["classic_cajun", "dealer_antes"]
    for config in bench.configs:
        assert config.hands == 200
        assert set(config.by_level) == {"club", "random"}
        assert len(config.by_position) == 4
        # Deep stacks: every seat is dealt into every hand.
        assert sum(t.n for t in config.by_level.values()) == 200 * 4
        assert sum(t.n for t in config.by_position) == 200 * 4
        assert config.decisions > 200 * 4
        assert config.conserved and config.balanced
        # What the seats won, together, is what the pot lost: it started empty.
        won = sum(t.total for t in config.by_position)
        assert won == -config.final_pot
    assert bench.conserved
    assert set(bench.overall_by_level()) == {"club", "random"}


def test_club_beats_random_in_each_configuration() -> None:
    """Deterministic for the seed: 400 hands are enough for intervals above zero."""
    configs = configurations("bourre")
    chosen = {name: configs[name] for name in ("classic_cajun", "indiana_four_card")}
    bench = bench_bots("bourre", 400, random.Random(11), configs=chosen)
    for config in bench.configs:
        club = config.by_level["club"].interval()
        assert club.above_zero, (config.name, club)
        assert config.by_level["random"].interval().high < 0
    assert bench.overall_by_level()["club"].above_zero


def test_club_against_club_is_even_and_conserves_chips() -> None:
    configs = configurations("bourre")
    bench = bench_bots(
        "bourre",
        300,
        random.Random(4),
        levels=["club"] * 4,
        configs={"classic_cajun": configs["classic_cajun"]},
    )
    (config,) = bench.configs
    assert config.conserved and config.balanced
    assert config.by_level["club"].interval().covers_zero
    assert sum(t.total for t in config.by_position) == -config.final_pot


def test_resets_are_counted_and_leave_the_measure_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reset whenever a stack is below the buy-in: after nearly every hand.
    monkeypatch.setattr(bot_bench, "LOW_STACK_SHARE", 1)
    configs = configurations("bourre")
    bench = bench_bots(
        "bourre", 50, random.Random(2), configs={"classic_cajun": configs["classic_cajun"]}
    )
    (config,) = bench.configs
    assert config.resets > 10
    assert config.conserved and config.balanced
    assert config.chips_end == config.chips_start + config.reset_chips
    assert sum(t.total for t in config.by_position) == -config.final_pot


def test_any_game_of_the_registry_is_benched() -> None:
    configs = configurations("bouillotte")
    name = next(iter(configs))
    bench = bench_bots(
        "bouillotte", 30, random.Random(3), levels=default_levels(3), configs={name: configs[name]}
    )
    (config,) = bench.configs
    assert config.conserved and config.balanced
    assert sum(t.n for t in config.by_position) > 0


def test_the_interval_is_mean_plus_or_minus_196_standard_errors() -> None:
    tally = Tally()
    for value in (1, -1, 1, -1):
        tally.add(value)
    interval = tally.interval()
    assert interval.mean == 0 and interval.n == 4
    assert interval.half_width == pytest.approx(1.96 * (4 / 3) ** 0.5 / 2)
    assert interval.covers_zero and not interval.above_zero


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        bench_bots("chess", 10, random.Random(1))
    with pytest.raises(ValueError):
        bench_bots("bourre", 10, random.Random(1), levels=["club", "genius"])
    with pytest.raises(ValueError):
        bench_bots("bouillotte", 10, random.Random(1), levels=["club"] * 6)


def test_the_command_prints_its_figures_and_json_last(capsys: pytest.CaptureFixture[str]) -> None:
    status = run_bots_bench("bourre", 40, seed=1, presets="classic_cajun,friendly")
    assert status == 0
    out = capsys.readouterr().out
    assert "chips won per hand per seat" in out and "ante 1" in out
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["game"] == "bourre" and summary["hands_per_config"] == 40
    assert set(summary["configs"]) == {"classic_cajun", "friendly"}
    assert summary["conserved"] is True
    assert set(summary["overall_by_level"]) == {"club", "random"}


def test_the_command_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bots_bench("bourre", 10, levels="club,wizard") == 2
    assert "unknown level" in capsys.readouterr().err
    assert run_bots_bench("bourre", 10, players=3, levels="club,club") == 2
    assert run_bots_bench("bourre", 10, presets="poker") == 2
    assert "no preset" in capsys.readouterr().err
    assert run_bots_bench("bouillotte", 10, players=7) == 2
    assert run_bots_bench("bourre", 0) == 2


def test_a_run_without_a_seed_prints_the_seed_it_drew(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bots_bench("bourre", 5, presets="classic_cajun") == 0
    out = capsys.readouterr().out
    summary = json.loads(out.strip().splitlines()[-1])
    assert isinstance(summary["seed"], int)
    assert f"seed {summary['seed']} (drawn" in out
