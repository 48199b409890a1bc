"""One actor per live table: an asyncio task that owns the table and handles its commands
one at a time (DESIGN.md, "Table runtime").

The actor deals hands, applies actions through the engine, runs the turn timer, seats and
unseats players, and sends every connection only what its viewer may see. Persistence is
write-ahead: an accepted action is committed to the database before any client hears of
it, and a hand's end (history, settlement, chips) is one transaction. On start the actor
rebuilds a hand left running by a previous process from its seed and stored actions.

Fair dealing (docs/fair-shuffle.md): when the countdown to the next hand starts, the actor
draws that hand's server seed and shows its commitment at once; seated players' browsers
then send random contributions, and the hand is dealt from the server seed mixed with
them. The commitment binds the server before it sees any contribution.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from app.db.models import GameTable, TableSeat, TableStatus, User
from app.db.session import Database
from app.engine import log as table_log
from app.engine.base import Action, EngineError, Event
from app.engine.driver import GameDriver, LiveHand, timeout_said
from app.engine.logdoc import MalformedLog
from app.engine.registry import driver
from app.engine.rng import (
    commitment,
    contributions_to_hex,
    mixed_seed,
    new_seed,
    seed_from_hex,
    seed_to_hex,
)
from app.errors import Conflict, NotFound, SalonError
from app.services import hands as hand_store
from app.services import holdings, ledger, moderation
from app.services import tables as table_service
from app.services.action_writer import ActionWriter, StoredAction
from app.services.hand_replay import action_from_log
from app.services.hand_results import public_report
from app.tables.clock import Clock
from app.tables.commands import (
    Act,
    Chat,
    ChatRemoved,
    Command,
    Connection,
    Contribute,
    Describe,
    EditTable,
    Join,
    Leave,
    Resync,
    SetStatus,
    Sit,
    SitOut,
    Stand,
    Stop,
    TopUp,
)
from app.tables.events import EventLog, LoggedEvent
from app.tables.latency import BroadcastTracker, LatencyRecorder
from app.ws.protocol import ActionIn, ChatOut, event_frame, snapshot_frame

log = logging.getLogger(__name__)

# Hands in a row the timer may play for someone before they are sat out.
TIMEOUTS_BEFORE_SIT_OUT = 2
# Client action ids remembered per table, so a resent action applies once.
REMEMBERED_CLIENT_IDS = 2048
# Chat lines a freshly opened table page is sent.
CHAT_HISTORY = 30


@dataclass(frozen=True, slots=True)
class RuntimeSettings:
    next_hand_seconds: float = 4.0


class ActionRefused(SalonError):
    """An action the engine or the table refused; nothing changed."""

    status_code = 409


class ActorGone(SalonError):
    status_code = 503

    def __init__(self, table_id: int) -> None:
        super().__init__("table_unavailable", "This table is restarting; try again shortly.")
        self.table_id = table_id


@dataclass
class _NextHand:
    """The coming hand's server seed, drawn when its countdown starts so that its commitment
    is public before any player contributes, and the contributions received since, by
    member (a member's seat may still change before the deal: Bouillotte's first seating)."""

    server_seed: bytes
    commitment: str
    contributions: dict[int, bytes]  # member id → 32 bytes

    @classmethod
    def draw(cls) -> _NextHand:
        server_seed = new_seed()
        return cls(server_seed, commitment(server_seed), {})


@dataclass
class _Hand:
    """The hand being played, with what the runtime keeps around the engine."""

    row_id: int
    number: int
    seed: bytes  # what the hand is dealt and replayed from: the mixed seed
    commitment: str
    # None for a hand stored before contributions existed (its commitment is the seed's).
    server_seed: bytes | None
    contributions: dict[str, str]  # seat (as text) → hex, as published
    live: LiveHand
    players: dict[int, int]  # seat → member id, as dealt
    stacks_before: list[int]
    pot_before: int
    seq: int = 0
    timed_out: set[int] | None = None
    # What the turn timer did in this hand, in order: (seat, what everyone was told).
    timeouts: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


class TableActor:
    def __init__(
        self,
        table_id: int,
        db: Database,
        clock: Clock,
        settings: RuntimeSettings,
        latency: LatencyRecorder,
        writer: ActionWriter,
    ) -> None:
        self.table_id = table_id
        self.db = db
        # Stores accepted actions, many tables' in one commit (group commit).
        self.writer = writer
        self.clock = clock
        self.settings = settings
        self.latency = latency
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.connections: set[Connection] = set()
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.load_error: Exception | None = None
        self.table: GameTable | None = None
        self.driver: GameDriver | None = None
        self.rules: Any = None
        self.seats: dict[int, table_service.SeatInfo] = {}
        self.pot = 0
        self.hand: _Hand | None = None
        self.events = EventLog(_encode_event)
        # The version of the last change to the game itself (not chat): actions taken on
        # an older view are stale.
        self.game_version = 0
        self.turn_deadline: float | None = None
        self.next_hand_at: float | None = None
        # The server seed committed to for the hand the countdown leads to.
        self.next_hand: _NextHand | None = None
        self.closing = False
        # The admin who asked for the close a running hand delays: the close is logged
        # under their name when it happens.
        self.closing_by: int | None = None
        self.last_result: dict[str, Any] | None = None
        self.client_ids: OrderedDict[tuple[int, str], int] = OrderedDict()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")

    async def call(self, command: Command) -> Any:
        """Queue a command and wait for its answer (or for the actor to have died)."""
        if self.task is None or self.task.done():
            raise ActorGone(self.table_id)
        await self.queue.put(command)
        await asyncio.wait({command.reply, self.task}, return_when=asyncio.FIRST_COMPLETED)
        if not command.reply.done():
            raise ActorGone(self.table_id)
        return command.reply.result()

    async def stop(self) -> None:
        if self.task is None or self.task.done():
            return
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            await self.call(Stop())
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    async def _run(self) -> None:
        try:
            await self._load()
        except Exception as error:
            self.load_error = error
            self.ready.set()
            raise
        self.ready.set()
        getter: asyncio.Task[Command] | None = None
        while True:
            if getter is None:
                getter = asyncio.create_task(self.queue.get())
            deadline = self._next_deadline()
            sleeper = (
                asyncio.create_task(self.clock.sleep_until(deadline))
                if deadline is not None
                else None
            )
            waiting: set[asyncio.Task[Any]] = {getter} | ({sleeper} if sleeper else set())
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if sleeper is not None and sleeper not in done:
                sleeper.cancel()
            if getter in done:
                command = getter.result()
                getter = None
                if isinstance(command, Stop):
                    self._reply(command, None)
                    return
                await self._handle(command)
            else:
                try:
                    await self._on_timer()
                except Exception:  # a failed timer step must not stop the table
                    log.exception("table %s: timer step failed", self.table_id)
            self._flush_closed()

    def _next_deadline(self) -> float | None:
        candidates = [d for d in (self.turn_deadline, self.next_hand_at) if d is not None]
        return min(candidates) if candidates else None

    async def _load(self) -> None:
        async with self.db.transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            self.table = table
            self.driver = driver(table.game)
            self.rules = self.driver.parse_rules(table.rules)
            await self._reload_seats(session)
            self.pot = await ledger.balance_of(session, table_service.pot_key(self.table_id))
            running = await hand_store.running_hand(session, self.table_id)
            stored = await hand_store.actions_of(session, running.id) if running else []
            version = await hand_store.last_version(session, table)
        self.events = EventLog(_encode_event, start_version=version)
        self.game_version = version
        if running is not None:
            await self._restore(running, stored)
        self._schedule_next_hand()

    async def _reload_seats(self, session: Any) -> None:
        self.seats = {s.seat_no: s for s in await table_service.seats_of(session, self.table_id)}

    async def _restore(self, running: Any, stored: list[Any]) -> None:
        """Rebuild the hand a previous process was playing, action by action."""
        assert self.driver is not None
        seed = seed_from_hex(running.seed)
        header = running.header
        stacks = [int(s["stack"]) for s in header["seats"]]
        live = self.driver.deal(
            self.rules,
            stacks,
            int(header.get("pot", 0)),
            running.players.get("state", {}),
            seed,
            running.players.get("sitting_out", []),
        )
        timeouts: list[tuple[int, dict[str, Any]]] = []
        for row in stored:
            action = action_from_log(row.action)
            live.game.apply(action)
            if row.user_id is None:  # only the turn timer acts for nobody
                timeouts.append((action.seat, timeout_said(action)))
            if row.client_id and row.user_id is not None:
                self._remember(row.user_id, row.client_id, row.table_version)
        self.hand = _Hand(
            row_id=running.id,
            number=running.number,
            seed=seed,
            commitment=running.commitment,
            server_seed=seed_from_hex(running.server_seed) if running.server_seed else None,
            contributions=dict(running.contributions or {}),
            live=live,
            players={int(k): int(v) for k, v in running.players["users"].items()},
            stacks_before=stacks,
            pot_before=int(header.get("pot", 0)),
            seq=len(stored),
            timed_out=set(),
            timeouts=timeouts,
        )
        self._restart_turn_timer()
        if live.game.is_over:  # killed between the last action and the settlement
            await self._finish_hand()

    # ------------------------------------------------------------------ dispatch

    def _reply(self, command: Command, value: Any) -> None:
        if not command.reply.done():
            command.reply.set_result(value)

    def _fail(self, command: Command, error: Exception) -> None:
        if not command.reply.done():
            command.reply.set_exception(error)

    async def _handle(self, command: Command) -> None:
        try:
            result = await self._dispatch(command)
        except SalonError as error:
            self._fail(command, error)
        except Exception as error:  # never let one command kill the table
            log.exception("table %s: command %r failed", self.table_id, command)
            self._fail(command, error)
        else:
            self._reply(command, result)

    async def _dispatch(self, command: Command) -> Any:
        connection = getattr(command, "connection", None)
        if (
            isinstance(connection, Connection)
            and connection.closed
            and not isinstance(command, Leave)
        ):
            # Queued before its socket was ended (a logout, a ban): it no longer speaks.
            raise ActionRefused("connection_closed", "This connection has been closed.")
        match command:
            case Join():
                return await self._join(command.connection, command.version)
            case Leave():
                return self._leave(command.connection)
            case Act():
                return await self._act(command.connection, command)
            case Chat():
                return await self._chat(command.connection, command.text)
            case ChatRemoved():
                return self._chat_removed(command)
            case Contribute():
                return self._contribute(command.connection, command.value)
            case Resync():
                self._catch_up(command.connection, command.version)
                return None
            case Sit():
                return await self._sit(command)
            case TopUp():
                return await self._top_up(command)
            case SitOut():
                return await self._sit_out(command.user_id, command.away)
            case Stand():
                return await self._stand(command.user_id)
            case SetStatus():
                return await self._set_status(command.status, command.by_admin)
            case EditTable():
                return await self._edit(command)
            case Describe():
                return self.describe()
        raise AssertionError(f"unknown command {command!r}")

    # ------------------------------------------------------------------ viewers

    def seat_of_user(self, user_id: int) -> int | None:
        for seat_no, seat in self.seats.items():
            if seat.user_id == user_id:
                return seat_no
        return None

    async def _join(self, connection: Connection, version: int | None) -> None:
        """A new socket: the missed events (a reconnect) or the whole view (a page just
        opened, which also gets the table's recent chat: a reconnecting page has it)."""
        assert self.table is not None
        if self.seat_of_user(connection.user_id) is None and not self.table.allow_spectators:
            raise ActionRefused("no_spectators", "This table does not allow spectators.")
        if version is not None:
            self.connections.add(connection)
            self._catch_up(connection, version)
        else:
            # Read before the connection is added: if this fails, nothing is left behind.
            async with self.db.transaction() as session:
                recent = await hand_store.recent_chat(session, self.table_id, CHAT_HISTORY)
            self.connections.add(connection)
            connection.send(self._snapshot(connection))
            for message, name in recent:
                connection.send(
                    _chat_frame(
                        message.id,
                        name,
                        message.text,
                        message.created_at,
                        removed=message.removed_at is not None,
                    )
                )
        self._presence_changed(connection.user_id, joined=True)

    def _leave(self, connection: Connection) -> None:
        if connection not in self.connections:
            return
        self.connections.discard(connection)
        self._presence_changed(connection.user_id, joined=False)

    def _presence_changed(self, user_id: int, *, joined: bool) -> None:
        """A seated member's first socket opened or last one closed: everyone sees the seat
        go online or offline now (an offline player's turns are left to the timer)."""
        seat = self.seat_of_user(user_id)
        if seat is None:
            return
        sockets = sum(1 for c in self.connections if c.user_id == user_id)
        if sockets == (1 if joined else 0):
            self._broadcast(self._publish([Event("online" if joined else "offline", seat, {})]))

    def _catch_up(self, connection: Connection, version: int) -> None:
        seat = self.seat_of_user(connection.user_id)
        missed = self.events.since(version, seat)
        for event in missed or []:
            connection.send(event.frame)
        connection.send(self._snapshot(connection))

    def _snapshot(self, connection: Connection) -> bytes:
        return self._snapshot_for(self.seat_of_user(connection.user_id))

    def _snapshot_for(self, seat: int | None) -> bytes:
        return snapshot_frame(self.events.version, self.view(seat))

    def _flush_closed(self) -> None:
        """Drop the connections ended since (a slow reader, a login that ended), as if
        their sockets had left."""
        for connection in [c for c in self.connections if c.closed]:
            self._leave(connection)

    def _broadcast(self, logged: list[LoggedEvent], received: float | None = None) -> None:
        """Send each connection the new events it may see, then its view. A view and its
        frame are built once per seat (and once for all spectators), not per socket.
        `received`: when the action that caused this arrived; the seated players' snapshots
        then carry a tracker that records when the last of them has gone out."""
        events = [(event, event.frame) for event in logged]
        snapshots: dict[int | None, bytes] = {}
        public: dict[str, Any] | None = None
        tracker = (
            BroadcastTracker(self.latency, received, self.table_id)
            if received is not None
            else None
        )
        for connection in list(self.connections):
            seat = self.seat_of_user(connection.user_id)
            for event, frame in events:
                if event.visible_to(seat):
                    connection.send(frame)
            if seat not in snapshots:
                if public is None:
                    public = self._public_view()
                snapshots[seat] = snapshot_frame(self.events.version, self._view(seat, public))
            tagged = tracker if seat is not None else None
            if connection.send(snapshots[seat], tagged) and tagged is not None:
                tagged.pending += 1

    def _publish(self, events: list[Event]) -> list[LoggedEvent]:
        logged = [
            self.events.append(
                e.kind,
                {"seat": e.seat, **dict(e.data)} if e.seat is not None else dict(e.data),
                None if e.to is None else frozenset({e.to}),
            )
            for e in events
        ]
        return logged

    def view(self, seat: int | None) -> dict[str, Any]:
        """What one viewer sees of the table: public seat information, the hand as the
        engine shows it to that seat, the timer, the last result."""
        return self._view(seat, self._public_view())

    def _view(self, seat: int | None, public: dict[str, Any]) -> dict[str, Any]:
        hand_view: dict[str, Any] | None = None
        if self.hand is not None:
            hand_view = {
                "number": self.hand.number,
                "commitment": self.hand.commitment,
                **self.hand.live.game.view(seat),
            }
        return {
            "table": public["table"],
            "seats": public["seats"],
            "you": {"seat": seat},
            "pot": public["pot"],
            "hand": hand_view,
            "turn_ends_in": public["turn_ends_in"],
            "next_hand_in": public["next_hand_in"],
            "next_hand": public["next_hand"],
            "last_result": public["last_result"],
        }

    def _public_view(self) -> dict[str, Any]:
        """The parts of a view that are the same for every viewer: built once per
        broadcast, not once per seat."""
        assert self.table is not None
        table = self.table
        now = self.clock.now()
        connected = {c.user_id for c in self.connections}
        return {
            "table": {
                "id": table.id,
                "name": table.name,
                "game": table.game,
                "status": "closing" if self.closing else table.status,
                "rules": table.rules,
                "seat_count": table.seat_count,
                "buy_in_min": table.buy_in_min,
                "buy_in_max": table.buy_in_max,
                "turn_seconds": table.turn_seconds,
            },
            "seats": [
                {
                    "seat": s.seat_no,
                    "name": s.display_name,
                    "username": s.username,
                    "stack": s.stack,
                    "sitting_out": s.sitting_out,
                    "leaving": s.leaving,
                    "connected": s.user_id in connected,
                }
                for s in sorted(self.seats.values(), key=lambda s: s.seat_no)
            ],
            "pot": self.pot,
            "turn_ends_in": (
                round(max(0.0, self.turn_deadline - now), 1) if self.turn_deadline else None
            ),
            "next_hand_in": (
                round(max(0.0, self.next_hand_at - now), 1) if self.next_hand_at else None
            ),
            "next_hand": self._next_hand_view(),
            "last_result": self.last_result,
        }

    def _next_hand_view(self) -> dict[str, Any] | None:
        """The commitment to the coming hand's server seed, and the seats whose browsers
        have contributed to it: public while the countdown runs."""
        pending = self._open_contributions()
        if pending is None:
            return None
        seats = (self.seat_of_user(user_id) for user_id in pending.contributions)
        return {
            "commitment": pending.commitment,
            "contributed": sorted(s for s in seats if s is not None),
        }

    def _open_contributions(self) -> _NextHand | None:
        """The coming hand, while contributions to its seed are taken: from its commitment
        (the countdown's start) until its deal; not during a hand or a pause."""
        if self.hand is not None or self.next_hand_at is None:
            return None
        return self.next_hand

    def describe(self) -> dict[str, Any]:
        seated = {c.user_id for c in self.connections} & {s.user_id for s in self.seats.values()}
        return {
            "hand_in_progress": self.hand is not None,
            "hand_number": self.hand.number if self.hand else None,
            "spectators": len({c.user_id for c in self.connections} - seated),
            "closing": self.closing,
        }

    # ------------------------------------------------------------------ play

    def _remember(self, user_id: int, client_id: str, version: int) -> None:
        self.client_ids[(user_id, client_id)] = version
        while len(self.client_ids) > REMEMBERED_CLIENT_IDS:
            self.client_ids.popitem(last=False)

    async def _act(self, connection: Connection, command: Act) -> dict[str, Any]:
        message = command.message
        key = (connection.user_id, message.id)
        if key in self.client_ids:
            return {"duplicate": True, "version": self.client_ids[key]}
        seat = self.seat_of_user(connection.user_id)
        if seat is None:
            raise ActionRefused("not_seated", "You are watching: take a seat to play.")
        action = self._canonical(seat, message)
        if self.hand is None:
            raise ActionRefused("no_hand", "No hand is being played at the moment.")
        if message.version is not None and message.version < self.game_version:
            raise ActionRefused(
                "stale_version",
                "The table moved on since your last update: look again and retry.",
                version=self.events.version,
            )
        version = await self._apply(action, connection.user_id, message.id, command.received)
        return {"version": version}

    def _contribute(self, connection: Connection, value: bytes) -> dict[str, Any]:
        """Take a seated player's random contribution to the coming hand's seed: one per
        member per hand, between the commitment and the deal. Everyone sees who has
        contributed (not the value, which is published with the deal)."""
        seat = self.seat_of_user(connection.user_id)
        if seat is None:
            raise ActionRefused(
                "not_seated", "You are watching: only seated players add to the deal."
            )
        pending = self._open_contributions()
        if pending is None:
            raise ActionRefused(
                "entropy_closed",
                "No deal is waiting: contributions are taken between a hand's commitment "
                "and its deal.",
            )
        if connection.user_id in pending.contributions:
            raise ActionRefused(
                "entropy_already_sent", "Your contribution to this deal has already been taken."
            )
        pending.contributions[connection.user_id] = value
        data = {"commitment": pending.commitment}
        self._broadcast(self._publish([Event("contributed", seat, data)]))
        return data

    def _canonical(self, seat: int, message: ActionIn) -> Action:
        """The action in the one form the hand history stores, read by the same parser
        that replays it: a field this kind of action does not take (a card on a
        declaration, an amount on a card) is refused here, so every stored hand replays."""
        assert self.table is not None
        fields = message.model_dump(include={"action", "card", "cards", "amount"})
        given = {"seat": seat, **{k: v for k, v in fields.items() if v is not None}}
        try:
            return table_log.GAMES[self.table.game].parse_action(given, "action")
        except MalformedLog as error:
            field = error.path.removeprefix("action").lstrip(".") or "action"
            raise ActionRefused(
                "invalid_message", f"Invalid message: {field}: {error.message}", field=field
            ) from None

    async def _apply(
        self,
        action: Action,
        user_id: int | None,
        client_id: str | None,
        received: float | None = None,
        *,
        timed_out: bool = False,
    ) -> int:
        """Verify and apply one action, store it, then tell everyone. `timed_out`: the
        turn timer acted for the seat, and everyone is told so before what it did."""
        hand = self.hand
        assert hand is not None
        try:
            events = hand.live.game.apply(action)
        except EngineError as error:
            raise ActionRefused(error.code, error.message, **error.details) from None
        if timed_out:
            said = timeout_said(action)
            hand.timeouts.append((action.seat, said))
            events = [Event("timed_out", action.seat, said), *events]
        version = self.events.version + len(events)
        try:
            await self.writer.store(
                StoredAction(
                    hand_id=hand.row_id,
                    seq=hand.seq + 1,
                    action=action.to_dict(),
                    client_id=client_id,
                    user_id=user_id,
                    version=version,
                )
            )
        except Exception:
            # The engine moved but the database did not: go back to what is stored.
            log.exception("table %s: could not store an action; reloading", self.table_id)
            self.hand = None
            self.turn_deadline = None
            await self._load()
            raise ActionRefused(
                "storage_unavailable", "The action could not be saved; please try again."
            ) from None
        hand.seq += 1
        if client_id is not None and user_id is not None:
            self._remember(user_id, client_id, version)
        self.game_version = version
        self._broadcast(self._publish(events), received)
        if hand.live.game.is_over:
            await self._finish_hand()
        else:
            self._restart_turn_timer()
        return version

    def _restart_turn_timer(self) -> None:
        assert self.table is not None
        if self.hand is None or self.hand.live.game.is_over:
            self.turn_deadline = None
            return
        self.turn_deadline = self.clock.now() + self.table.turn_seconds

    async def _on_timer(self) -> None:
        now = self.clock.now()
        if self.turn_deadline is not None and now >= self.turn_deadline and self.hand:
            hand = self.hand
            for seat in hand.live.game.to_act():
                if self.hand is not hand or hand.live.game.is_over:
                    break
                assert hand.timed_out is not None
                hand.timed_out.add(seat)
                await self._apply(hand.live.timeout_action(seat), None, None, timed_out=True)
        if self.next_hand_at is not None and now >= self.next_hand_at:
            self.next_hand_at = None
            await self._start_hand()

    # ------------------------------------------------------------------ hands

    def _eligible(self) -> list[int]:
        return [
            n for n, s in self.seats.items() if s.stack > 0 and not s.sitting_out and not s.leaving
        ]

    def _schedule_next_hand(self) -> None:
        assert self.table is not None
        if (
            self.hand is None
            and self.next_hand_at is None
            and not self.closing
            and self.table.status == TableStatus.OPEN
            and len(self._eligible()) >= 2
        ):
            self.next_hand_at = self.clock.now() + self.settings.next_hand_seconds
            # Committed now, before any contribution can arrive (docs/fair-shuffle.md).
            self.next_hand = _NextHand.draw()

    def _take_next_hand(self) -> tuple[_NextHand, dict[int, bytes]]:
        """The committed server seed for the hand being dealt (a fresh one if no countdown
        led here) and its contributions by seat, the seats as they are at the deal. A
        contributor who has left the table since is not counted; the round is used once."""
        pending = self.next_hand or _NextHand.draw()
        self.next_hand = None
        by_seat: dict[int, bytes] = {}
        for user_id, value in pending.contributions.items():
            seat = self.seat_of_user(user_id)
            if seat is not None:
                by_seat[seat] = value
        return pending, by_seat

    async def _start_hand(self) -> None:
        assert self.table is not None and self.driver is not None
        if self.hand is not None or self.table.status != TableStatus.OPEN or self.closing:
            self.next_hand = None
            return
        if not self.table.session_state:  # nothing dealt yet at this table
            await self._seat_for_first_hand()
        table = self.table
        stacks = [self.seats[n].stack if n in self.seats else 0 for n in range(table.seat_count)]
        away = sorted(n for n, s in self.seats.items() if s.sitting_out or s.leaving)
        pending, by_seat = self._take_next_hand()
        seed = mixed_seed(pending.server_seed, by_seat)
        contributions = contributions_to_hex(by_seat)
        try:
            live = self.driver.deal(self.rules, stacks, self.pot, table.session_state, seed, away)
        except EngineError as error:
            log.info("table %s: no hand dealt: %s", self.table_id, error.message)
            return
        names = self._names()
        pledge = pending.commitment
        header = {
            "format": "salon.table-log/1",
            "game": table.game,
            "rules": table.rules,
            "seats": [{"name": names[n], "stack": stacks[n]} for n in range(table.seat_count)],
            "pot": self.pot,
            **self.driver.header(table.session_state),
        }
        players = {n: s.user_id for n, s in self.seats.items()}
        number = table.hands_played + 1
        opening = [
            Event(
                "new_hand",
                None,
                {
                    "number": number,
                    "commitment": pledge,
                    "dealer": live.dealer,
                    "contributions": contributions,
                },
            ),
            *live.start_events,
        ]
        version = self.events.version + len(opening)
        async with self.db.transaction() as session:
            row = await hand_store.begin_hand(
                session,
                table_id=self.table_id,
                number=number,
                seed_hex=seed_to_hex(seed),
                commitment=pledge,
                server_seed_hex=seed_to_hex(pending.server_seed),
                contributions=contributions,
                header=header,
                players={
                    "users": {str(k): v for k, v in players.items()},
                    "sitting_out": away,
                    "state": table.session_state,
                },
                version=version,
            )
        self.hand = _Hand(
            row_id=row.id,
            number=number,
            seed=seed,
            commitment=pledge,
            server_seed=pending.server_seed,
            contributions=contributions,
            live=live,
            players=players,
            stacks_before=stacks,
            pot_before=self.pot,
            timed_out=set(),
        )
        self.game_version = version
        self.last_result = None
        self._broadcast(self._publish(opening))
        if live.game.is_over:
            await self._finish_hand()
        else:
            self._restart_turn_timer()

    async def _seat_for_first_hand(self) -> None:
        """Before a table's first hand, seat its players by the game's rule (Bouillotte's
        ``seating``, rules/bouillotte.md §1): they may move among the seats they took, and
        the first dealer is chosen. Only seat numbers change (a stack is the ledger account
        of the table and the member, whatever the seat). The first button is stored in the
        table's session state in the same transaction, so the seating happens once."""
        assert self.table is not None and self.driver is not None
        eligible = set(self._eligible())
        async with self.db.transaction() as session:
            rows = [r for r in await _seat_rows(session, self.table_id) if r.seat_no in eligible]
            rows.sort(key=lambda r: (r.joined_at, r.id))
            seating = self.driver.first_seating(self.rules, [r.seat_no for r in rows], new_seed())
            if seating is None:
                return
            # A seat number is unique at a table: leave every seat before taking the new ones.
            for row in rows:
                row.seat_no = -1 - row.seat_no
            await session.flush()
            for row in rows:
                row.seat_no = seating.moves[-1 - row.seat_no]
            table = await table_service.get_table(session, self.table_id)
            table.session_state = {"button": seating.dealer}
            await session.flush()
            await self._reload_seats(session)
        self.table = table
        if seating.drawn:
            seats = [
                {"seat": seat, "name": self.seats[seat].display_name, "card": card}
                for seat, card in seating.drawn.items()
            ]
            data = {"dealer": seating.dealer, "seats": seats}
            self._broadcast(self._publish([Event("seats_drawn", None, data)]))

    def _names(self) -> list[str]:
        """Unique table-log names: the member's username, or a placeholder for an empty seat."""
        assert self.table is not None
        return [
            self.seats[n].username if n in self.seats else f"empty-{n}"
            for n in range(self.table.seat_count)
        ]

    async def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and self.table is not None
        names = self._names_at_deal(hand)
        outcome = hand.live.finish(names)
        report = {
            "number": hand.number,
            "hand_id": hand.row_id,
            **outcome.report,
            # Who let the clock run out, and what the timer did for them.
            "timeouts": [{"player": names[seat], **said} for seat, said in hand.timeouts],
            # What a player needs to check the deal (docs/fair-shuffle.md): the seed, the
            # committed server seed and the contributions mixed into it.
            "seed": seed_to_hex(hand.seed),
            "server_seed": seed_to_hex(hand.server_seed) if hand.server_seed else None,
            "contributions": hand.contributions,
        }
        version = self.events.version + 1  # the hand_over event below
        timed_out = hand.timed_out or set()
        async with self.db.transaction() as session:
            reveal = await hand_store.reveals_each_hand(session)
            await hand_store.settle_hand(
                session,
                hand_store.Settlement(
                    table_id=self.table_id,
                    hand_id=hand.row_id,
                    players=hand.players,
                    stacks_before=hand.stacks_before,
                    stacks_after=outcome.stacks,
                    pot_before=hand.pot_before,
                    pot_after=outcome.pot,
                    entry=outcome.entry,
                    result=report,
                    next_state=outcome.state,
                    version=version,
                    dealt_in=hand.live.dealt_in,
                ),
                reveal=reveal,
            )
            display = await _display_names(session, hand.players, names)
            await self._after_hand_seats(session, hand, timed_out)
            table = await table_service.get_table(session, self.table_id)
            await self._reload_seats(session)
        # Until the reveal, the seed (which derives every hidden card) stays in the database.
        shown = report if reveal else public_report(report)
        # The report names players by username; the table shows display names, even of
        # those who have left the table since.
        shown = {**shown, "names": display}
        closing_events = [Event("hand_over", None, shown)]
        self.table = table
        self.pot = outcome.pot
        self.hand = None
        self.turn_deadline = None
        self.game_version = version
        self.last_result = shown
        # Scheduled before the broadcast, so the result frames already carry the countdown.
        if not self.closing:
            self._schedule_next_hand()
        self._broadcast(self._publish(closing_events))
        if self.closing:
            await self._close(self.closing_by)

    def _names_at_deal(self, hand: _Hand) -> list[str]:
        names = self._names()
        # Seats emptied during the hand keep the name they were dealt under.
        for seat, user_id in hand.players.items():
            if seat not in self.seats or self.seats[seat].user_id != user_id:
                names[seat] = f"player-{user_id}"
        return names

    async def _after_hand_seats(self, session: Any, hand: _Hand, timed_out: set[int]) -> None:
        """Timer bookkeeping (two timed-out hands in a row sit a player out) and the players
        who asked to stand up: their stacks go back to their balances now."""
        assert self.table is not None
        for seat in await _seat_rows(session, self.table_id):
            if hand.players.get(seat.seat_no) == seat.user_id:
                dealt = seat.seat_no in hand.live.dealt_in
                if seat.seat_no in timed_out:
                    seat.timed_out_hands += 1
                    if seat.timed_out_hands >= TIMEOUTS_BEFORE_SIT_OUT:
                        seat.sitting_out = True
                elif dealt and not seat.sitting_out:
                    seat.timed_out_hands = 0
            if seat.leaving:
                await table_service.stand_up(session, self.table, seat.user_id)
        await self._end_session_if_empty(session)

    async def _end_session_if_empty(self, session: Any) -> None:
        """The last player has left: the table's session ends and its seeds are revealed."""
        if not await _seat_rows(session, self.table_id):
            await hand_store.end_session(session, self.table_id)

    # ------------------------------------------------------------------ seats

    def _in_hand(self, user_id: int) -> bool:
        """Whether this member's chips are at stake in the running hand (dealt in, even if
        they have since passed or folded: the settlement still moves their chips)."""
        hand = self.hand
        seat = self.seat_of_user(user_id)
        return (
            hand is not None
            and seat is not None
            and hand.players.get(seat) == user_id
            and seat in hand.live.dealt_in
        )

    async def _sit(self, command: Sit) -> table_service.Reply:
        assert self.table is not None
        if self.closing or self.table.status == TableStatus.CLOSED:
            raise Conflict("table_closed", "This table is closing.")
        async with self.db.transaction() as session:
            user = await session.get(User, command.user_id)
            if user is None:
                raise NotFound("member_not_found", "No such member.")
            await holdings.clear_before_sitting(session, self.table_id, user.id)
            reply = await table_service.take_seat(
                session, self.table, user, command.seat_no, command.buy_in, command.request_key
            )
            await self._reload_seats(session)
        if not reply.replayed:
            self._seats_changed("seated", reply.answer["seat"])
        return reply

    async def _top_up(self, command: TopUp) -> table_service.Reply:
        assert self.table is not None
        if self._in_hand(command.user_id):
            raise Conflict("hand_in_progress", "You can top up when your hand is over.")
        async with self.db.transaction() as session:
            user = await session.get(User, command.user_id)
            assert user is not None
            reply = await table_service.top_up(
                session, self.table, user, command.amount, command.request_key
            )
            await self._reload_seats(session)
        if not reply.replayed:
            self._seats_changed("topped_up", self.seat_of_user(command.user_id))
        return reply

    async def _sit_out(self, user_id: int, away: bool) -> dict[str, Any]:
        async with self.db.transaction() as session:
            seat = await table_service.seat_of(session, self.table_id, user_id)
            seat.sitting_out = away
            if not away:
                seat.timed_out_hands = 0
            await session.flush()
            await self._reload_seats(session)
        self._seats_changed("sitting_out" if away else "back", self.seat_of_user(user_id))
        return {"sitting_out": away}

    async def _stand(self, user_id: int) -> dict[str, Any]:
        assert self.table is not None
        if self._in_hand(user_id):
            async with self.db.transaction() as session:
                seat = await table_service.seat_of(session, self.table_id, user_id)
                seat.leaving = True
                await session.flush()
                await self._reload_seats(session)
            self._seats_changed("leaving", self.seat_of_user(user_id))
            return {"left": False, "after_hand": True}
        seat_no = self.seat_of_user(user_id)
        async with self.db.transaction() as session:
            returned = await table_service.stand_up(session, self.table, user_id)
            await self._end_session_if_empty(session)
            await self._reload_seats(session)
        self._seats_changed("left", seat_no)
        return {"left": True, "returned": returned}

    def _seats_changed(self, kind: str, seat: int | None) -> None:
        self._schedule_next_hand()
        self._broadcast(self._publish([Event(kind, seat, {})]))

    async def _set_status(self, status: str, by_admin: int | None) -> dict[str, Any]:
        assert self.table is not None
        wanted = TableStatus(status)
        if self.table.status == TableStatus.CLOSED:
            raise Conflict("table_closed", "This table is closed.")
        if wanted == TableStatus.CLOSED:
            if self.hand is not None:
                self.closing = True
                self.closing_by = by_admin
                self.next_hand_at = None
                self._broadcast(self._publish([Event("closing", None, {})]))
                return {"status": "closing"}
            await self._close(by_admin)
            return {"status": "closed"}
        async with self.db.transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            await table_service.set_status(session, table, wanted, by_admin=by_admin)
        self.table = table
        if wanted == TableStatus.PAUSED:
            self.next_hand_at = None
        self._schedule_next_hand()
        self._broadcast(self._publish([Event(str(wanted), None, {})]))
        return {"status": str(wanted)}

    async def _edit(self, command: EditTable) -> dict[str, Any]:
        assert self.driver is not None
        async with self.db.transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            user = await session.get(User, command.user_id)
            assert user is not None
            dealt = self.hand is not None or bool(table.session_state)
            await table_service.edit_table(session, user, table, command.edit, dealt=dealt)
        self.table = table
        self.rules = self.driver.parse_rules(table.rules)
        return {"id": table.id}

    async def _close(self, by_admin: int | None) -> None:
        """Return every stack, and the pot to those who paid into it, then close."""
        async with self.db.transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            await table_service.return_pot(session, table)
            for seat in list(self.seats.values()):
                await table_service.stand_up(session, table, seat.user_id)
            await hand_store.end_session(session, self.table_id)
            await table_service.set_status(session, table, TableStatus.CLOSED, by_admin=by_admin)
            await self._reload_seats(session)
        self.table = table
        self.pot = 0
        self.closing = False
        self.next_hand_at = None
        self._broadcast(self._publish([Event("closed", None, {})]))

    # ------------------------------------------------------------------ chat

    async def _chat(self, connection: Connection, text: str) -> None:
        async with self.db.transaction() as session:
            user = await session.get(User, connection.user_id)
            if user is None:
                raise NotFound("member_not_found", "No such member.")
            moderation.check_may_chat(await moderation.muted_until(session, user.id))
            message = await hand_store.add_chat(session, self.table_id, user, text)
            name = user.display_name
        frame = _chat_frame(message.id, name, text, message.created_at)
        for c in self.connections:
            c.send(frame)

    def _chat_removed(self, command: ChatRemoved) -> None:
        frame = _chat_frame(command.message_id, command.name, "", command.at, removed=True)
        for c in self.connections:
            c.send(frame)


def _chat_frame(
    message_id: int, name: str, text: str, at: datetime, *, removed: bool = False
) -> bytes:
    """A chat line's frame; a removed line's never carries its text."""
    if removed:
        return ChatOut(
            id=message_id, user=name, text=moderation.REMOVED_TEXT, at=at.isoformat(), removed=True
        ).frame()
    return ChatOut(id=message_id, user=name, text=text, at=at.isoformat()).frame()


def _encode_event(version: int, kind: str, data: Mapping[str, Any]) -> bytes:
    return event_frame(version, kind, dict(data))


async def _display_names(session: Any, players: dict[int, int], names: list[str]) -> dict[str, str]:
    """The display name of each player seated at the deal, by the name the report uses."""
    users = {
        user.id: user.display_name
        for user in (
            await session.scalars(select(User).where(User.id.in_(set(players.values()))))
        ).all()
    }
    return {names[seat]: users[uid] for seat, uid in players.items() if uid in users}


async def _seat_rows(session: Any, table_id: int) -> list[TableSeat]:
    return list(
        (await session.scalars(select(TableSeat).where(TableSeat.table_id == table_id))).all()
    )


__all__ = ["ActionRefused", "ActorGone", "RuntimeSettings", "TableActor"]
