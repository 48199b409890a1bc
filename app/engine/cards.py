"""Cards, suits, ranks and their notation, shared by every game.

A card is a small int: ``suit * 13 + rank`` where ``rank`` 0 is the deuce and 12 the ace
(ace high in every suit) and ``suit`` indexes ``S H D C``. Small ints let the engines keep a
hand as one bitmask (bit ``card`` set when held), so following suit or finding the highest
trump are a mask and a ``bit_length``. Notation strings ("AS", "TD", "2C") are used only at
the edges: actions, views, errors and table logs.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHDC"
"""Suit letters; the index of a letter is the suit number."""

RANKS = "23456789TJQKA"
"""Rank letters from low to high; the index of a letter is the rank number."""

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SINGULAR = ("spade", "heart", "diamond", "club")

ACE = 12
DECK_SIZE = 52

Card = int
"""A card number 0..51: ``suit * 13 + rank``."""


class CardNotationError(ValueError):
    """A string that is not a card in rank + suit notation ("AS", "TD")."""


CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""Notation of every card, indexed by card number."""

CARD_INDEX: dict[str, Card] = {name: i for i, name in enumerate(CARD_NAMES)}
"""Card number of every notation string."""

SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
"""Bitmask of the 13 cards of each suit."""

FULL_DECK_MASK = (1 << DECK_SIZE) - 1

ABOVE: tuple[int, ...] = tuple(
    SUIT_MASKS[c // 13] & ~((1 << (c + 1)) - 1) for c in range(DECK_SIZE)
)
"""For each card, the mask of the cards of the same suit that rank above it."""


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def suit_of(card: Card) -> int:
    return card // 13


def rank_of(card: Card) -> int:
    return card % 13


def parse_card(text: object) -> Card:
    """The card number of a notation string such as "AS"; refuses anything else."""
    if isinstance(text, str):
        card = CARD_INDEX.get(text)
        if card is not None:
            return card
    raise CardNotationError(f"{text!r} is not a card (rank 23456789TJQKA then suit SHDC)")


def card_name(card: Card) -> str:
    return CARD_NAMES[card]


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> list[Card]:
    """The cards of a mask, lowest card number first (the canonical order)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_SUIT_NAMES_CACHE: tuple[dict[int, tuple[str, ...]], ...] = ({}, {}, {}, {})
"""Per suit: 13-bit rank mask -> names high to low, filled on first use (at most 8192 each)."""


def _suit_names(suit: int, ranks: int) -> tuple[str, ...]:
    names = tuple(CARD_NAMES[suit * 13 + r] for r in range(12, -1, -1) if ranks >> r & 1)
    _SUIT_NAMES_CACHE[suit][ranks] = names
    return names


def names_in(mask: int) -> list[str]:
    """Notation of the cards of a mask for display: suits S H D C, high rank first."""
    out: list[str] = []
    for suit in range(4):
        ranks = (mask >> (13 * suit)) & 0x1FFF
        if ranks:
            names = _SUIT_NAMES_CACHE[suit].get(ranks)
            out.extend(names if names is not None else _suit_names(suit, ranks))
    return out


def full_deck() -> list[Card]:
    """The canonical pack order: 2S 3S … AS 2H … AH 2D … AD 2C … AC (card numbers 0..51)."""
    return list(range(DECK_SIZE))
