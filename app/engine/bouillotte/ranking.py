"""Ranking Bouillotte hands at the showdown (rules/bouillotte.md §6, §7, §8 "Showdown").

A hand is three cards as a bitmask of card numbers. Brelan carré (three of the upcard's rank),
brelan, and brelan de mistigri (the queen of clubs with a pair of one colour, when enabled)
are judged among a pot's contenders; otherwise points decide: each suit's total over every
hand dealt in (folded ones too) and the upcard, suits taken in groups of equal totals, highest
first. Within a group the winner is the first contender in the order who owns a suit of the
group, i.e. holds the highest card of that suit among the contenders' cards; a group nobody
owns is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.bouillotte.deck import ACE, EIGHT, JACK, KING, NINE, QUEEN
from app.engine.cards import CARD_NAMES, SUIT_MASKS, cards_in, make_card

POINTS, MISTIGRI, BRELAN, CARRE = range(4)
CATEGORY_NAMES = ("points", "mistigri", "brelan", "carre")
"""Names used by the table log's showdown report (spec/table-log.md)."""

QUEEN_OF_CLUBS = make_card(QUEEN, 3)
_VALUE_OF_RANK = {ACE: 11, KING: 10, QUEEN: 10, JACK: 10, NINE: 9, EIGHT: 8}
_RED = (False, True, True, False)  # S H D C

RANK_MASK_POINTS: tuple[int, ...] = tuple(
    sum(value for rank, value in _VALUE_OF_RANK.items() if bits >> rank & 1)
    for bits in range(1 << 13)
)
"""Points of a 13-bit set of ranks of one suit (A 11, K Q J 10, 9 9, 8 8)."""


_HAND_NAMES: dict[int, tuple[str, ...]] = {}
"""Mask -> names, filled on first use (a few thousand three-card hands at most)."""


def hand_names(mask: int) -> list[str]:
    """Notation of a hand's cards, highest rank first (suits S H D C within a rank), as the
    rules write hands: "AD 9C 8H"."""
    names = _HAND_NAMES.get(mask)
    if names is None:
        cards = sorted(cards_in(mask), key=lambda c: (-(c % 13), c // 13))
        names = tuple(CARD_NAMES[c] for c in cards)
        if len(_HAND_NAMES) < 50_000:
            _HAND_NAMES[mask] = names
    return list(names)


def card_points(card: int) -> int:
    return _VALUE_OF_RANK.get(card % 13, 0)


def classify(hand: int, upcard: int, brelans: bool, mistigri: bool) -> tuple[int, int]:
    """(category, rank) of a three-card hand; rank is the brelan's rank (-1 for points).

    With ``brelans`` off nothing but points exists (§6 high-stakes variant). A hand that is a
    brelan of queens with the queen of clubs is a brelan, the better category.
    """
    if not brelans:
        return POINTS, -1
    low = hand & -hand
    a = low.bit_length() - 1
    rest = hand ^ low
    low = rest & -rest
    b = low.bit_length() - 1
    c = (rest ^ low).bit_length() - 1
    ra, rb, rc = a % 13, b % 13, c % 13
    if ra == rb == rc:
        return (CARRE if upcard % 13 == ra else BRELAN), ra
    if mistigri and hand >> QUEEN_OF_CLUBS & 1:
        x, y = (card for card in (a, b, c) if card != QUEEN_OF_CLUBS)
        if x % 13 == y % 13 and _RED[x // 13] == _RED[y // 13]:
            return MISTIGRI, x % 13
    return POINTS, -1


def suit_totals(cards: int) -> tuple[int, int, int, int]:
    """Points of each suit (S H D C) over a mask of cards."""
    pts = RANK_MASK_POINTS
    return (
        pts[cards & 0x1FFF],
        pts[cards >> 13 & 0x1FFF],
        pts[cards >> 26 & 0x1FFF],
        pts[cards >> 39 & 0x1FFF],
    )


_GROUPS: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
"""Totals -> groups, filled on first use (bounded: the cache stops growing at 100,000)."""


def suit_groups(totals: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Suits with cards, in groups of equal totals, highest total first (§8)."""
    groups = _GROUPS.get(totals)
    if groups is None:
        by_total: dict[int, list[int]] = {}
        for suit, total in enumerate(totals):
            if total:
                by_total.setdefault(total, []).append(suit)
        groups = [tuple(by_total[t]) for t in sorted(by_total, reverse=True)]
        if len(_GROUPS) < 100_000:
            _GROUPS[totals] = groups
    return list(groups)


def owner(suit: int, contenders: Sequence[int], hands: Sequence[int]) -> int:
    """The contender holding the highest card of ``suit`` among the contenders, or -1."""
    mask = SUIT_MASKS[suit]
    best = -1
    who = -1
    for seat in contenders:
        held = hands[seat] & mask
        if held:
            top = held.bit_length()
            if top > best:
                best = top
                who = seat
    return who


def points_winner(
    groups: Sequence[tuple[int, ...]],
    contenders: Sequence[int],
    hands: Sequence[int],
    first: tuple[int, ...] = (),
) -> tuple[int, tuple[int, ...]]:
    """The winner by points among ``contenders`` (in the order) and the suits that won.

    ``first`` is a group decided before all others: for a side pot, the suit(s) that won the
    main pot (§7: "the suit that wins the main pot also decides each side pot"). The suits
    that won are those of the deciding group owned by the winner.
    """
    if first:
        taken = set(first)
        groups = [first, *(tuple(s for s in g if s not in taken) for g in groups)]
    for group in groups:
        owned: dict[int, list[int]] = {}
        for suit in group:
            who = owner(suit, contenders, hands)
            if who >= 0:
                owned.setdefault(who, []).append(suit)
        if owned:
            for seat in contenders:
                if seat in owned:
                    return seat, tuple(owned[seat])
    raise AssertionError("contenders hold cards, so some suit is owned")  # pragma: no cover


def best_brelan(contenders: Sequence[int], categories: Sequence[tuple[int, int]]) -> int:
    """The contender with the best brelan carré / brelan / mistigri, or -1 if none has one."""
    best = (POINTS, -1)
    who = -1
    for seat in contenders:
        category = categories[seat]
        if category[0] != POINTS and category > best:
            best = category
            who = seat
    return who
