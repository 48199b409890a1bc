"""The discard choices of the draw (rules/bourre.md §4) as a lazy sequence of actions.

A player holding five (or six) cards may discard any subset within the limits: up to 63
distinct actions. ``DiscardChoices`` is the exact list of them, in a fixed order (take_trump
first when offered, then by number of cards, then as ``itertools.combinations`` orders the
held cards), but it builds an action only when asked for it, so offering the choice costs
the same whatever its size.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import overload

from app.engine.base import Action

_COUNTS: dict[tuple[int, int, int], tuple[int, ...]] = {}
"""(cards held, fewest, most) -> number of discards of each size; a handful of entries."""


class DiscardChoices(Sequence[Action]):
    """Every legal draw action of one seat, built on access."""

    __slots__ = ("_counts", "_held", "_lead", "_low", "_seat")

    def __init__(
        self, seat: int, held: Sequence[str], low: int, high: int, lead: tuple[Action, ...]
    ) -> None:
        self._seat = seat
        self._held = held
        self._low = low
        self._lead = lead  # take_trump, when the dealer may take the turned card
        key = (len(held), low, high)
        counts = _COUNTS.get(key)
        if counts is None:
            top = min(high, len(held))
            counts = _COUNTS[key] = tuple(comb(len(held), k) for k in range(low, top + 1))
        self._counts = counts

    def __len__(self) -> int:
        return len(self._lead) + sum(self._counts)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return list(self)[index]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("discard choice out of range")
        if index < len(self._lead):
            return self._lead[index]
        rank = index - len(self._lead)
        subset_size = self._low
        for count in self._counts:
            if rank < count:
                break
            rank -= count
            subset_size += 1
        return Action(self._seat, "discard", cards=self._unrank(subset_size, rank))

    def __iter__(self) -> Iterator[Action]:
        yield from self._lead
        held = self._held
        for offset in range(len(self._counts)):
            for cards in combinations(held, self._low + offset):
                yield Action(self._seat, "discard", cards=cards)

    def _unrank(self, size: int, rank: int) -> tuple[str, ...]:
        """The ``rank``-th subset of ``size`` held cards in ``combinations`` order."""
        held = self._held
        n = len(held)
        out = []
        pos = 0
        for slot in range(size):
            while True:
                with_pos = comb(n - pos - 1, size - slot - 1)
                if rank < with_pos:
                    out.append(held[pos])
                    pos += 1
                    break
                rank -= with_pos
                pos += 1
        return tuple(out)

    def __repr__(self) -> str:
        return f"DiscardChoices(seat={self._seat}, count={len(self)})"
