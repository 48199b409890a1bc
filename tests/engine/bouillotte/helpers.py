"""Helpers to script Bouillotte hands: a deck that deals chosen cards, and short actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.engine.base import Action, EngineError
from app.engine.bouillotte import BouillotteRules
from app.engine.bouillotte.deck import PACKS, ScriptedDeck
from app.engine.bouillotte.state import BouillotteHand
from app.engine.cards import CARD_NAMES, parse_card


def order_of(n: int, dealer: int, seats: Sequence[int], step: int = -1) -> list[int]:
    """The seats dealt in from the dealer's right going right, the dealer last."""
    return [s for s in ((dealer + step * (i + 1)) % n for i in range(n)) if s in seats]


def build_deck(
    n: int, dealer: int, hands: Mapping[int, str], upcard: str, *, step: int = -1
) -> list[str]:
    """The whole pack, top first, that deals ``hands`` (seat -> "AS KD 9C") and the upcard."""
    order = order_of(n, dealer, list(hands), step)
    split = {seat: cards.split() for seat, cards in hands.items()}
    deck = [split[seat][r] for r in range(3) for seat in order]
    deck.append(upcard)
    assert len(set(deck)) == len(deck), "duplicate card in script"
    pack = [CARD_NAMES[c] for c in PACKS[len(hands)]]
    missing = set(deck) - set(pack)
    assert not missing, f"not in the {len(hands)}-player pack: {missing}"
    return deck + [c for c in pack if c not in deck]


def start(
    hands: Mapping[int, str],
    upcard: str,
    *,
    rules: BouillotteRules | None = None,
    n: int | None = None,
    dealer: int | None = None,
    stacks: Sequence[int] | None = None,
    pot: int = 0,
) -> BouillotteHand:
    """A hand dealing ``hands`` (the seats dealt in) with ``upcard`` turned."""
    rules = rules or BouillotteRules()
    n = n if n is not None else max(hands) + 1
    dealer = dealer if dealer is not None else n - 1
    stacks = list(stacks) if stacks is not None else [100] * n
    deck = build_deck(n, dealer, hands, upcard, step=rules.step)
    return BouillotteHand(
        rules, stacks, dealer, ScriptedDeck([parse_card(c) for c in deck]), pot=pot
    )


def act(hand: BouillotteHand, seat: int, kind: str, amount: int | None = None) -> None:
    hand.apply(Action(seat, kind, amount=amount))


def play(hand: BouillotteHand, script: str) -> None:
    """Apply a script such as "2 decline, 2 open 2, 1 call, 0 fold"."""
    for step in script.split(","):
        parts = step.split()
        seat, kind = int(parts[0]), parts[1]
        amount = int(parts[2]) if len(parts) > 2 else None
        assert hand.to_act() == (seat,), f"{step!r}: seat {hand.to_act()} to act"
        act(hand, seat, kind, amount)


def refused(hand: BouillotteHand, action: Action) -> EngineError:
    try:
        hand.apply(action)
    except EngineError as err:
        return err
    raise AssertionError(f"{action} was accepted")


def chips(hand: BouillotteHand) -> int:
    return sum(hand.stacks) + hand.pot
