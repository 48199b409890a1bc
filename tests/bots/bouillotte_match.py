"""A match of Bouillotte between brains, on the engine alone, for measuring a level.

Every decision is ``brain(view, rng)`` on the seat's view as its socket gets it
(app/bots/base.py ``seat_view``). Seats keep their brains; the deal passes to the right
after every hand, so each brain plays every position in turn. A seat whose cave is empty
rebuys between hands (rules/bouillotte.md §1), so play never stops. Each hand's chip change
per seat is recorded, rebuys excluded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.bots.base import Brain, seat_view
from app.bots.bench import Interval, Tally
from app.engine.base import Action
from app.engine.bouillotte.config import BouillotteRules
from app.engine.bouillotte.session import BouillotteSession


def figure(samples: Sequence[float]) -> Interval:
    """Mean ± 1.96 · sd / √n, as the bot bench works it out."""
    tally = Tally()
    for sample in samples:
        tally.add(sample)
    return tally.interval()


def play_match(
    rules: BouillotteRules,
    brains: Sequence[Brain],
    hands: int,
    seed: int,
) -> list[list[int]]:
    """``hands`` hands with ``brains[seat]`` deciding for each seat; each hand's chip change
    per seat. Deterministic for a seed."""
    rng = random.Random(seed)
    rules_dict = rules.to_dict()
    seats = len(brains)
    session = BouillotteSession(rules, [rules.cave] * seats)
    changes: list[list[int]] = []
    for _ in range(hands):
        before = list(session.stacks)
        hand = session.start_hand(seed=rng.randbytes(32))
        while not hand.is_over:
            seat = hand.turn
            view = seat_view("bouillotte", rules_dict, seat, hand.view(seat))
            action = brains[seat](view, rng).action
            hand.apply(Action(seat, action["action"], amount=action.get("amount")))
        result = session.close_hand()
        changes.append([after - was for after, was in zip(result.stacks, before, strict=True)])
        for seat in range(seats):
            if session.stacks[seat] == 0:
                session.rebuy(seat)
    return changes


def per_hand(changes: Sequence[Sequence[int]], seats: Sequence[int]) -> list[float]:
    """Each hand's average chip change over ``seats``."""
    return [sum(hand[s] for s in seats) / len(seats) for hand in changes]
