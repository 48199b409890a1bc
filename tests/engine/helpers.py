"""Helpers to script Bourré hands card by card."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.engine.base import Action, EngineError
from app.engine.bourre import BourreRules
from app.engine.bourre.deck import ScriptedDeck
from app.engine.bourre.state import BourreHand
from app.engine.cards import CARD_NAMES, parse_card


def build_deck(
    n: int,
    dealer: int,
    hands: Mapping[int, str],
    *,
    turned: str | None = None,
    stock: str = "",
    hand_size: int = 5,
) -> list[str]:
    """A full deck that deals ``hands`` (seat -> cards in deal order, space separated).

    Seats absent from ``hands`` are not dealt in (their cards are not in the deal order).
    With ``dealer_keeps`` the dealer's last card is the turned card; with a separate
    turned card pass ``turned``. ``stock`` lists the top of the stock.
    """
    order = [(dealer + 1 + i) % n for i in range(n) if (dealer + 1 + i) % n in hands]
    split = {seat: cards.split() for seat, cards in hands.items()}
    for seat, cards in split.items():
        assert len(cards) == hand_size, (seat, cards)
    deck = [split[seat][r] for r in range(hand_size) for seat in order]
    if turned is not None:
        deck.append(turned)
    deck += stock.split()
    assert len(set(deck)) == len(deck), "duplicate card in script"
    rest = [c for c in CARD_NAMES if c not in set(deck)]
    return deck + rest


def start(
    rules: BourreRules | None,
    hands: Mapping[int, str],
    *,
    n: int | None = None,
    dealer: int | None = None,
    turned: str | None = None,
    stock: str = "",
    stacks: Sequence[int] | None = None,
    pot: int = 0,
    exempt: Iterable[int] = (),
    reshuffles: Sequence[str] = (),
) -> BourreHand:
    rules = rules or BourreRules()
    n = n if n is not None else max(hands) + 1
    dealer = dealer if dealer is not None else n - 1
    deck = build_deck(n, dealer, hands, turned=turned, stock=stock, hand_size=rules.hand_size)
    source = ScriptedDeck(
        [parse_card(c) for c in deck], [[parse_card(c) for c in r.split()] for r in reshuffles]
    )
    stacks = list(stacks) if stacks is not None else [100] * n
    return BourreHand(rules, stacks, dealer, source, pot=pot, exempt=exempt)


def act(hand: BourreHand, seat: int, kind: str, cards: str | None = None) -> None:
    if kind == "card":
        hand.apply(Action(seat, "card", card=cards))
    elif kind == "discard":
        hand.apply(Action(seat, "discard", cards=tuple((cards or "").split())))
    else:
        hand.apply(Action(seat, kind))


def refused(hand: BourreHand, action: Action) -> EngineError:
    try:
        hand.apply(action)
    except EngineError as err:
        return err
    raise AssertionError(f"{action} was accepted")


def declare(hand: BourreHand, plays: Iterable[int]) -> None:
    """Everyone to declare declares in turn: play if in ``plays`` else pass."""
    plays = set(plays)
    while hand.phase_name == "declare":
        seat = hand.to_act()[0]
        act(hand, seat, "play" if seat in plays else "pass")


def stand_pat(hand: BourreHand) -> None:
    while hand.phase_name == "draw":
        act(hand, hand.turn, "discard", "")


def play_script(hand: BourreHand, script: Mapping[int, str]) -> None:
    """Each seat plays its scripted cards in order when its turn comes."""
    queues = {seat: cards.split() for seat, cards in script.items()}
    while hand.phase_name == "tricks":
        seat = hand.turn
        act(hand, seat, "card", queues[seat].pop(0))


def names(cards: str) -> list[str]:
    return cards.split()
