"""What every game engine shares: actions, events, refusals and the Game protocol.

A game is an explicit state machine. ``legal_actions(seat)`` says what a seat may do now,
``apply(action)`` verifies an action completely before changing anything and returns the
events it caused, and ``view(seat)`` builds what that seat may see from a whitelist.
Every refusal is an :class:`EngineError` with a stable ``code``, a ``message`` addressed to
the player and a third-person ``reason`` used by hand-history tools.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable


class EngineError(Exception):
    """A refused action or an impossible request, with a stable code and a clear sentence.

    ``message`` speaks to the player ("You hold hearts: you must follow suit."); ``reason``
    describes the same refusal in the third person for logs and replays ("must follow suit
    (hearts)"). ``details`` carries machine-readable extras such as the legal cards.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        reason: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason if reason is not None else message
        self.details: dict[str, Any] = dict(details or {})

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class Action(NamedTuple):
    """An intention of one seat. Cards are in notation ("AS"); ``amount`` is for betting games."""

    seat: int
    kind: str
    card: str | None = None
    cards: tuple[str, ...] | None = None
    amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The table-log form of the action: ``{"seat": 1, "action": "card", "card": "AS"}``."""
        out: dict[str, Any] = {"seat": self.seat, "action": self.kind}
        if self.card is not None:
            out["card"] = self.card
        if self.cards is not None:
            out["cards"] = list(self.cards)
        if self.amount is not None:
            out["amount"] = self.amount
        return out


class Event(NamedTuple):
    """Something that happened. ``to`` is None for a public event, else the only seat told."""

    kind: str
    seat: int | None
    data: Mapping[str, Any]
    to: int | None = None


@runtime_checkable
class Game(Protocol):
    """The shape shared by the Bourré and Bouillotte engines."""

    @property
    def is_over(self) -> bool: ...

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (several only during a simultaneous decision)."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Action]: ...

    def apply(self, action: Action) -> list[Event]: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...
