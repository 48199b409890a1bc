"""What every computer player shares: the view it decides from, and what it decides.

A bot sees exactly what its seat's socket is sent (DESIGN.md, "bots use only the public
view, like a person"): the snapshot's ``view``. A brain reads three parts of it:
``table.rules`` (the house rules in force, as the table page shows them), ``you.seat`` and
``hand`` (the hand as the engine shows that seat: its own cards, the public cards and
bets, and its ``legal_actions``). It never receives the engine's state, so it cannot see
another seat's cards or the stock.

A decision is what a person's browser would send (``{"action": "card", "card": "AS"}``),
with one sentence saying why, which the practice tables' "suggest" button shows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Brain", "Decision", "legal_choices", "random_decision", "seat_view"]


@dataclass(frozen=True, slots=True)
class Decision:
    # As the table's socket takes it, without the id and version: {"action": "raise",
    # "amount": 12}, {"action": "discard", "cards": ["2H", "5C"]}.
    action: dict[str, Any]
    # Why, in one sentence addressed to the player ("Play your ace of trumps: …").
    reason: str


class Brain(Protocol):
    """One level of play for one game: a decision from a seat's view. Called only when
    the view offers the seat at least one legal action."""

    def __call__(self, view: Mapping[str, Any], rng: random.Random) -> Decision: ...


def legal_choices(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the view says its seat may do now (empty when it is not the seat's turn)."""
    hand = view.get("hand") or {}
    return list(hand.get("legal_actions") or ())


def seat_view(
    game: str, rules: Mapping[str, Any], seat: int, hand_view: Mapping[str, Any]
) -> dict[str, Any]:
    """A seat's view with only the parts a brain reads, for the bot bench, which plays
    hands on the engine alone (the live table sends the same parts within its snapshot)."""
    return {
        "table": {"game": game, "rules": dict(rules)},
        "you": {"seat": seat},
        "hand": dict(hand_view),
    }


def random_decision(view: Mapping[str, Any], rng: random.Random) -> Decision:
    """The ``random`` level: any legal action, each offered choice as likely as another
    (a bet within its range at a uniformly drawn amount)."""
    choice = dict(rng.choice(legal_choices(view)))
    choice.pop("seat", None)
    low, high = choice.pop("min", None), choice.pop("max", None)
    if low is not None and high is not None:
        choice["amount"] = rng.randint(low, high)
    return Decision(choice, "Any legal move will do for a random player.")
