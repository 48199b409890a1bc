"""One process among several serving a club (REDIS_URL set): which tables it owns, how it
reaches the others' tables, and how it takes over a dead process's tables.

- **Ownership.** A table is served by the process holding its lease (app/cluster/leases.py).
  Taking one: the lease, then the fencing token raised in Postgres (app/services/fencing.py),
  then the actor started with that token — it restores the table from Postgres as after a
  restart, and every write it makes checks the token.
- **Renewal.** Every third of a lease period this process renews its leases and its
  heartbeat, in a task of its own: taking tables over (each read back from Postgres) may
  take longer than a lease under load, and leases left unrenewed meanwhile would lapse,
  their tables taken by the others, who would then lapse theirs while taking them — a
  churn of takeovers that never settles. Not while Redis is away: the bus then tries to
  reach it, and this process puts its leases back the moment it does. A lease found in
  another's hands means the table moved (this process was paused or cut off): its actor
  stops at once, without writing (its writes would be refused anyway). While Redis cannot
  be reached, nothing is given up.
- **Redis restarts.** A restart may lose every lease (empty, or back after they expired),
  while their owners live on and keep dealing. So an owner puts its leases back as soon as
  it reaches Redis again, and for a while after its own return to Redis (`settle_seconds`:
  two lease periods, and at least twice the bus's longest pause between tries) a
  process neither takes a table that was served before nor judges another process dead by
  its silence: every live owner has put its leases back and listens again long before.
- **Takeover.** Once a second the open tables are read from Postgres; one without a lease
  (its owner died) is taken by the first process to try, and so is one whose owner no
  longer listens on Redis: a process that dies loses its Redis connections, and with them
  its subscription, at once — so its tables move within about a second, not when its
  leases lapse.
- **Proxying.** A socket that reached this process for a table owned elsewhere is served
  through `RemoteTable`: its commands go to the owner, its frames come back here. When the
  table's owner changes, the socket is closed with 1012 so that the page reconnects and
  joins the table where it is now.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from app.cluster.bus import RETRY_CAP_SECONDS, Bus, RedisState, RequestTimedOut
from app.cluster.codec import (
    decode_answer,
    decode_command,
    decode_error,
    encode_answer,
    encode_command,
    encode_error,
)
from app.cluster.leases import Leases
from app.cluster.remote import RemoteConnection, RemoteTable
from app.cluster.sockets import MemberSockets
from app.security.tokens import new_token
from app.services import fencing
from app.services import tables as table_service
from app.tables.actor import ActorGone, TableActor
from app.tables.commands import Command, Connection, Join, Leave, TableHandle

if TYPE_CHECKING:
    from app.tables.manager import TableManager

log = logging.getLogger(__name__)

# Close code of a socket whose table moved to another process: "service restart", which
# every browser's page answers by reconnecting.
CLOSE_TABLE_MOVED = 1012
# How often the open tables are looked over for one whose owner died.
SCAN_SECONDS = 1.0
# How long a process must stay away from its Redis channel to be taken for dead.
SILENT_SECONDS = 1.0
# At shutdown: how long the tables may take to finish their current command and stop, and
# each other step.
STOP_TABLES_SECONDS = 10.0
STOP_STEP_SECONDS = 3.0


@dataclass(slots=True)
class LeaseFigures:
    """What happened to this process's leases since start-up (/metrics)."""

    # Tables taken from a process found dead, before its lease lapsed.
    taken_from_dead: int = 0
    # Tables taken with nobody holding their lease: at start-up, after a lease lapsed.
    taken_unowned: int = 0
    # Leases found in another process's hands at renewal (this one was paused or cut off).
    lost: int = 0


