"""One actor per live table: an asyncio task that owns the table and handles its commands
one at a time (DESIGN.md, "Table runtime").

The table's state and every decision about it live in `TableCore` (app/tables/table.py),
which does no I/O. The actor is the shell around it: its queue and loop, the clock (the
core is handed `now`), persistence through app/services, and the connections, which it
sends the frames the WebSocket layer encodes. Persistence is write-ahead: an accepted
action is committed to the database before any client hears of it, and a hand's end
(history, settlement, chips) is one transaction. On start the actor rebuilds a hand left
running by a previous process from its seed and stored actions.

Fair dealing (docs/fair-shuffle.md): when the countdown to the next hand starts, the core
draws that hand's server seed and shows its commitment at once; seated players' browsers
then send random contributions, and the hand is dealt from the server seed mixed with
them. The commitment binds the server before it sees any contribution.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from app.bots.base import Decision, legal_choices
from app.bots.levels import brain
from app.bots.player import BotPlayer, Observer, Thinking
from app.engine.base import Action, EngineError
from app.engine.registry import driver
from app.engine.rng import seed_to_hex
from app.errors import Conflict, SalonError
from app.i18n import _, use_language
from app.security.tokens import new_token
from app.services import bots as bot_service
from app.services import fencing, holdings, ledger, moderation
from app.services import hands as hand_store
from app.services import tables as table_service
from app.services.action_writer import ActionRecord, ActionWriter
from app.services.fencing import TableMoved
from app.services.hand_replay import action_from_log
from app.services.hand_results import public_report
from app.services.outage import is_storage_failure
from app.tables import replays
from app.tables.clock import Clock
from app.tables.commands import (
    Act,
    Chat,
    ChatRemoved,
    Command,
    Connection,
    Contribute,
    DealNow,
    Describe,
    EditTable,
    Encoders,
    Join,
    Leave,
    RemoveBot,
    Resync,
    SeatBot,
    SetBotFill,
    SetStatus,
    Sit,
    SitOut,
    Stand,
    Stop,
    Suggest,
    TopUp,
)
from app.tables.events import LoggedEvent, first_version
from app.tables.latency import BroadcastTracker, LatencyRecorder
from app.tables.refusal_words import in_players_words
from app.tables.refusals import RefusedWrites
from app.tables.table import (
    CLOSED,
    STATUSES,
    TIMEOUTS_BEFORE_SIT_OUT,
    ActionRefused,
    ActionRequest,
    Applied,
    Duplicate,
    StoredAction,
    TableCore,
)
from app.tables.values import SeatInfo

if TYPE_CHECKING:  # types only: the runtime reaches the database through app/services
    from sqlalchemy.ext.asyncio import AsyncSession

    from app.db.models import GameTable
    from app.db.session import Database

log = logging.getLogger(__name__)

# What a command that changes the seats answers (a reply, or a dict).
Answer = TypeVar("Answer")

# The level whose play a practice table's "suggest" shows.
SUGGESTING_LEVEL = "club"
# Chat lines a freshly opened table page is sent.
CHAT_HISTORY = 30
# Close code of a socket whose table moved to another process ("service restart"): its
# page reconnects, and reaches the table where it is now.
CLOSE_TABLE_MOVED = 1012
# While the database does not answer, the table is read back again after this pause, which
# doubles after each failed try up to the longest: play resumes within a couple of seconds
# of the database's return, and a long outage costs a read every two seconds per table.
STORAGE_RETRY_FIRST_SECONDS = 0.25
STORAGE_RETRY_LONGEST_SECONDS = 2.0


class StorageUnavailable(ActionRefused):
    """Refused, changing nothing, while the table's database does not answer (play is
    paused): the same request succeeds once it answers again."""

    status_code = 503

    def __init__(self) -> None:
        super().__init__(
            "storage_unavailable",
            _("The club's database is not answering: play is paused and resumes by itself."),
        )


@dataclass(frozen=True, slots=True)
class RuntimeSettings:
    next_hand_seconds: float = 4.0
    gathering_seconds: float = 12.0
    # How long computer players take over a decision.
    bot_thinking: Thinking = field(default_factory=Thinking)


class ActorGone(SalonError):
    status_code = 503

    def __init__(self, table_id: int) -> None:
        super().__init__("table_unavailable", _("This table is restarting; try again shortly."))
        self.table_id = table_id


class TableActor:
    def __init__(
        self,
        table_id: int,
        db: Database,
        clock: Clock,
        settings: RuntimeSettings,
        latency: LatencyRecorder,
        encoders: Encoders,
        writer: ActionWriter,
        epoch: int,
        *,
        fenced: bool = False,
        refused: RefusedWrites | None = None,
    ) -> None:
        self.table_id = table_id
        # This run of the table: the fencing token raised as it started. Its event versions
        # carry it, so that no version is ever shown for two events (app/tables/events.py).
        self.epoch = epoch
        # The token every write checks when several processes serve the club
        # (app/services/fencing.py); None in a single process, which owns every table.
        self.fence = epoch if fenced else None
        self.db = db
        # Stores accepted actions, many tables' in one commit (group commit).
        self.writer = writer
        self.clock = clock
        self.settings = settings
        self.latency = latency
        # Counted for /metrics, with the other tables' of this process.
        self.refused = refused if refused is not None else RefusedWrites()
        self.encoders = encoders
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.connections: set[Connection] = set()
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.load_error: Exception | None = None
        # The stored table as last read, for the services that take one.
        self.table: GameTable | None = None
        self._core: TableCore | None = None
        # The computer players seated here, by member id, each with its connection.
        self.bots: dict[int, BotPlayer] = {}
        # Told of every bot decision with the view it was made from (tests watch it).
        self.bot_observer: Observer | None = None
        # People waiting for a seat a bot gives up when the hand ends: seat -> request.
        self.seat_wanted: dict[int, Sit] = {}
        # The answer of the command being handled, once its own change is stored (in a
        # one-item tuple: any answer, None too); None before that.
        self._answer_stored: tuple[Any] | None = None
        # While the database does not answer: when the table is next read back (None: it
        # answers), and the pause before the try after that.
        self.storage_retry_at: float | None = None
        self._storage_pause = STORAGE_RETRY_FIRST_SECONDS

    # ------------------------------------------------------------------ the core's state

    @property
    def core(self) -> TableCore:
        """The table's state and rules; there once the table is loaded."""
        assert self._core is not None, "the table is not loaded"
        return self._core

    def _connected(self) -> set[int]:
        return {c.user_id for c in self.connections}

    def view(self, seat: int | None) -> dict[str, Any]:
        """What one viewer sees of the table (see TableCore.view)."""
        return self.core.view(seat, self.clock.now(), self._connected())

    def describe(self) -> dict[str, Any]:
        return self.core.describe(self._connected())

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")

    def give_up(self) -> None:
        """Another process owns this table now: stop at once, writing nothing more, and
        close the sockets so that their pages reconnect to the table where it is."""
        self._moved()
        if self.task is not None and not self.task.done():
            self.task.cancel()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncSession]:
        """A transaction for this table's work; when several processes serve the club, it
        first checks that this one still owns the table (TableMoved otherwise)."""
        async with self.db.transaction() as session:
            if self.fence is not None:
                await fencing.check(session, self.table_id, self.fence)
            yield session

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
            deadline = (
                self.storage_retry_at
                if self.storage_retry_at is not None
                else self.core.next_deadline()
            )
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
                    self._stop_bots()
                    self._reply(command, None)
                    return
                try:
                    await self._handle(command)
                except TableMoved:
                    self.refused.fenced += 1
                    self._moved()
                    return
            else:
                try:
                    if self.storage_retry_at is not None:
                        await self._read_back()
                    else:
                        await self._on_timer()
                except TableMoved:
                    self.refused.fenced += 1
                    self._moved()
                    return
                except Exception as error:  # a failed timer step must not stop the table
                    if is_storage_failure(error):
                        self._storage_failed(error)
                    elif self.storage_retry_at is None:
                        log.exception("table %s: timer step failed", self.table_id)
            self._flush_closed()

    def _moved(self) -> None:
        """Serve the table no more here (the refused write was logged where it was refused)."""
        self._stop_bots()
        for connection in list(self.connections):
            connection.end(CLOSE_TABLE_MOVED)

    # ------------------------------------------------------------------ the database away

    def _storage_failed(self, error: BaseException) -> None:
        """The database did not answer a write or a read: pause the table. What the engine
        did past the stored state is forgotten (nobody heard of it: write-ahead), actions are
        refused, the timers stop, and the table is read back once the database answers
        again (`_read_back`). Everyone watching is told at once."""
        if self.storage_retry_at is None:
            self.refused.storage += 1  # the write that found it away (not each retry)
            log.warning("table %s: the database is not answering (%s)", self.table_id, error)
            self._storage_pause = STORAGE_RETRY_FIRST_SECONDS
            frame = self.encoders.storage(False)
            for connection in list(self.connections):
                connection.send(frame)
            # Bots decided on views that may be gone: fresh ones start from the table
            # read back.
            self._stop_bots()
        if self._core is not None:
            self._core.drop_hand()
            self._core.stop_countdown()
        self.storage_retry_at = self.clock.now() + self._storage_pause

    async def _read_back(self) -> None:
        """Read the table back after the database failed; on success play resumes from
        what is stored (a turn's time starts again), and every viewer gets its view."""
        try:
            await self._load()
        except TableMoved:
            raise
        except Exception as error:
            if not is_storage_failure(error):
                log.exception("table %s: could not read the table back", self.table_id)
            self._storage_pause = min(self._storage_pause * 2, STORAGE_RETRY_LONGEST_SECONDS)
            self._storage_failed(error)
            return
        self.storage_retry_at = None
        log.warning("table %s: the database answers again; play resumes", self.table_id)
        frame = self.encoders.storage(True)
        for connection in list(self.connections):
            connection.send(frame)
            connection.send(self._snapshot_for(self.core.seat_of_user(connection.user_id)))

    def _refuse_while_storage_down(self, command: Command) -> None:
        """While the table waits for its database, only what needs no database goes on:
        leaving, the lobby's summary, stopping. A page (re)opening is refused too (its
        socket retries): the table has no state to show it until it is read back."""
        if self.storage_retry_at is not None and not isinstance(command, (Leave, Describe)):
            self.refused.storage += 1
            raise StorageUnavailable()

    async def _load(self) -> None:
        """Read the table back from the database (at start, and after an action could not
        be stored), and rebuild a hand left running."""
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            seats = await table_service.seats_of(session, self.table_id)
            pot = await ledger.balance_of(session, table_service.pot_key(self.table_id))
            running = await hand_store.running_hand(session, self.table_id)
            stored = await hand_store.actions_of(session, running.id) if running else []
            game_version = await hand_store.last_version(session, table)
        self.table = table
        info = table_service.table_info(table)
        if self._core is None:
            self._core = TableCore(
                info,
                seats,
                pot=pot,
                version=first_version(self.epoch),
                game_version=game_version,
                encode=self.encoders.event,
                next_hand_seconds=self.settings.next_hand_seconds,
                gathering_seconds=self.settings.gathering_seconds,
            )
        else:
            self._core.reload(info, seats, pot=pot, game_version=game_version)
        core = self.core
        if running is not None:
            core.restore(
                row_id=running.id,
                number=running.number,
                seed_hex=running.seed,
                commitment=running.commitment,
                server_seed_hex=running.server_seed,
                contributions=running.contributions,
                header=running.header,
                players=running.players,
                actions=[
                    StoredAction(
                        action_from_log(row.action), row.user_id, row.client_id, row.table_version
                    )
                    for row in stored
                ],
                now=self.clock.now(),
            )
            if core.hand_over:  # killed between the last action and the settlement
                await self._finish_hand()
        core.schedule_next_hand(self.clock.now())
        self._sync_bots()
        await self._fill_seats()

    def _set_table(self, table: GameTable) -> None:
        self.table = table
        self.core.set_table(table_service.table_info(table))

    # ------------------------------------------------------------------ dispatch

    def _reply(self, command: Command, value: Any) -> None:
        if not command.reply.done():
            command.reply.set_result(value)

    def _fail(self, command: Command, error: Exception) -> None:
        if not command.reply.done():
            command.reply.set_exception(error)

    async def _handle(self, command: Command) -> None:
        self._answer_stored = None
        # The command's refusals in the asker's language; what is broadcast stays free of
        # words (codes and numbers), so whichever language is set here reaches nobody else.
        use_language(command.language)
        try:
            self._refuse_while_storage_down(command)
            result = await self._dispatch(command)
        except TableMoved as error:  # this process must stop serving the table
            if self._answer_stored is not None:
                # The command's own change was stored before the table was lost: it is
                # done, and answered so (see _fill_seats_after).
                self._reply(command, self._answer_stored[0])
            else:
                self._fail(command, error)
            raise
        except SalonError as error:
            self._fail(command, in_players_words(error))
        except Exception as error:  # never let one command kill the table
            if is_storage_failure(error):
                self._storage_failed(error)
                self._fail(command, StorageUnavailable())
            else:
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
            raise ActionRefused("connection_closed", _("This connection has been closed."))
        if (replay := await self._stored_reply(command)) is not None:
            return replay
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
            case DealNow():
                self._broadcast(self.core.deal_now(command.connection.user_id, self.clock.now()))
                return None
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
            case SeatBot():
                return await self._seat_bot(command)
            case RemoveBot():
                return await self._remove_bot(command)
            case SetBotFill():
                return await self._set_bot_fill(command)
            case Suggest():
                return self._suggest(command.connection)
        raise AssertionError(f"unknown command {command!r}")

    async def _stored_reply(self, command: Command) -> table_service.Reply | None:
        """A keyed command's earlier answer, looked for before any check of the table's
        state (app.tables.replays): a retry queued behind its first request hears it."""
        if replays.keyed(self.table_id, command) is None:
            return None
        async with self._transaction() as session:
            return await replays.stored_reply(session, self.table_id, command)

    # ------------------------------------------------------------------ viewers

    async def _join(self, connection: Connection, version: int | None) -> None:
        """A new socket: the missed events (a reconnect) or the whole view (a page just
        opened, which also gets the table's recent chat: a reconnecting page has it)."""
        self.core.check_may_watch(connection.user_id)
        if version is not None:
            self.connections.add(connection)
            self._catch_up(connection, version)
        else:
            # Read before the connection is added: if this fails, nothing is left behind.
            async with self._transaction() as session:
                recent = await hand_store.recent_chat(session, self.table_id, CHAT_HISTORY)
            self.connections.add(connection)
            connection.send(self._snapshot_for(self.core.seat_of_user(connection.user_id)))
            for message, name in recent:
                connection.send(
                    self._chat_frame(
                        message.id,
                        name,
                        message.text,
                        message.created_at,
                        removed=message.removed_at is not None,
                    )
                )
        # Every (re)connection rebuilds the page's log of the hand in play.
        connection.send(self.encoders.hand_log(self.core.hand_log(connection.user_id)))
        self._presence_changed(connection.user_id, joined=True)

    def _leave(self, connection: Connection) -> None:
        if connection not in self.connections:
            return
        self.connections.discard(connection)
        self._presence_changed(connection.user_id, joined=False)

    def _presence_changed(self, user_id: int, *, joined: bool) -> None:
        sockets = sum(1 for c in self.connections if c.user_id == user_id)
        logged = self.core.presence_changed(user_id, sockets, joined=joined)
        if logged:
            self._broadcast(logged)

    def _catch_up(self, connection: Connection, version: int) -> None:
        seat = self.core.seat_of_user(connection.user_id)
        for event in self.core.missed(version, seat):
            connection.send(event.frame)
        connection.send(self._snapshot_for(seat))

    def _public_part(self) -> bytes:
        """The encoded part of a snapshot that every viewer shares."""
        return self.encoders.public(self.core.public_view(self.clock.now(), self._connected()))

    def _snapshot_for(self, seat: int | None, public: bytes | None = None) -> bytes:
        """`seat`'s snapshot, from the shared part if a broadcast has already encoded it."""
        shared = public if public is not None else self._public_part()
        return self.encoders.snapshot(
            self.core.events.version, shared, self.core.private_view(seat)
        )

    def _flush_closed(self) -> None:
        """Drop the connections ended since (a slow reader, a login that ended), as if
        their sockets had left."""
        for connection in [c for c in self.connections if c.closed]:
            self._leave(connection)

    def _broadcast(self, logged: list[LoggedEvent], received: float | None = None) -> None:
        """Send each connection the new events it may see, then its view. The public part
        of the view is built and encoded once; each seat's own part is added to it once per
        seat (and once for all spectators), not per socket. `received`: when the action
        that caused this arrived; the seated players' snapshots then carry a tracker that
        records when the last of them has gone out."""
        core = self.core
        snapshots: dict[int | None, bytes] = {}
        public: bytes | None = None
        tracker = (
            BroadcastTracker(self.latency, received, self.table_id)
            if received is not None
            else None
        )
        for connection in list(self.connections):
            seat = core.seat_of_user(connection.user_id)
            for event in logged:
                if event.visible_to(seat):
                    connection.send(event.frame)
            if seat not in snapshots:
                if public is None:
                    public = self._public_part()
                snapshots[seat] = self._snapshot_for(seat, public)
            tagged = tracker if seat is not None else None
            if connection.send(snapshots[seat], tagged) and tagged is not None:
                tagged.pending += 1

    # ------------------------------------------------------------------ play

    async def _act(self, connection: Connection, command: Act) -> dict[str, Any]:
        request = command.message
        checked = self.core.check_action(connection.user_id, request)
        if isinstance(checked, Duplicate):
            return {"duplicate": True, "version": checked.version}
        version = await self._apply(checked, connection.user_id, request.id, command.received)
        return {"version": version}

    def _contribute(self, connection: Connection, value: bytes) -> dict[str, Any]:
        data, logged = self.core.contribute(connection.user_id, value)
        self._broadcast(logged)
        return data

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
        turn timer acted for the seat."""
        core = self.core
        applied = core.apply(action, timed_out=timed_out)
        try:
            await self._store_action(applied, user_id, client_id)
        except TableMoved:
            raise  # not stored, and never will be here: the table is served elsewhere
        except Exception as error:
            # The engine moved but the database did not: the table pauses and goes back
            # to what is stored as soon as it can be read.
            if not is_storage_failure(error):
                log.exception("table %s: could not store an action", self.table_id)
            self._storage_failed(error)
            raise StorageUnavailable() from None
        self._broadcast(core.commit(applied, user_id, client_id, self.clock.now()), received)
        if core.hand_over:
            await self._finish_hand()
        return applied.version

    async def _store_action(
        self, applied: Applied, user_id: int | None, client_id: str | None
    ) -> None:
        """Write one accepted action ahead of telling anyone about it: returns once it is
        committed, with other tables' actions of the same moment (group commit)."""
        await self.writer.store(
            ActionRecord(
                hand_id=applied.hand_id,
                seq=applied.seq,
                action=applied.action.to_dict(),
                client_id=client_id,
                user_id=user_id,
                version=applied.version,
                table_id=self.table_id,
                fence=self.fence,
            )
        )

    async def _on_timer(self) -> None:
        core = self.core
        now = self.clock.now()
        if core.turn_expired(now) and core.hand is not None:
            hand = core.hand
            for seat in hand.live.game.to_act():
                if core.hand is not hand or hand.live.game.is_over:
                    break
                await self._apply(core.time_out(seat), None, None, timed_out=True)
        if core.next_hand_due(now):
            await self._start_hand()

    # ------------------------------------------------------------------ hands

    async def _start_hand(self) -> None:
        core = self.core
        if not core.may_deal():
            return
        if core.first_hand:  # nothing dealt yet at this table
            await self._seat_for_first_hand()
        try:
            deal = core.deal()
        except EngineError as error:
            log.info("table %s: no hand dealt: %s", self.table_id, error.message)
            return
        async with self._transaction() as session:
            hand_id = await hand_store.begin_hand(
                session,
                table_id=self.table_id,
                number=deal.number,
                seed_hex=seed_to_hex(deal.seed),
                commitment=deal.pending.commitment,
                server_seed_hex=seed_to_hex(deal.pending.server_seed),
                contributions=deal.contributions,
                header=deal.header,
                players=deal.stored_players(),
                version=deal.version,
            )
        self._broadcast(core.begin_hand(deal, hand_id, self.clock.now()))
        if core.hand_over:
            await self._finish_hand()

    async def _seat_for_first_hand(self) -> None:
        """Before a table's first hand, seat its players by the game's rule (Bouillotte's
        ``seating``, rules/bouillotte.md §1): they may move among the seats they took, and
        the first dealer is chosen. The first button is stored in the table's session state
        in the same transaction, so the seating happens once."""
        core = self.core
        eligible = set(core.eligible())
        async with self._transaction() as session:
            joined = await table_service.seats_by_arrival(session, self.table_id, eligible)
            seating = core.first_seating(joined)
            if seating is None:
                return
            table = await table_service.reseat_for_first_hand(
                session, self.table_id, seating.moves, seating.dealer
            )
            seats = await table_service.seats_of(session, self.table_id)
        self._set_table(table)
        self._set_seats(seats)
        if seating.drawn:
            self._broadcast(core.seats_drawn(seating))

    async def _finish_hand(self) -> None:
        """Settle the finished hand in one transaction. The table decides what the hand
        changes at its seats and applies it once stored; the seats are read back only when
        someone stood up, and the players' display names only when one has left."""
        core = self.core
        assert self.table is not None
        end = core.end_hand()
        hand = end.hand
        after = core.seats_after_hand(end, sit_out_after=TIMEOUTS_BEFORE_SIT_OUT)
        display = core.display_names_at_deal(end)
        seats = None
        async with self._transaction() as session:
            reveal = await hand_store.settle_hand(
                session,
                hand_store.Settlement(
                    table_id=self.table_id,
                    hand_id=hand.row_id,
                    players=hand.players,
                    stacks_before=hand.stacks_before,
                    stacks_after=end.outcome.stacks,
                    pot_before=hand.pot_before,
                    pot_after=end.outcome.pot,
                    entry=end.outcome.entry,
                    result=end.report,
                    next_state=end.outcome.state,
                    version=end.version,
                    game=core.table.game,
                    rules=core.table.rules,
                    dealt_in=hand.live.dealt_in,
                ),
            )
            if display is None:
                display = await table_service.display_names(session, hand.players, end.names)
            await hand_store.after_hand_seats(session, self.table, after)
            if after.leaving:
                seats = await table_service.seats_of(session, self.table_id)
        # Until the reveal, the seed (which derives every hidden card) stays in the database.
        shown = end.report if reveal else public_report(end.report)
        # The report names players by username; the table shows display names, even of
        # those who have left the table since.
        shown = {**shown, "names": display}
        core.hand_settled(end, after)
        if seats is not None:
            self._set_seats(seats)
        self._broadcast(core.hand_finished(end, shown, self.clock.now()))
        if core.closing:
            await self._close(core.closing_by)
            return
        await self._take_wanted_seats()
        await self._fill_seats()

    # ------------------------------------------------------------------ seats

    async def _sit(self, command: Sit) -> table_service.Reply:
        assert self.table is not None
        core = self.core
        core.check_may_sit()
        bot = self._bot_giving_way(command)
        if bot is not None and core.in_hand(bot.user_id):
            # The bot plays its hand out; the seat is this person's as soon as it ends.
            async with self._transaction() as session:
                await table_service.mark_leaving(session, self.table_id, bot.user_id)
                seats = await table_service.seats_of(session, self.table_id)
            self.seat_wanted[bot.seat_no] = replace(command, seat_no=bot.seat_no)
            self._set_seats(seats)
            self._seats_changed("leaving", bot.seat_no)
            return table_service.Reply({"seat": bot.seat_no, "after_hand": True})
        async with self._transaction() as session:
            user = await table_service.member(session, command.user_id)
            if bot is not None:
                await table_service.stand_up(session, self.table, bot.user_id)
                command = replace(command, seat_no=bot.seat_no)
            await holdings.clear_before_sitting(session, self.table_id, user.id)
            reply = await table_service.take_seat(
                session, self.table, user, command.seat_no, command.buy_in, command.request_key
            )
            seats = await table_service.seats_of(session, self.table_id)
        self._set_seats(seats)
        if not reply.replayed:
            self._seats_changed("seated", reply.answer["seat"])
        return await self._fill_seats_after(reply)

    def _bot_giving_way(self, command: Sit) -> SeatInfo | None:
        """At a table that fills its seats with bots, the bot that gives its seat to a
        person asking for one: the bot in the seat asked for, or any bot when every seat
        is taken and none was named. None when the person sits without one leaving."""
        core = self.core
        if core.table.bot_fill is None or core.seat_of_user(command.user_id) is not None:
            return None
        seats = {s.seat_no: s for s in core.seats.values()}
        if command.seat_no is not None:
            asked = seats.get(command.seat_no)
            return asked if asked is not None and asked.bot_level is not None else None
        if len(seats) < core.table.seat_count:
            return None
        bots = [s for s in seats.values() if s.bot_level is not None and not s.leaving]
        # One not dealt in first, so that the person may sit at once.
        bots.sort(key=lambda s: (core.in_hand(s.user_id), s.seat_no))
        return bots[0] if bots else None

    async def _top_up(self, command: TopUp) -> table_service.Reply:
        assert self.table is not None
        self.core.check_may_top_up(command.user_id)
        async with self._transaction() as session:
            user = await table_service.member(session, command.user_id)
            reply = await table_service.top_up(
                session, self.table, user, command.amount, command.request_key
            )
            seats = await table_service.seats_of(session, self.table_id)
        self._set_seats(seats)
        if not reply.replayed:
            self._seats_changed("topped_up", self.core.seat_of_user(command.user_id))
        return reply

    async def _sit_out(self, user_id: int, away: bool) -> dict[str, Any]:
        async with self._transaction() as session:
            await table_service.set_sitting_out(session, self.table_id, user_id, away)
            seats = await table_service.seats_of(session, self.table_id)
        self._set_seats(seats)
        self._seats_changed("sitting_out" if away else "back", self.core.seat_of_user(user_id))
        return await self._fill_seats_after({"sitting_out": away})

    async def _stand(self, user_id: int) -> dict[str, Any]:
        assert self.table is not None
        if self.core.in_hand(user_id):
            async with self._transaction() as session:
                await table_service.mark_leaving(session, self.table_id, user_id)
                seats = await table_service.seats_of(session, self.table_id)
            self._set_seats(seats)
            self._seats_changed("leaving", self.core.seat_of_user(user_id))
            return {"left": False, "after_hand": True}
        seat_no = self.core.seat_of_user(user_id)
        async with self._transaction() as session:
            returned = await table_service.stand_up(session, self.table, user_id)
            await hand_store.end_session_if_empty(session, self.table_id)
            seats = await table_service.seats_of(session, self.table_id)
        self._set_seats(seats)
        self._seats_changed("left", seat_no)
        return await self._fill_seats_after({"left": True, "returned": returned})

    def _seats_changed(self, kind: str, seat: int | None) -> None:
        self._broadcast(self.core.seats_changed(kind, seat, self.clock.now()))

    async def _set_status(self, status: str, by_admin: int | None) -> dict[str, Any]:
        core = self.core
        if status not in STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        if core.table.status == CLOSED:
            raise Conflict("table_closed", _("This table is closed."))
        if status == CLOSED:
            if core.hand is not None:
                self._broadcast(core.start_closing(by_admin))
                return {"status": "closing"}
            await self._close(by_admin)
            return {"status": "closed"}
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            await table_service.set_status(session, table, status, by_admin=by_admin)
        self.table = table
        info = table_service.table_info(table)
        self._broadcast(core.status_set(info, self.clock.now()))
        return {"status": info.status}

    async def _edit(self, command: EditTable) -> dict[str, Any]:
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            user = await table_service.member(session, command.user_id)
            dealt = self.core.hand is not None or bool(table.session_state)
            await table_service.edit_table(session, user, table, command.edit, dealt=dealt)
        self._set_table(table)
        return {"id": table.id}

    async def _close(self, by_admin: int | None) -> None:
        """Return every stack, and the pot to those who paid into it, then close."""
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            await table_service.return_pot(session, table)
            for seat in list(self.core.seats.values()):
                await table_service.stand_up(session, table, seat.user_id)
            await hand_store.end_session(session, self.table_id)
            await table_service.set_status(session, table, CLOSED, by_admin=by_admin)
            seats = await table_service.seats_of(session, self.table_id)
        self.table = table
        self._broadcast(self.core.closed(table_service.table_info(table), seats))
        self._sync_bots()

    # ------------------------------------------------------------------ computer players

    def _set_seats(self, seats: list[SeatInfo]) -> None:
        self.core.set_seats(seats)
        self._sync_bots()

    def _sync_bots(self) -> None:
        """A player for each bot seated here, connected like a socket of its seat; the
        players of bots that stood up are stopped."""
        seated = {s.user_id: s for s in self.core.seats.values() if s.bot_level is not None}
        for user_id in [u for u in self.bots if u not in seated]:
            self.bots.pop(user_id).stop()
        for user_id, seat in seated.items():
            if user_id in self.bots:
                continue
            assert seat.bot_level is not None
            connection = Connection(user_id, seat.username)
            player = BotPlayer(
                connection,
                brain(self.core.table.game, seat.bot_level),
                self._bot_acts,
                self.clock,
                self.settings.bot_thinking,
                observer=self._bot_decided,
            )
            self.bots[user_id] = player
            self.connections.add(connection)
            connection.send(self._snapshot_for(seat.seat_no))
            player.start()

    async def _bot_acts(self, connection: Connection, request: ActionRequest) -> None:
        await self.call(Act(connection, request))

    def _bot_decided(self, view: Mapping[str, Any], decision: Decision) -> None:
        if self.bot_observer is not None:
            self.bot_observer(view, decision)

    def _stop_bots(self) -> None:
        for player in self.bots.values():
            player.stop()
        self.bots.clear()

    async def _seat_bot(self, command: SeatBot) -> table_service.Reply:
        self.core.check_may_sit()
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            seated = await bot_service.seat_bot(
                session,
                table,
                command.level,
                request_key=command.request_key,
                seat_no=command.seat_no,
                buy_in=command.buy_in,
            )
            if not seated.replayed:
                await bot_service.record_admin(
                    session,
                    table,
                    by_admin=command.by_admin,
                    action="table.bot_seat",
                    after={"seat": seated.seat, "level": command.level},
                )
            seats = await table_service.seats_of(session, self.table_id)
        self._set_seats(seats)
        if not seated.replayed:
            self._seats_changed("seated", seated.seat)
        return table_service.Reply({"seat": seated.seat}, replayed=seated.replayed)

    async def _remove_bot(self, command: RemoveBot) -> dict[str, Any]:
        seat = next((s for s in self.core.seats.values() if s.seat_no == command.seat_no), None)
        if seat is None or seat.bot_level is None:
            raise Conflict(
                "not_a_bot", _("No bot sits in seat %(seat_no)s.", seat_no=command.seat_no)
            )
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            await bot_service.record_admin(
                session,
                table,
                by_admin=command.by_admin,
                action="table.bot_remove",
                after={"seat": seat.seat_no},
            )
        return await self._stand(seat.user_id)

    async def _set_bot_fill(self, command: SetBotFill) -> dict[str, Any]:
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            await bot_service.set_bot_fill(session, table, command.level, by_admin=command.by_admin)
        self._set_table(table)
        return await self._fill_seats_after({"bot_fill": command.level})

    def _suggest(self, connection: Connection) -> dict[str, Any]:
        """What the club-level bot would play from this seat, and why: only at a practice
        table (elsewhere it would be help no opponent has), and from exactly the view the
        seat's socket is sent."""
        core = self.core
        if not core.table.practice:
            raise ActionRefused("practice_only", _("Suggestions are for practice tables."))
        seat = core.seat_of_user(connection.user_id)
        if seat is None:
            raise ActionRefused("not_seated", _("You are watching: take a seat to play."))
        view = orjson.loads(self._snapshot_for(seat))["view"]
        if not legal_choices(view):
            raise ActionRefused("not_your_turn", _("There is nothing for you to play just now."))
        decision = brain(core.table.game, SUGGESTING_LEVEL)(view, random.Random())
        return {"action": decision.action, "reason": decision.reason}

    async def _take_wanted_seats(self) -> None:
        """Seat the people who asked for a bot's seat during the hand just settled (the
        bot stood up with it). One who can no longer sit (their balance fell short since)
        is left standing: the seat is free for them or anyone."""
        wanted, self.seat_wanted = self.seat_wanted, {}
        for command in wanted.values():
            try:
                await self._sit(command)
            except SalonError as error:
                log.info("table %s: a seat asked for could not be taken: %s", self.table_id, error)

    def _bot_may_play_on(self, stack: int) -> bool:
        """Whether a bot keeps its seat with `stack`: not when it is empty, nor under the
        table's smallest buy-in where stacks may differ (at Bouillotte everyone starts with
        the same cave and plays it down to the last chip, rules/bouillotte.md §1)."""
        if stack <= 0:
            return False
        return driver(self.core.table.game).buy_in_option is not None or (
            stack >= self.core.table.buy_in_min
        )

    async def _fill_seats_after(self, answer: Answer) -> Answer:
        """Fill the seats after a command whose own change is stored; `answer` says what
        it did. The filling is a transaction of its own, and the table may be taken over
        by another process between the two (TableMoved): the command is then still
        answered with what it did, not "table moved, try again" — a stand tried again
        would be refused `not_seated`, its seat being given up already. The new owner
        fills the seats when it reads the table back."""
        self._answer_stored = (answer,)
        await self._fill_seats()
        return answer

    async def _fill_seats(self) -> None:
        """Between hands, at a table that fills its seats with bots (`bot_fill`): while a
        person plays here every free seat gets a bot (but a seat promised to someone
        waiting), and once no person is left playing (gone, or sitting out) those bots
        stand up too; bots an admin seated stay until sent away. At every table, a bot
        whose stack fell under the table's minimum gives its seat (and its chips) back."""
        core = self.core
        if core.hand is not None or self.table is None or core.table.status == CLOSED:
            return
        level = core.table.bot_fill
        seats = list(core.seats.values())
        # Someone sitting out is not playing: bots do not play on for nobody.
        people = [s for s in seats if s.bot_level is None and not s.sitting_out]
        bots = [s for s in seats if s.bot_level is not None]
        # Those that came to fill the table go once nobody plays (an admin's stay).
        leaving = [
            s for s in bots if (s.filled and not people) or not self._bot_may_play_on(s.stack)
        ]
        staying = {s.seat_no for s in seats} - {s.seat_no for s in leaving}
        filling = (
            [
                n
                for n in range(core.table.seat_count)
                if n not in staying and n not in self.seat_wanted
            ]
            if level is not None and people and not core.closing
            else []
        )
        if not leaving and not filling:
            return
        async with self._transaction() as session:
            table = await table_service.get_table(session, self.table_id)
            for seat in leaving:
                await table_service.stand_up(session, table, seat.user_id)
            for seat_no in filling:
                assert level is not None
                await bot_service.seat_bot(
                    session, table, level, request_key=new_token(), seat_no=seat_no, filled=True
                )
            await hand_store.end_session_if_empty(session, self.table_id)
            fresh = await table_service.seats_of(session, self.table_id)
        self._set_seats(fresh)
        for seat in leaving:
            self._seats_changed("left", seat.seat_no)
        for seat_no in filling:
            self._seats_changed("seated", seat_no)

    # ------------------------------------------------------------------ chat

    async def _chat(self, connection: Connection, text: str) -> None:
        async with self._transaction() as session:
            user = await table_service.member(session, connection.user_id)
            moderation.check_may_chat(await moderation.muted_until(session, user.id))
            message = await hand_store.add_chat(session, self.table_id, user, text)
            name = user.display_name
        frame = self._chat_frame(message.id, name, text, message.created_at)
        for c in self.connections:
            c.send(frame)

    def _chat_removed(self, command: ChatRemoved) -> None:
        frame = self._chat_frame(command.message_id, command.name, "", command.at, removed=True)
        for c in self.connections:
            c.send(frame)

    def _chat_frame(
        self, message_id: int, name: str, text: str, at: datetime, *, removed: bool = False
    ) -> bytes:
        """A chat line's frame; a removed line's never carries its text."""
        shown = moderation.REMOVED_TEXT if removed else text
        return self.encoders.chat(message_id, name, shown, at, removed)


__all__ = ["ActionRefused", "ActorGone", "RuntimeSettings", "TableActor"]
