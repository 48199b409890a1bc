"""Plain values about a table, shared by the services that read them from the database and
the table core that decides with them: a module of its own, importing nothing, so that the
core never depends on the persistence layer to know what a seat is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat_no: int
    user_id: int
    username: str
    display_name: str
    stack: int
    sitting_out: bool
    leaving: bool
    timed_out_hands: int
    # A computer player's level of play; None for a person.
    bot_level: str | None = None
    # A bot that sat down to fill the table (it leaves once no person plays).
    filled: bool = False


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the live table reads of its stored row, copied when the row is read, so that
    decisions never touch a database object."""

    id: int
    name: str
    game: str
    status: str  # "open", "paused" or "closed"
    rules: dict[str, Any]
    seat_count: int
    buy_in_min: int
    buy_in_max: int
    turn_seconds: int
    allow_spectators: bool
    # What the engine carries from hand to hand (button…); empty before the first hand.
    session_state: dict[str, Any]
    hands_played: int
    # Play money (a practice table), and the level of the computer players that fill its
    # empty seats while a person plays (None: no filling).
    practice: bool = False
    bot_fill: str | None = None
    # This table's gathering countdown in seconds (None: the club's setting).
    gathering_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class SeatTimer:
    """A seat's turn-timer bookkeeping after a hand, as it is to be stored."""

    seat_no: int
    user_id: int
    timed_out_hands: int
    sitting_out: bool


@dataclass(frozen=True, slots=True)
class SeatsAfterHand:
    """What a settled hand changes at its seats, beyond the chips: the timer's bookkeeping
    of the seats whose count changed, and the members who asked to stand up (their stacks go
    back to their balances once the hand is settled)."""

    timers: tuple[SeatTimer, ...]
    leaving: tuple[int, ...]
