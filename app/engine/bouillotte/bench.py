"""Random legal players for measuring the Bouillotte engine (``salon bench engine``).

Every choice is taken from ``legal_actions``: a kind of action uniformly among those offered,
and for an ``open`` or a ``raise`` an amount uniformly in its legal range. The session uses
the default rules and starts every seat with a cave; a seat that has lost every chip rebuys
between hands (rules/bouillotte.md §1), so play never stops.

The engine does no I/O and reads no clock: the caller passes its random source and clocks.
"""

from __future__ import annotations

from collections.abc import Callable

from app.engine.bouillotte.choices import Choices
from app.engine.bouillotte.config import BouillotteRules
from app.engine.bouillotte.session import BouillotteSession
from app.engine.driver import RandomSource


def bench_bouillotte(
    players: int,
    hands: int,
    rng: RandomSource,
    *,
    clock: Callable[[], float],
    cpu_clock: Callable[[], float],
) -> tuple[int, int, float, float]:
    """Play ``hands`` hands; returns (actions, rebuys, wall seconds, cpu seconds).

    The second value counts rebuys, the Bouillotte counterpart of a table reset.
    """
    if not 3 <= players <= 5:
        raise ValueError("Bouillotte is played by 3 to 5 players")
    rules = BouillotteRules()
    session = BouillotteSession(rules, [rules.cave] * players)
    rebuys = 0
    actions = 0
    draw = rng.random
    started = clock()
    cpu_started = cpu_clock()
    for _ in range(hands):
        hand = session.start_hand(seed=rng.randbytes(32))
        apply = hand.apply
        while hand.phase != 5:  # OVER
            legal = hand.legal_actions(hand.turn)
            assert isinstance(legal, Choices)
            fixed = legal.fixed
            pick = int(draw() * (len(fixed) + (legal.bet_kind is not None)))
            if pick < len(fixed):
                apply(fixed[pick])
            else:
                apply(legal[pick + int(draw() * (legal.high - legal.low + 1))])
            actions += 1
        session.close_hand()
        session.results.clear()  # the bench keeps no history: memory stays flat
        stacks = session.stacks
        for seat in range(players):
            if stacks[seat] == 0:
                session.rebuy(seat)
                rebuys += 1
    return actions, rebuys, clock() - started, cpu_clock() - cpu_started
