"""The legal actions of one seat as an exact, lazily built sequence.

An opening or a raise may name any total from a minimum to the player's whole cave, so the
legal actions are the fixed ones (``pass``, ``call``, ``fold``, ``all_in``, …) followed by one
``open`` or ``raise`` per legal amount. :class:`Choices` is that exact list, but it builds an
amount's action only when asked for it and answers ``in`` by arithmetic, so offering a range
of a thousand chips costs the same as offering one. ``bet_kind``, ``low`` and ``high`` give
the range directly (rules/bouillotte.md §9: a refusal names the legal range).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

from app.engine.base import Action

_new = tuple.__new__
"""Builds an Action from a full tuple, skipping the NamedTuple's keyword handling."""


class Choices(Sequence[Action]):
    """``fixed`` actions, then ``Action(seat, bet_kind, amount=a)`` for ``low <= a <= high``."""

    __slots__ = ("bet_kind", "fixed", "high", "low", "seat")

    def __init__(
        self, seat: int, fixed: tuple[Action, ...], bet_kind: str | None, low: int, high: int
    ) -> None:
        self.seat = seat
        self.fixed = fixed
        self.bet_kind = bet_kind
        self.low = low
        self.high = high

    @property
    def bet_count(self) -> int:
        return self.high - self.low + 1 if self.bet_kind is not None else 0

    def __len__(self) -> int:
        return len(self.fixed) + self.bet_count

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("choice out of range")
        fixed = self.fixed
        if index < len(fixed):
            return fixed[index]
        assert self.bet_kind is not None
        amount = self.low + index - len(fixed)
        return _new(Action, (self.seat, self.bet_kind, None, None, amount))

    def __iter__(self) -> Iterator[Action]:
        yield from self.fixed
        if self.bet_kind is not None:
            for amount in range(self.low, self.high + 1):
                yield Action(self.seat, self.bet_kind, amount=amount)

    def __contains__(self, item: object) -> bool:
        if item in self.fixed:
            return True
        if not isinstance(item, Action) or self.bet_kind is None:
            return False
        amount = item.amount
        return (
            item.seat == self.seat
            and item.kind == self.bet_kind
            and item.card is None
            and item.cards is None
            and isinstance(amount, int)
            and not isinstance(amount, bool)
            and self.low <= amount <= self.high
        )

    def kinds(self) -> list[str]:
        """The kinds of action offered, each once."""
        out = [a.kind for a in self.fixed]
        if self.bet_kind is not None:
            out.append(self.bet_kind)
        return out

    def to_list(self) -> list[dict[str, Any]]:
        """Compact JSON form for views: fixed actions, then the bet with its ``min``/``max``."""
        out: list[dict[str, Any]] = [{"action": a.kind} for a in self.fixed]
        if self.bet_kind is not None:
            out.append({"action": self.bet_kind, "min": self.low, "max": self.high})
        return out

    def __repr__(self) -> str:
        bet = f", {self.bet_kind} {self.low}..{self.high}" if self.bet_kind else ""
        return f"Choices(seat={self.seat}, {[a.kind for a in self.fixed]}{bet})"
