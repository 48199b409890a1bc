"""The Bouillotte packs and where a hand's cards come from (rules/bouillotte.md §1, §4).

The pack depends on the number of players dealt in when the hand starts: three players play
with A K 9 8 (16 cards), four with A K Q 9 8 (20), five add the jacks (24). A card is the
shared small int ``suit * 13 + rank`` (app/engine/cards.py).

A seeded hand's deck is shuffle 0 of its seed (docs/fair-shuffle.md) applied to *its pack* in
canonical order (card numbers ascending) instead of the 52-card pack: the same procedure,
only the list of cards differs. Bouillotte never reshuffles. A scripted deck lists the pack,
top first. Either way the deal takes one card at a time from the top, starting with the player
on the dealer's right and going right, three rounds, and the next card is the upcard.
"""

from __future__ import annotations

from typing import Protocol

from app.engine.base import EngineError
from app.engine.cards import RANKS, make_card
from app.engine.rng import shuffled

EIGHT, NINE, JACK, QUEEN, KING, ACE = (RANKS.index(r) for r in "89JQKA")

PACK_RANKS: dict[int, tuple[int, ...]] = {
    3: (EIGHT, NINE, KING, ACE),
    4: (EIGHT, NINE, QUEEN, KING, ACE),
    5: (EIGHT, NINE, JACK, QUEEN, KING, ACE),
}
"""Ranks of the pack for 3, 4 and 5 players dealt in (§1)."""

PACKS: dict[int, tuple[int, ...]] = {
    n: tuple(sorted(make_card(r, s) for s in range(4) for r in ranks))
    for n, ranks in PACK_RANKS.items()
}
"""Each pack in canonical order (card numbers ascending)."""

PACK_MASKS: dict[int, int] = {n: sum(1 << c for c in pack) for n, pack in PACKS.items()}

CARDS_DEALT = 3


def pack_description(players: int) -> str:
    """ "the 20 cards A K Q 9 8 of each suit", for messages."""
    ranks = " ".join(RANKS[r] for r in reversed(PACK_RANKS[players]))
    return f"the {len(PACKS[players])} cards {ranks} of each suit"


class DeckError(EngineError):
    """A scripted deck that is not the pack of the hand being dealt."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_deck", message, reason=f"cannot be dealt: {message}")


class DeckSource(Protocol):
    def deck(self, players: int) -> list[int]:
        """The pack for ``players`` dealt in, top first."""
        ...


class SeededDeck:
    """The pack shuffled by shuffle 0 of the hand's seed (docs/fair-shuffle.md)."""

    __slots__ = ("seed",)

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def deck(self, players: int) -> list[int]:
        return shuffled(PACKS[players], self.seed, 0)


class ScriptedDeck:
    """A deck listed card by card (tests, replays); it must be exactly the hand's pack."""

    __slots__ = ("cards",)

    def __init__(self, cards: list[int]) -> None:
        self.cards = list(cards)

    def deck(self, players: int) -> list[int]:
        mask = 0
        for card in self.cards:
            mask |= 1 << card
        if len(self.cards) != len(PACKS[players]) or mask != PACK_MASKS[players]:
            raise DeckError(
                f"with {players} players dealt in the deck must be "
                f"{pack_description(players)}, not these {len(self.cards)} cards"
            )
        return list(self.cards)
