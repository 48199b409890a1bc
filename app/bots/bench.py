"""The bot bench (``salon bench bots``): levels of play against each other, on the engine alone.

Hands are dealt through each game's driver (``GameDriver.deal``), the way a live table deals
them, so the bench works for every game in ``app.engine.registry``. Every decision is made by
``app.bots.levels.brain(game, level)`` from the seat's own view (``seat_view``), exactly what
a bot at a live table sees. Pure: no I/O and no clock; the caller passes the random source.

What is measured is each seat's chips won in each hand it was dealt into (its stack after the
hand less its stack before), so that resetting the stacks between hands biases nothing. A
table whose lowest stack falls under a tenth of the buy-in gets every stack reset to the
buy-in; the chips that adds (or removes) are counted, and chips are checked conserved across
every hand: stacks plus pot after the hand equal stacks plus pot before it.

Levels sit in a pattern (``club, random, club, random`` by default) that turns one seat every
round of the button, so that over the run each level sits everywhere relative to the dealer
and to the other levels (turning it every hand, with the button, would pin each level to the
same seat from the dealer). Results are also given by seat position from the dealer, which,
with every seat at the same level, shows the positional bias of the rules themselves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots.base import seat_view
from app.bots.levels import LEVELS, brain
from app.engine.base import Action, EngineError
from app.engine.registry import GAMES

__all__ = [
    "BotBench",
    "ConfigResult",
    "Interval",
    "Tally",
    "bench_bots",
    "default_levels",
]

Z_95 = 1.96
"""Normal quantile of a two-sided 95 % confidence interval."""

LOW_STACK_SHARE = 10
"""A table is reset once a stack is under the buy-in divided by this."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with its 95 % confidence interval: ``mean ± half_width`` over ``n`` samples."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def above_zero(self) -> bool:
        return self.low > 0

    @property
    def covers_zero(self) -> bool:
        return self.low <= 0 <= self.high


@dataclass(slots=True)
class Tally:
    """Running count, sum and sum of squares of per-hand, per-seat results."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Tally) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def interval(self) -> Interval:
        """mean ± 1.96 · sd / √n (sd with n - 1 degrees of freedom)."""
        if self.n == 0:
            return Interval(0.0, math.inf, 0)
        mean = self.total / self.n
        if self.n == 1:
            return Interval(mean, math.inf, 1)
        variance = max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))
        return Interval(mean, Z_95 * math.sqrt(variance / self.n), self.n)


@dataclass(slots=True)
class ConfigResult:
    """One house-rules configuration's run."""

    name: str
    rules: dict[str, Any]
    hands: int
    # Chips won per hand per seat, by level and by seat position from the dealer (0: the
    # dealer, 1: the next seat clockwise…).
    by_level: dict[str, Tally] = field(default_factory=dict)
    by_position: list[Tally] = field(default_factory=list)
    decisions: int = 0
    resets: int = 0
    # Chips the resets added to the table (negative when they took chips away).
    reset_chips: int = 0
    chips_start: int = 0
    chips_end: int = 0
    # The pot left on the table at the end: the per-seat results sum to minus this (the
    # pot starts empty, and resets change stacks only).
    final_pot: int = 0
    # Every hand left stacks plus pot as they were before it.
    conserved: bool = True

    @property
    def balanced(self) -> bool:
        """Chips at the end are those at the start plus what the resets added."""
        return self.chips_end == self.chips_start + self.reset_chips


@dataclass(slots=True)
class BotBench:
    game: str
    players: int
    levels: tuple[str, ...]
    configs: list[ConfigResult]

    def overall_by_level(self) -> dict[str, Interval]:
        tallies: dict[str, Tally] = {}
        for config in self.configs:
            for level, tally in config.by_level.items():
                tallies.setdefault(level, Tally()).merge(tally)
        return {level: tally.interval() for level, tally in tallies.items()}

    def overall_by_position(self) -> list[Interval]:
        tallies = [Tally() for _ in range(self.players)]
        for config in self.configs:
            for position, tally in enumerate(config.by_position):
                tallies[position].merge(tally)
        return [tally.interval() for tally in tallies]

    @property
    def conserved(self) -> bool:
        return all(c.conserved and c.balanced for c in self.configs)


