"""Where a hand's cards come from: a seed (live play) or a scripted deck (tests, replays).

Both give the deck top first and every later reshuffle of out-of-play cards
(rules/bourre.md §4), numbered from 1 in the order the engine asks for them.
"""

from __future__ import annotations

from typing import Protocol

from app.engine.base import EngineError
from app.engine.cards import CARD_NAMES, DECK_SIZE
from app.engine.rng import reshuffled, shuffled_deck

FULL_PACK: tuple[int, ...] = tuple(range(DECK_SIZE))
"""The pack every hand is dealt from, in canonical order (rules/bourre.md §1)."""


class ReshuffleError(EngineError):
    """A scripted hand whose listed reshuffle is missing or holds the wrong cards."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__("bad_reshuffle", message)
        self.index = index


class DeckSource(Protocol):
    def deck(self) -> list[int]:
        """All 52 cards, top first."""
        ...

    def reshuffle(self, index: int, cards: list[int]) -> list[int]:
        """Reshuffle ``index`` (from 1) of ``cards`` (ascending): the new stock, top first."""
        ...


class SeededDeck:
    """Every shuffle derived from the hand's seed (docs/fair-shuffle.md)."""

    __slots__ = ("seed",)

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def deck(self) -> list[int]:
        return shuffled_deck(self.seed)

    def reshuffle(self, index: int, cards: list[int]) -> list[int]:
        return reshuffled(cards, self.seed, index)


class ScriptedDeck:
    """A deck listed card by card, with reshuffles listed in the order they are needed."""

    __slots__ = ("cards", "reshuffles")

    def __init__(self, cards: list[int], reshuffles: list[list[int]] | None = None) -> None:
        if len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
            raise EngineError("bad_deck", "A scripted deck must list all 52 cards exactly once.")
        self.cards = list(cards)
        self.reshuffles = [list(r) for r in reshuffles] if reshuffles else []

    def deck(self) -> list[int]:
        return list(self.cards)

    def reshuffle(self, index: int, cards: list[int]) -> list[int]:
        if index > len(self.reshuffles):
            raise ReshuffleError(
                index,
                f"reshuffle {index} is needed but not listed "
                f"(it must hold the {len(cards)} out-of-play cards)",
            )
        listed = self.reshuffles[index - 1]
        if sorted(listed) != cards or len(listed) != len(cards):
            expected = " ".join(CARD_NAMES[c] for c in cards)
            raise ReshuffleError(
                index, f"reshuffle {index} must hold exactly the out-of-play cards: {expected}"
            )
        return list(listed)
