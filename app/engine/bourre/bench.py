"""Random legal players for measuring the Bourré engine (``salon bench engine``).

Every choice is taken from ``legal_actions`` (so legal-move generation and the cinch checks
are measured), for a seat drawn among those to act. The session uses the default rules;
when a stack runs low or the carried pot grows large, the table is reset so play continues.

The engine does no I/O and reads no clock: the caller passes its random source and clocks.
"""

from __future__ import annotations

from collections.abc import Callable

from app.engine.bourre.config import BourreRules
from app.engine.bourre.session import BourreSession
from app.engine.driver import RandomSource

START_STACK = 1000
LOW_STACK = 200
LARGE_POT = 64


def bench_bourre(
    players: int,
    hands: int,
    rng: RandomSource,
    *,
    clock: Callable[[], float],
    cpu_clock: Callable[[], float],
) -> tuple[int, int, float, float]:
    """Play ``hands`` hands; returns (actions, table resets, wall seconds, cpu seconds)."""
    rules = BourreRules()
    session = BourreSession(rules, [START_STACK] * players)
    resets = 0
    actions = 0
    draw = rng.random
    started = clock()
    cpu_started = cpu_clock()
    for _ in range(hands):
        hand = session.start_hand(seed=rng.randbytes(32))
        while seats := hand.to_act():
            seat = seats[int(draw() * len(seats))]
            legal = hand.legal_actions(seat)
            hand.apply(legal[int(draw() * len(legal))])
            actions += 1
        session.close_hand()
        if session.pot > LARGE_POT or min(session.stacks) < LOW_STACK:
            session = BourreSession(rules, [START_STACK] * players, button=session.button)
            resets += 1
    return actions, resets, clock() - started, cpu_clock() - cpu_started
