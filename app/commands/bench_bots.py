"""``salon bench bots``: how the levels of play fare against each other, on one core.

Plays ``--hands`` hands under each house-rules configuration (the game's presets, or those
named) with one level per seat, every decision made by the level's brain from the seat's
own view (``app.bots.bench``). Prints, per configuration and overall, the chips won per hand
per seat for each level and each seat position from the dealer, with 95 % confidence
intervals, whether chips were conserved, and whether ``club`` came out above zero.
The last line printed is JSON with the same figures.

Exit status: 0 when the run completes with chips conserved, 1 when they were not, 2 for
bad options.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from app.bots.bench import (
    LOW_STACK_SHARE,
    BotBench,
    ConfigResult,
    Interval,
    bench_bots,
    configurations,
    default_levels,
)
from app.bots.levels import LEVELS
from app.engine.registry import GAMES


def _said(interval: Interval) -> str:
    bounds = f"[{interval.low:+.3f}, {interval.high:+.3f}]"
    return f"{interval.mean:+8.3f} ± {interval.half_width:6.3f}  {bounds}"


def _verdict(interval: Interval) -> str:
    if interval.above_zero:
        return "above zero"
    if interval.high < 0:
        return "below zero"
    return "covers zero"


def _stakes(game: str, rules: dict[str, Any]) -> str:
    driver = GAMES[game]
    parsed = driver.parse_rules(rules)
    said = []
    for option in driver.stakes:
        value = getattr(parsed, option)
        words = driver.option_info[option].none_words if value is None else value
        said.append(f"{option} {words}")
    return ", ".join(said)


def _position_name(position: int) -> str:
    return "dealer" if position == 0 else f"dealer+{position}"


def _print_config(game: str, result: ConfigResult) -> None:
    rules = json.dumps(result.rules) if result.rules else "defaults"
    print(f"\n{result.name}: {rules}; stakes {_stakes(game, result.rules)}")
    for level, tally in result.by_level.items():
        interval = tally.interval()
        print(f"  {level:<8} {_said(interval)}  n={interval.n}  {_verdict(interval)}")
    positions = "  ".join(
        f"{_position_name(p)} {t.interval().mean:+.2f}±{t.interval().half_width:.2f}"
        for p, t in enumerate(result.by_position)
    )
    print(f"  by seat from the dealer: {positions}")
    conserved = "yes" if result.conserved and result.balanced else "NO"
    print(
        f"  {result.decisions} decisions, {result.resets} table resets "
        f"({result.reset_chips:+} chips), chips conserved: {conserved}"
    )


def _summary(bench: BotBench, seconds: float, seed: int | None, hands: int) -> dict[str, Any]:
    def figures(interval: Interval) -> dict[str, float]:
        return {
            "mean": round(interval.mean, 4),
            "half_width": round(interval.half_width, 4),
            "n": interval.n,
        }

    return {
        "game": bench.game,
        "players": bench.players,
        "levels": list(bench.levels),
        "hands_per_config": hands,
        "seed": seed,
        "unit": "chips won per hand per seat",
        "configs": {
            c.name: {
                "by_level": {lv: figures(t.interval()) for lv, t in c.by_level.items()},
                "by_position": [figures(t.interval()) for t in c.by_position],
                "resets": c.resets,
                "conserved": c.conserved and c.balanced,
            }
            for c in bench.configs
        },
        "overall_by_level": {lv: figures(i) for lv, i in bench.overall_by_level().items()},
        "overall_by_position": [figures(i) for i in bench.overall_by_position()],
        "conserved": bench.conserved,
        "seconds": round(seconds, 3),
    }


def run_bots_bench(
    game: str,
    hands: int,
    seed: int | None = None,
    players: int | None = None,
    levels: str | None = None,
    presets: str | None = None,
) -> int:
    if game not in GAMES:
        print(f"bench bots: unknown game {game!r}", file=sys.stderr)
        return 2
    driver = GAMES[game]
    if hands < 1:
        print("bench bots: hands must be at least 1", file=sys.stderr)
        return 2
    seats: Sequence[str]
    if levels:
        seats = [level.strip() for level in levels.split(",")]
        unknown = [level for level in seats if level not in LEVELS]
        if unknown:
            print(
                f"bench bots: unknown level {unknown[0]!r} (one of {', '.join(LEVELS)})",
                file=sys.stderr,
            )
            return 2
        if players is not None and players != len(seats):
            print("bench bots: --players differs from the number of --levels", file=sys.stderr)
            return 2
    else:
        seats = default_levels(players if players is not None else 4)
    if not driver.min_seats <= len(seats) <= driver.max_seats:
        print(
            f"bench bots: {game} needs {driver.min_seats} to {driver.max_seats} players",
            file=sys.stderr,
        )
        return 2
    configs = configurations(game)
    if presets:
        names = [name.strip() for name in presets.split(",")]
        missing = [name for name in names if name not in configs]
        if missing:
            print(
                f"bench bots: {game} has no preset {missing[0]!r} (one of {', '.join(configs)})",
                file=sys.stderr,
            )
            return 2
        configs = {name: configs[name] for name in names}

    # Without a seed one is drawn, and printed, so that any run can be repeated.
    drawn = seed is None
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    started = time.perf_counter()
    bench = bench_bots(game, hands, random.Random(seed), levels=seats, configs=configs)
    seconds = time.perf_counter() - started

    buy_in = driver.bench_table.buy_in
    decisions = sum(c.decisions for c in bench.configs)
    print(
        f"{driver.title} bots on one core: {len(seats)} seats ({', '.join(seats)}; the pattern "
        f"turns one seat every round of the button), {hands} hands per configuration, "
        f"seed {seed}{' (drawn: pass --seed to repeat the run)' if drawn else ''}"
    )
    print(
        "Figures: chips won per hand per seat (stack after the hand less stack before), "
        "mean ± 1.96·sd/√n, the 95 % confidence interval over per-hand, per-seat results; "
        f"stacks start at {buy_in} and are all reset when one falls under "
        f"{buy_in // LOW_STACK_SHARE}; dealer+k is the seat k places after the dealer's "
        "in seat numbers."
    )
    for result in bench.configs:
        _print_config(game, result)
    print(f"\noverall ({len(bench.configs)} configurations, {hands * len(bench.configs)} hands)")
    for level, interval in bench.overall_by_level().items():
        print(f"  {level:<8} {_said(interval)}  n={interval.n}  {_verdict(interval)}")
    for position, interval in enumerate(bench.overall_by_position()):
        print(f"  {_position_name(position):<8} {_said(interval)}  n={interval.n}")
    if "club" in seats and "random" in seats:
        every = all(c.by_level["club"].interval().above_zero for c in bench.configs)
        print(f"club above zero in every configuration: {'yes' if every else 'no'}")
    print(f"chips conserved: {'yes' if bench.conserved else 'NO'}")
    per_decision = seconds / decisions * 1e6 if decisions else 0.0
    print(f"{seconds:.2f} s, {decisions} decisions, {per_decision:.1f} µs per decision")
    print(json.dumps(_summary(bench, seconds, seed, hands)))
    return 0 if bench.conserved else 1