def default_levels(players: int) -> tuple[str, ...]:
    """``club`` and ``random`` in turn around the table (2 club + 2 random at four)."""
    return tuple("club" if seat % 2 == 0 else "random" for seat in range(players))


def configurations(game: str) -> dict[str, dict[str, Any]]:
    """The game's presets as stored rules dicts, with the bench table's own rules on top."""
    driver = GAMES[game]
    extra = dict(driver.bench_table.rules)
    return {name: driver.rules_dict(driver.resolve_rules(name, extra)) for name in driver.presets}


def _action(seat: int, decided: Mapping[str, Any]) -> Action:
    cards = decided.get("cards")
    return Action(
        seat,
        str(decided["action"]),
        card=decided.get("card"),
        cards=tuple(cards) if cards is not None else None,
        amount=decided.get("amount"),
    )


def _run_config(
    game: str,
    name: str,
    rules_dict: dict[str, Any],
    hands: int,
    levels: Sequence[str],
    rng: random.Random,
) -> ConfigResult:
    driver = GAMES[game]
    rules = driver.parse_rules(rules_dict)
    players = len(levels)
    brains = {level: brain(game, level) for level in set(levels)}
    buy_in = driver.bench_table.buy_in
    low = buy_in // LOW_STACK_SHARE
    stacks = [buy_in] * players
    pot = 0
    state: dict[str, Any] = {}
    names = [f"seat{seat}" for seat in range(players)]
    result = ConfigResult(
        name,
        rules_dict,
        hands,
        by_level={level: Tally() for level in dict.fromkeys(levels)},
        by_position=[Tally() for _ in range(players)],
        chips_start=sum(stacks),
    )
    for number in range(hands):
        # The pattern turns one seat per round of the button (see the module's text).
        turn = number // players
        seat_levels = [levels[(seat + turn) % players] for seat in range(players)]
        try:
            live = driver.deal(rules, stacks, pot, state, rng.randbytes(32), ())
        except EngineError:
            # Too few stacks can cover the ante: a fresh table, counted as a reset.
            result.resets += 1
            result.reset_chips += buy_in * players - sum(stacks)
            stacks = [buy_in] * players
            live = driver.deal(rules, stacks, pot, state, rng.randbytes(32), ())
        hand = live.game
        while not hand.is_over:
            seat = hand.to_act()[0]
            view = seat_view(game, rules_dict, seat, hand.view(seat))
            decided = brains[seat_levels[seat]](view, rng)
            hand.apply(_action(seat, decided.action))
            result.decisions += 1
        outcome = live.finish(names)
        if sum(outcome.stacks) + outcome.pot != sum(stacks) + pot:
            result.conserved = False
        for seat in live.dealt_in:
            won = outcome.stacks[seat] - stacks[seat]
            result.by_level[seat_levels[seat]].add(won)
            result.by_position[(seat - live.dealer) % players].add(won)
        stacks, pot, state = list(outcome.stacks), outcome.pot, outcome.state
        if min(stacks) < low:
            result.resets += 1
            result.reset_chips += buy_in * players - sum(stacks)
            stacks = [buy_in] * players
    result.chips_end = sum(stacks) + pot
    result.final_pot = pot
    return result


def bench_bots(
    game: str,
    hands: int,
    rng: random.Random,
    *,
    levels: Sequence[str] | None = None,
    players: int = 4,
    configs: Mapping[str, Mapping[str, Any]] | None = None,
) -> BotBench:
    """Play ``hands`` hands under each configuration (default: every preset of the game),
    one level per seat (default: ``default_levels(players)``)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    seats = tuple(levels) if levels is not None else default_levels(players)
    unknown = [level for level in seats if level not in LEVELS]
    if unknown:
        raise ValueError(f"unknown level {unknown[0]!r}")
    driver = GAMES[game]
    if not driver.min_seats <= len(seats) <= driver.max_seats:
        raise ValueError(f"{driver.title} seats {driver.min_seats} to {driver.max_seats} players")
    chosen = configs if configs is not None else configurations(game)
    results = [
        _run_config(game, name, dict(rules), hands, seats, rng) for name, rules in chosen.items()
    ]
    return BotBench(game, len(seats), seats, results)
