"""A sequence of Bouillotte hands at one table: stacks, the carried pot and the deal flow from
hand to hand (rules/bouillotte.md §1, §2, §5, §8).

Between hands a seat whose cave is empty may rebuy (§1, §7): a new cave, and only then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.engine.base import EngineError
from app.engine.bouillotte.config import BouillotteRules
from app.engine.bouillotte.deck import DeckSource, ScriptedDeck, SeededDeck
from app.engine.bouillotte.state import BouillotteHand, HandResult
from app.engine.cards import parse_card


class BouillotteSession:
    """The table between hands. ``start_hand`` deals the next hand; when it is over,
    ``close_hand`` (or the next ``start_hand``) applies its settlement to the table.

    ``button`` is the seat that deals next if it is dealt in; otherwise the deal goes to the
    next seat to the right that is. After every hand the button moves one seat to the right
    of that hand's dealer (§5, §8 "Who plays"). A ``pot`` above zero between hands is the
    carried pot of a thrown-in hand: the next hand has no antes and its dealer adds 1 (§8).
    """

    def __init__(
        self,
        rules: BouillotteRules,
        stacks: Sequence[int],
        *,
        button: int = 0,
        pot: int = 0,
    ) -> None:
        self.rules = rules
        self.stacks = list(stacks)
        self.button = button
        self.pot = pot
        self.hand: BouillotteHand | None = None
        self.results: list[HandResult] = []

    def start_hand(
        self,
        *,
        seed: bytes | None = None,
        deck: Sequence[str] | None = None,
        source: DeckSource | None = None,
        sitting_out: Iterable[int] = (),
    ) -> BouillotteHand:
        """Deal the next hand from a seed, a scripted deck (notation) or a deck source."""
        if self.hand is not None:
            self.close_hand()
        if source is None:
            if seed is not None:
                source = SeededDeck(seed)
            elif deck is not None:
                source = ScriptedDeck([parse_card(c) for c in deck])
            else:
                raise EngineError("bad_deck", "A hand needs a seed or a deck.")
        self.hand = BouillotteHand(
            self.rules, self.stacks, self.button, source, pot=self.pot, sitting_out=sitting_out
        )
        return self.hand

    def close_hand(self) -> HandResult:
        """Apply the finished hand's settlement to the table and pass the deal to the right."""
        hand = self.hand
        if hand is None or hand.result is None:
            raise EngineError("hand_in_progress", "The current hand is not over yet.")
        result = hand.result
        self.stacks = list(result.stacks)
        self.pot = result.carry
        self.button = (result.dealer + self.rules.step) % len(self.stacks)
        self.results.append(result)
        self.hand = None
        return result

    def rebuy(self, seat: int) -> int:
        """Buy a new cave for ``seat`` (§1: only when they have lost every chip; only between
        hands). Returns the chips added; the club's ledger pays for them."""
        if self.hand is not None:
            if self.hand.result is None:
                raise EngineError("hand_in_progress", "A cave can be bought only between hands.")
            self.close_hand()
        if not 0 <= seat < len(self.stacks):
            raise EngineError(
                "no_such_seat", f"There is no seat {seat!r}.", details={"seat": str(seat)}
            )
        if self.stacks[seat] > 0:
            raise EngineError(
                "rebuy_not_allowed",
                f"A new cave can be bought only when the old one is empty "
                f"({self.stacks[seat]} chips left).",
                details={"chips": self.stacks[seat]},
            )
        self.stacks[seat] = self.rules.cave
        return self.rules.cave
