"""What can be asked of a table. Each command carries a future for its answer; the actor
handles them one at a time, in arrival order, so nothing at a table ever races."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from app.i18n import current_language
from app.tables.events import Encode
from app.tables.latency import BroadcastTracker
from app.tables.table import ActionRequest

# A frame for a connection's writer, and what to tell once it has gone out (if anything).
Outgoing = tuple[bytes, BroadcastTracker | None]


@dataclass(frozen=True, slots=True)
class Encoders:
    """How a table's outgoing things become frames. Given by the WebSocket layer (see
    app/main.py), which alone knows the wire format: the table only says what to send."""

    # (version, kind, data) -> an event's frame, kept as such in the event log.
    event: Encode
    # A view's public part (the same for every viewer) -> its encoding, once per broadcast.
    public: Callable[[Mapping[str, Any]], bytes]
    # (version, encoded public part, a viewer's own part) -> that viewer's snapshot frame.
    snapshot: Callable[[int, bytes, Mapping[str, Any]], bytes]
    # (message id, name, text, when, removed) -> a chat line's frame.
    chat: Callable[[int, str, str, datetime, bool], bytes]
    # The running hand's events a viewer may see ({"hand", "events"}) -> their frame.
    hand_log: Callable[[Mapping[str, Any]], bytes]
    # Whether the table's database answers (False: play is paused) -> that notice's frame.
    storage: Callable[[bool], bytes]


@dataclass(eq=False)
class Connection:
    """One WebSocket of one member watching or playing at a table. The actor puts frames
    in `outbox`; the connection's own writer task sends them, so a slow client never slows
    the table. A client that lets its outbox fill up is disconnected."""

    user_id: int
    username: str
    outbox: asyncio.Queue[Outgoing] = field(default_factory=lambda: asyncio.Queue(maxsize=256))
    closed: bool = False
    close_code: int | None = None
    # Set once the connection is ended; its socket's endpoint then closes it.
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, frame: bytes, tracker: BroadcastTracker | None = None) -> bool:
        """Queue a frame; False if it was dropped (the connection is closed or closing).
        The writer calls `tracker.sent()` once the frame is out."""
        if self.closed:
            return False
        try:
            self.outbox.put_nowait((frame, tracker))
        except asyncio.QueueFull:
            self.end(1008)
            return False
        return True

    def end(self, code: int) -> None:
        """Stop this connection at once: nothing more is sent to it or accepted from it,
        the table drops it, and its endpoint closes the socket with `code`."""
        if not self.closed:
            self.closed = True
            self.close_code = code
        self.ended.set()


@dataclass(eq=False)
class Command:
    reply: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future(), init=False
    )
    # The language of whoever asked (their request's, their socket's), taken when the command
    # is made: the table's own task runs it, and its refusals must still speak to the asker.
    language: str = field(default_factory=current_language, init=False)


@dataclass(eq=False)
class Join(Command):
    connection: Connection
    version: int | None = None


@dataclass(eq=False)
class Leave(Command):
    connection: Connection


@dataclass(eq=False)
class Act(Command):
    connection: Connection
    message: ActionRequest
    # When the frame arrived (`time.perf_counter()`), for the latency measure.
    received: float | None = None


@dataclass(eq=False)
class Chat(Command):
    connection: Connection
    text: str


@dataclass(eq=False)
class ChatRemoved(Command):
    """An admin removed a chat line (already stored as removed): everyone watching sees it
    replaced now."""

    message_id: int
    name: str
    at: datetime


@dataclass(eq=False)
class Contribute(Command):
    """A seated player's 32 random bytes for the next hand's seed (docs/fair-shuffle.md)."""

    connection: Connection
    value: bytes


@dataclass(eq=False)
class DealNow(Command):
    """A seated player asks to deal without waiting out the gathering countdown."""

    connection: Connection


@dataclass(eq=False)
class Resync(Command):
    connection: Connection
    version: int


@dataclass(eq=False)
class Sit(Command):
    user_id: int
    seat_no: int | None
    buy_in: int
    request_key: str


@dataclass(eq=False)
class TopUp(Command):
    user_id: int
    amount: int
    request_key: str


@dataclass(eq=False)
class SitOut(Command):
    user_id: int
    away: bool


@dataclass(eq=False)
class Stand(Command):
    user_id: int


@dataclass(eq=False)
class SetStatus(Command):
    status: str
    # The admin who asked: the change is written to the audit log in its transaction.
    by_admin: int | None = None


@dataclass(eq=False)
class EditTable(Command):
    """Change the table before its first hand (name, house rules, stakes): ordered with
    the deal, so an edit and the first hand can never cross."""

    user_id: int
    edit: Any  # services.tables.TableEdit


@dataclass(eq=False)
class Describe(Command):
    """The table's live summary for the lobby."""


@dataclass(eq=False)
class Stop(Command):
    pass


@dataclass(eq=False)
class SeatBot(Command):
    """An admin seats a computer player (chips from the club's bank)."""

    level: str
    seat_no: int | None
    buy_in: int | None
    request_key: str
    by_admin: int


@dataclass(eq=False)
class RemoveBot(Command):
    """An admin sends a computer player away: it stands up now, or when its hand ends."""

    seat_no: int
    by_admin: int


@dataclass(eq=False)
class SetBotFill(Command):
    """Fill the table's empty seats with computer players of `level` while a person plays
    here (None: stop; the bots seated stay until the admin removes them or the table is
    left to them alone)."""

    level: str | None
    by_admin: int


@dataclass(eq=False)
class Suggest(Command):
    """At a practice table: what the club-level bot would play from this seat's view."""

    connection: Connection


class TableHandle(Protocol):
    """Where a table's commands go: its actor in this process, or (several processes
    serving the club) a handle reaching the process that owns it (app/cluster)."""

    table_id: int

    async def call(self, command: Command) -> Any: ...
