"""A sequence of hands at one table: stacks, the carried pot, exemptions and the button
flow from hand to hand (rules/bourre.md §2, §3, §7)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.engine.base import EngineError
from app.engine.bourre.config import BourreRules
from app.engine.bourre.deck import DeckSource, ScriptedDeck, SeededDeck
from app.engine.bourre.state import BourreHand, HandResult
from app.engine.cards import parse_card


class BourreSession:
    """The table between hands. ``start_hand`` deals the next hand; when it is over,
    ``close_hand`` (or the next ``start_hand``) applies its settlement to the table.

    ``button`` is the seat that deals next if it is dealt in; otherwise the deal goes to
    the next seat clockwise that is. After every hand the button moves one seat to the left
    of that hand's dealer (§3).
    """

    def __init__(
        self,
        rules: BourreRules,
        stacks: Sequence[int],
        *,
        button: int = 0,
        pot: int = 0,
        exempt: Iterable[int] = (),
    ) -> None:
        self.rules = rules
        self.stacks = list(stacks)
        self.button = button
        self.pot = pot
        self.exempt = frozenset(exempt)
        self.hand: BourreHand | None = None
        self.results: list[HandResult] = []

    def start_hand(
        self,
        *,
        seed: bytes | None = None,
        deck: Sequence[str] | None = None,
        reshuffles: Sequence[Sequence[str]] | None = None,
        source: DeckSource | None = None,
        sitting_out: Iterable[int] = (),
    ) -> BourreHand:
        """Deal the next hand from a seed, a scripted deck (notation) or a deck source."""
        if self.hand is not None:
            self.close_hand()
        if source is None:
            if seed is not None:
                source = SeededDeck(seed)
            elif deck is not None:
                source = ScriptedDeck(
                    [parse_card(c) for c in deck],
                    [[parse_card(c) for c in r] for r in reshuffles or ()],
                )
            else:
                raise EngineError("bad_deck", "A hand needs a seed or a deck.")
        self.hand = BourreHand(
            self.rules,
            self.stacks,
            self.button,
            source,
            pot=self.pot,
            exempt=self.exempt,
            sitting_out=sitting_out,
        )
        return self.hand

    def close_hand(self) -> HandResult:
        """Apply the finished hand's settlement to the table and move the button."""
        hand = self.hand
        if hand is None or hand.result is None:
            raise EngineError("hand_in_progress", "The current hand is not over yet.")
        result = hand.result
        self.stacks = list(result.stacks)
        self.pot = result.carry
        self.exempt = result.next_exempt
        self.button = (result.dealer + 1) % len(self.stacks)
        self.results.append(result)
        self.hand = None
        return result