class ClusterNode:
    def __init__(self, manager: TableManager, redis: Redis, prefix: str, lease_seconds: float):
        self.manager = manager
        self.redis = redis
        # Random per start (OS CSPRNG): never the id of an earlier run of any process.
        self.process_id = new_token(12)
        self.lease_seconds = lease_seconds
        self.leases = Leases(redis, prefix, self.process_id, int(lease_seconds * 1000))
        self.bus = Bus(redis, prefix, self.process_id)
        # Each member's sockets, counted over every process.
        self.sockets = MemberSockets(redis, prefix, self.leases)
        self.bus.handlers = {
            "call": self._on_call,
            "frames": self._on_frames,
            "end": self._on_end,
            "recheck": self._on_recheck,
        }
        self.bus.on_reconnect = self._lost_messages
        self.bus.on_back = self._redis_back
        # Told of a member whose logins must be checked again (set by the app).
        self.on_recheck: Callable[[int], Any] | None = None
        # Origin side: this process's sockets served by another's table, by reference.
        self._sockets: dict[str, Connection] = {}
        self._socket_refs: weakref.WeakKeyDictionary[Connection, str] = weakref.WeakKeyDictionary()
        # ... and for each, the table and the owner it joined through.
        self._joined: dict[str, tuple[int, str]] = {}
        self._refs = itertools.count(1)
        # Owner side: other processes' sockets at this process's tables.
        self._remote: dict[tuple[str, str], RemoteConnection] = {}
        # Frames for other processes, gathered until the current step ends.
        self._frames: dict[str, list[tuple[str, str]]] = {}
        self._taking: dict[int, asyncio.Lock] = {}
        self._calls: set[asyncio.Task[None]] = set()
        # Since when each process seen not listening on Redis has been so.
        self._silent: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None
        self._renewal: asyncio.Task[None] | None = None
        self.lease_figures = LeaseFigures()
        # Whether the last round of upkeep failed (for a reason other than Redis being away):
        # a failure is logged when it starts and when it ends, not at every round.
        self._upkeep_failing = False

    @property
    def redis_state(self) -> RedisState:
        """Whether this process reaches Redis now ("up") or not ("down")."""
        return self.bus.redis_state

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        await self.leases.beat()
        await self.bus.start()
        log.info("serving with the club's other processes as process %s", self.process_id)
        self._renewal = asyncio.create_task(self._renewing(), name="cluster-renewal")
        self._task = asyncio.create_task(self._supervise(), name="cluster-supervisor")

    async def stop(self) -> None:
        """Stop this process's part: its tables (their leases let go, so that the others take
        them at once), then its messages. Every step has a bound: a process asked to stop
        must stop, even if Redis or a table does not answer."""
        for task in (self._task, self._renewal):
            if task is not None:
                task.cancel()
                await _within(task)
        owned = list(self.manager.actors)
        await _within(self.manager.stop_actors(), STOP_TABLES_SECONDS)
        for table_id in owned:
            await _within(self.leases.release(table_id))
        await _within(self.leases.quit())
        await _within(self.bus.stop())
        await _within(self.redis.aclose())

    # ------------------------------------------------------------------ reaching a table

    async def handle(self, table_id: int) -> TableHandle:
        """The table's own actor if this process owns it (taking it if nobody does), or
        a handle that reaches its owner."""
        for _ in range(3):
            actor = self.manager.running_here(table_id)
            if actor is not None:
                return actor
            owner = await self.leases.owner(table_id)
            if owner is not None and owner != self.process_id:
                if not await self._gone(owner):
                    return RemoteTable(self, table_id, owner)
                taken = await self.take(table_id, replacing=owner)
            else:
                taken = await self.take(table_id)
            if taken is not None:
                return taken
        raise ActorGone(table_id)

    async def _gone(self, owner: str) -> bool:
        return owner in await self._dead([owner])

    async def _dead(self, processes: list[str]) -> set[str]:
        """Which of these processes died: each no longer listens to its channel, and has not
        for SILENT_SECONDS (a live process stops listening only while its own connection to
        Redis is broken, and subscribes again within moments — after a Redis restart every
        process does). Not judged at all just after this process saw Redis restart."""
        if not processes or self._redis_unsettled():
            return set()
        now = time.monotonic()
        dead = set()
        for process, listening in (await self.bus.listening(sorted(set(processes)))).items():
            if listening:
                self._silent.pop(process, None)
            elif now - self._silent.setdefault(process, now) >= SILENT_SECONDS:
                dead.add(process)
        return dead

    async def take(
        self, table_id: int, *, waited: bool = False, replacing: str | None = None
    ) -> TableActor | None:
        """Take a table nobody owns: lease, fencing token, actor. None if another process
        was quicker. Just after Redis restarted (and maybe lost every lease, which owners
        put back on their return), a table served before (its token above zero) may still
        have its owner: so then, unless the caller has `waited` already, wait until Redis
        has settled and look again before taking it. `replacing`: the lease is held by that
        process, found dead; take it over from it without waiting for the lease to lapse."""
        lock = self._taking.setdefault(table_id, asyncio.Lock())
        async with lock:
            actor = self.manager.running_here(table_id)
            if actor is not None:
                return actor
            unsure = self._redis_unsettled() and not waited and replacing is None
            if unsure and await self._served_before(table_id):
                if self.redis_state == "down":
                    return None
                await asyncio.sleep(self._settled_in())
                if self._redis_unsettled() or await self.leases.owner(table_id) is not None:
                    return None
            if replacing is not None:
                if not await self.leases.take_over(table_id, replacing):
                    return None
            elif not await self.leases.take(table_id):
                owner = await self.leases.owner(table_id)
                if owner != self.process_id:
                    return None
            try:
                actor = await self.manager.actor(table_id, fenced=True)
            except BaseException:
                with contextlib.suppress(Exception):
                    await self.leases.release(table_id)
                raise
            log.info("table %s: now served here (fence %s)", table_id, actor.fence)
            if replacing is not None:
                self.lease_figures.taken_from_dead += 1
            else:
                self.lease_figures.taken_unowned += 1
            return actor

    @property
    def settle_seconds(self) -> float:
        """How long after its return to Redis this process trusts neither a missing lease nor
        a silent channel. Every live process finds Redis back within RETRY_CAP_SECONDS of its
        return (its bus tries again at most that far apart), and then puts its leases back
        before anything else, and listens again: twice that leaves a margin, and two lease
        periods as many renewals as a lease ever has to wait for."""
        return max(2 * self.lease_seconds, 2 * RETRY_CAP_SECONDS)

    def _redis_unsettled(self) -> bool:
        """Whether Redis is away, or came back less than `settle_seconds` ago: then leases
        may be missing whose owners are alive, and live processes may not listen yet."""
        return self.redis_state == "down" or self._settled_in() > 0

    def _settled_in(self) -> float:
        back = self.bus.back_at
        if back is None:
            return 0.0
        return max(0.0, back + self.settle_seconds - time.monotonic())

    async def _redis_back(self) -> None:
        """Redis is back, perhaps empty: put this process's leases and heartbeat back at once,
        before another process could take a table it found without a lease; and forget who
        was silent before (every process was, while Redis was away)."""
        self._silent.clear()
        await self._renew()

    async def _served_before(self, table_id: int) -> bool:
        async with self.manager.db.transaction() as session:
            return await fencing.current(session, table_id) > 0

    async def call_remote(self, table: RemoteTable, command: Command) -> Any:
        if isinstance(command, Leave) and self._socket_refs.get(command.connection) not in (
            self._joined
        ):
            # Never joined there, or the table moved since: the owner it joined through
            # forgot the socket already (or is gone); nothing to tell.
            self._forget(command.connection)
            return None
        message = {
            "kind": "call",
            "table": table.table_id,
            "command": encode_command(command, lambda c: self._reference(c, table, command)),
        }
        if isinstance(command, Leave):
            # Its socket is closed already: nobody waits for the answer.
            self.bus.post(table.owner, {**message, "from": self.process_id})
            return None
        try:
            answer = await self.bus.request(table.owner, message)
        except RequestTimedOut:
            # The owner died (its lease has yet to lapse) or the message was lost: a socket
            # reconnects, and reaches the table wherever it is by then.
            connection = getattr(command, "connection", None)
            if isinstance(connection, Connection):
                connection.end(CLOSE_TABLE_MOVED)
            raise ActorGone(table.table_id) from None
        if "error" in answer:
            raise decode_error(answer["error"])
        return decode_answer(answer.get("value"))

    def _reference(self, connection: Connection, table: RemoteTable, command: Command) -> str:
        ref = self._socket_refs.get(connection)
        if ref is None:
            ref = f"{next(self._refs)}"
            self._socket_refs[connection] = ref
            self._sockets[ref] = connection
        if isinstance(command, Join):
            self._joined[ref] = (table.table_id, table.owner)
        elif isinstance(command, Leave):
            self._forget(connection)
        return ref

    def _forget(self, connection: Connection) -> None:
        ref = self._socket_refs.pop(connection, None)
        if ref is not None:
            self._joined.pop(ref, None)
            self._sockets.pop(ref, None)

    # ------------------------------------------------------------------ owner side

    async def _on_call(self, message: dict[str, Any]) -> None:
        # Each call in its own task: a table's slow answer never holds up the others.
        task = asyncio.create_task(self._serve_call(message))
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _serve_call(self, message: dict[str, Any]) -> None:
        origin = str(message["from"])
        actor: TableActor | None = None
        command: Command | None = None
        try:
            actor = self.manager.running_here(int(message["table"]))
            if actor is None:
                raise ActorGone(int(message["table"]))
            command = decode_command(
                message["command"], lambda ref: self._remote_connection(origin, ref)
            )
            value = await actor.call(command)
        except Exception as error:
            if not isinstance(error, ActorGone) and not hasattr(error, "code"):
                log.exception("a table call from process %s failed", origin)
            if "number" in message:
                self.bus.answer(message, {"error": encode_error(error)})
        else:
            if "number" in message:
                self.bus.answer(message, {"value": encode_answer(value)})
        finally:
            # A socket the table does not hold (it left, or was refused) is forgotten here.
            connection = getattr(command, "connection", None)
            if isinstance(connection, RemoteConnection) and (
                actor is None or connection not in actor.connections
            ):
                self._remote.pop((origin, connection.ref), None)

    def _remote_connection(self, origin: str, data: dict[str, Any]) -> RemoteConnection:
        key = (origin, str(data["ref"]))
        connection = self._remote.get(key)
        if connection is None:
            connection = RemoteConnection(
                self, origin, str(data["ref"]), int(data["user_id"]), str(data["username"])
            )
            self._remote[key] = connection
        return connection

    def forward_frame(self, origin: str, ref: str, frame: bytes) -> None:
        pending = self._frames.get(origin)
        if pending is None:
            pending = self._frames[origin] = []
            asyncio.get_running_loop().call_soon(self._flush_frames, origin)
        pending.append((ref, frame.decode()))

    def _flush_frames(self, origin: str) -> None:
        frames = self._frames.pop(origin, [])
        if frames:
            self.bus.post(origin, {"kind": "frames", "frames": frames})

    def forward_end(self, origin: str, ref: str, code: int) -> None:
        self._flush_frames(origin)  # what was sent before the end arrives before it
        self._remote.pop((origin, ref), None)
        self.bus.post(origin, {"kind": "end", "ref": ref, "code": code})

    # ------------------------------------------------------------------ origin side

    def _on_frames(self, message: dict[str, Any]) -> None:
        for ref, frame in message["frames"]:
            connection = self._sockets.get(ref)
            if connection is not None:
                connection.send(frame.encode())

    def _on_end(self, message: dict[str, Any]) -> None:
        connection = self._sockets.get(str(message["ref"]))
        if connection is not None:
            connection.end(int(message["code"]))

    def _lost_messages(self) -> None:
        """Frames may have been lost: every proxied socket reconnects and catches up (its
        owner, still there, is told that it left)."""
        for connection in list(self._sockets.values()):
            connection.end(CLOSE_TABLE_MOVED)

    def _on_recheck(self, message: dict[str, Any]) -> Any:
        if self.on_recheck is not None:
            return self.on_recheck(int(message["user_id"]))
        return None

    def recheck_everywhere(self, user_id: int) -> None:
        """Ask every process to check this member's sockets again (a logout, a ban)."""
        self.bus.post(None, {"kind": "recheck", "user_id": user_id})

    # ------------------------------------------------------------------ supervision

    async def _renewing(self) -> None:
        failing = False  # a failure is told when it starts and when it ends
        while True:
            if self.redis_state == "up":
                try:
                    await self._renew()
                except asyncio.CancelledError:
                    raise
                except RedisConnectionError:
                    pass  # Redis away: the bus tells it, once, and puts the leases back
                except Exception as error:
                    if not failing:
                        log.warning("lease renewal failed (%s); trying again", error)
                        failing = True
                else:
                    if failing:
                        log.warning("lease renewal works again")
                        failing = False
            await asyncio.sleep(self.lease_seconds / 3)

    async def _supervise(self) -> None:
        step = self.lease_seconds / 3
        next_scan = 0.0
        loop = asyncio.get_running_loop()
        while True:
            if self.redis_state == "down":
                # Redis away: the bus alone tries to reach it, backing off, and this
                # process's leases are put back the moment it does (`_redis_back`).
                await asyncio.sleep(step)
                continue
            try:
                await self._watch_owners()
                await self._drop_dead_origins()
                if loop.time() >= next_scan:
                    next_scan = loop.time() + SCAN_SECONDS
                    await self._take_orphans()
            except asyncio.CancelledError:
                raise
            except RedisConnectionError:
                pass  # Redis away: the bus tells it, once (it may not have noticed yet)
            except Exception as error:  # told when it starts and when it ends
                if not self._upkeep_failing:
                    log.warning("cluster upkeep failed (%s); trying again", error)
                    self._upkeep_failing = True
            else:
                if self._upkeep_failing:
                    log.warning("cluster upkeep works again")
                    self._upkeep_failing = False
            await asyncio.sleep(step)

    async def _renew(self) -> None:
        await self.leases.beat()
        ended = [
            (table_id, actor)
            for table_id, actor in self.manager.actors.items()
            if actor.task is None or actor.task.done()
        ]
        for table_id, actor in ended:  # closed, or gave up after a refused write
            taking = self._taking.get(table_id)
            if (taking is not None and taking.locked()) or (
                self.manager.actors.get(table_id) is not actor
            ):
                continue  # being taken again meanwhile: that take holds the lease
            self.manager.actors.pop(table_id, None)
            await self.leases.release(table_id)
        kept = await self.leases.renew(list(self.manager.actors))
        for table_id, still_ours in kept.items():
            if not still_ours:
                log.warning("table %s: its lease is another process's now; stopping", table_id)
                self.lease_figures.lost += 1
                moved = self.manager.actors.pop(table_id, None)
                if moved is not None:
                    moved.give_up()

    async def _watch_owners(self) -> None:
        """Close the proxied sockets whose table has another owner now, or whose owner died
        (then also take its tables over at once, and stop waiting for its answers): their
        pages reconnect and find the table where it is."""
        joined = set(self._joined.values())
        owners = await self.leases.owners(sorted({table_id for table_id, _ in joined}))
        dead = await self._dead([owner for _, owner in joined])
        for owner in dead:
            self.bus.give_up_on(owner)
        for table_id, owner in joined:
            if owner in dead and owners.get(table_id) == owner:
                with contextlib.suppress(Exception):
                    await self.take(table_id, replacing=owner)
        for ref, (table_id, owner) in list(self._joined.items()):
            if owner in dead or owners.get(table_id) != owner:
                del self._joined[ref]
                connection = self._sockets.get(ref)
                if connection is not None:
                    connection.end(CLOSE_TABLE_MOVED)

    async def _drop_dead_origins(self) -> None:
        for origin in await self._dead([origin for origin, _ in self._remote]):
            for key in [k for k in self._remote if k[0] == origin]:  # gone with it
                self._remote[key].end(CLOSE_TABLE_MOVED)

    async def _take_orphans(self) -> None:
        async with self.manager.db.transaction() as session:
            open_ids = await table_service.open_table_ids(session)
        owners = await self.leases.owners(open_ids)
        dead = await self._dead(
            [o for o in owners.values() if o is not None and o != self.process_id]
        )
        for table_id, owner in owners.items():
            if owner in dead:
                with contextlib.suppress(Exception):
                    await self.take(table_id, replacing=owner)
        if self._redis_unsettled():
            # Owners that lost their leases to a restart are putting them back: a lease
            # missing now does not mean its owner is gone (the next scans will tell).
            return
        for table_id in [t for t, owner in owners.items() if owner is None]:
            with contextlib.suppress(Exception):
                await self.take(table_id, waited=True)


async def _within(step: Awaitable[Any], seconds: float = STOP_STEP_SECONDS) -> None:
    """Wait for a shutdown step, at most `seconds`; what it raises or leaves unfinished is
    logged, not raised (the next steps still run)."""
    try:
        await asyncio.wait_for(step, seconds)
    except asyncio.CancelledError:
        if asyncio.current_task() is not None and asyncio.current_task().cancelling():  # type: ignore[union-attr]
            raise
    except Exception as error:  # TimeoutError included
        log.warning("shutting down: a step did not finish (%s)", error or type(error).__name__)
