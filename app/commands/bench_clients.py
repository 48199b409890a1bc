"""The robots' side of ``salon bench live``, shared by Salon's tables and the floor's
(and, for when a robot buys in again, with ``salon bench soak``).

What a client process is told (`Play`, one `TablePlan` per table), what it reports
(`Outcome`: the timed samples, the error frames it read, the tables it gave up on), a seat's
socket reader, and the client processes themselves. Salon's robots and the floor's read
their sockets with the same code and run in the same processes, so the two are timed alike.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import multiprocessing.queues
import multiprocessing.synchronize
import queue
import random
import socket
import statistics
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson
from websockets.asyncio.client import ClientConnection

from app.engine.registry import driver

# How long a table may show no change before the bench gives up on it.
STUCK_SECONDS = 30.0
# How long the bench waits for a client process to open its sockets.
CLIENT_SECONDS = 600.0

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Play:
    """What every client process needs to know to play (sent to each one, so picklable)."""

    base: str  # http://127.0.0.1:PORT (with several server processes: the first one's)
    game: str
    actions: int
    think: float
    buy_in: int


@dataclass(frozen=True, slots=True)
class TablePlan:
    table_id: int
    seed: float
    # Per seat, the session cookies of the robot seated there (none at the floor).
    cookies: list[dict[str, str]]
    # Per seat, the server process its socket and its requests go to (`salon bench live
    # --processes`); empty: `Play.base` for every seat.
    bases: tuple[str, ...] = ()

    def base_of(self, seat: int, default: str) -> str:
        return self.bases[seat] if self.bases else default


@dataclass(slots=True)
class Outcome:
    """What the robots of some tables report: picklable, and merged across processes."""

    samples: list[float] = field(default_factory=list)
    # Error frames read (refused actions and any other), on every seat's socket.
    errors: int = 0
    # One sentence per table the robots gave up on, saying why.
    gave_up: list[str] = field(default_factory=list)

    def merge(self, other: Outcome) -> None:
        self.samples.extend(other.samples)
        self.errors += other.errors
        self.gave_up.extend(other.gave_up)


class GaveUp(Exception):
    """A table showed no progress for `STUCK_SECONDS`: its robots stop, the rest play on."""


async def bounded(awaitable: Awaitable[T], what: str) -> T:
    """`awaitable`, or `GaveUp` saying `what` did not happen in time: no wait is endless."""
    try:
        return await asyncio.wait_for(awaitable, STUCK_SECONDS)
    except TimeoutError:
        raise GaveUp(f"{what} for {STUCK_SECONDS:.0f} s") from None


class Seat:
    """One robot's socket at one table, and what it last read there."""

    def __init__(self, ws: ClientConnection, cookies: dict[str, str]) -> None:
        self.ws = ws
        self.cookies = cookies
        self.version = -1
        self.view: dict[str, Any] = {}
        # Snapshots read so far: a resync is answered by one even when nothing changed.
        self.snapshots = 0
        self.errors = 0
        # The error frames read, by code.
        self.codes: Counter[str] = Counter()
        self.changed = asyncio.Event()
        # Ids of this robot's actions the table refused (acted on a view already stale).
        self.refused: set[str] = set()
        self.closed = False
        # The nonces of the pongs read: the server answers a ping after every message sent
        # before it on this socket, so a pong says those were dealt with.
        self.pongs: set[int | None] = set()

    async def read(self) -> None:
        """Read frames until the socket closes (then `closed`, and waiters are woken)."""
        try:
            async for raw in self.ws:
                frame = orjson.loads(raw)
                if frame["type"] == "snapshot":
                    self.version = frame["version"]
                    self.view = frame["view"]
                    self.snapshots += 1
                    self.changed.set()
                elif frame["type"] == "pong":
                    self.pongs.add(frame.get("nonce"))
                    self.changed.set()
                elif frame["type"] == "error":
                    self.errors += 1
                    self.codes[str(frame.get("code"))] += 1
                    if frame.get("ref"):
                        self.refused.add(frame["ref"])
                    self.changed.set()
        finally:
            self.closed = True
            self.changed.set()


async def wait_version(seat: Seat, version: int) -> None:
    while seat.version < version:
        seat.changed.clear()
        await seat.changed.wait()


Ready = Callable[[], Awaitable[None]]
# Plays some tables: opens their sockets, awaits `Ready`, plays, reports. A module-level
# function, so a client process started by `spawn` can be handed it.
Driver = Callable[[Play, list[TablePlan], Ready], Coroutine[Any, Any, Outcome]]
# Opens one seat's socket at a table (the URL and headers differ between Salon and a floor).
OpenSocket = Callable[[TablePlan, dict[str, str]], Awaitable[ClientConnection]]
# Plays one table's share of the actions with its seats, into the outcome.
PlayTable = Callable[[TablePlan, list["Seat"], Outcome], Awaitable[None]]


async def drive_tables(
    plans: list[TablePlan], open_socket: OpenSocket, play_table: PlayTable, ready: Ready
) -> Outcome:
    """Open every seat's socket at these tables (one after the other, in seat order, so
    `open_socket` may count them), wait for `ready`, then play them all at once; close
    everything, whatever happens. The outcome, error frames counted."""
    tables: list[list[Seat]] = []
    readers: list[asyncio.Task[None]] = []
    outcome = Outcome()
    try:
        for plan in plans:
            seats = []
            for cookies in plan.cookies:
                seat = Seat(await open_socket(plan, cookies), cookies)
                readers.append(asyncio.create_task(seat.read()))
                seats.append(seat)
            tables.append(seats)
        await ready()
        await asyncio.gather(
            *(play_table(plan, seats, outcome) for plan, seats in zip(plans, tables, strict=True))
        )
    finally:
        for seats in tables:
            for seat in seats:
                await seat.ws.close()
        for task in readers:
            task.cancel()
    outcome.errors = sum(seat.errors for seats in tables for seat in seats)
    return outcome


def _client_process(
    driver: Driver,
    play: Play,
    plans: list[TablePlan],
    reports: multiprocessing.queues.Queue[tuple[str, Any]],
    go: multiprocessing.synchronize.Event,
) -> None:
    """One client process: connect, say so, wait for the signal, play, send the outcome."""

    async def ready() -> None:
        reports.put(("ready", None))
        await asyncio.to_thread(go.wait)

    try:
        reports.put(("done", asyncio.run(driver(play, plans, ready))))
    except BaseException:
        reports.put(("error", traceback.format_exc()))


async def _in_processes(
    driver: Driver, play: Play, groups: list[list[TablePlan]], start: Ready
) -> Outcome:
    """Play each group of tables in its own process; `start` runs once all are connected."""
    context = multiprocessing.get_context("spawn")  # never fork a process with a loop running
    reports: multiprocessing.queues.Queue[tuple[str, Any]] = context.Queue()
    go = context.Event()
    processes = [
        context.Process(
            target=_client_process, args=(driver, play, group, reports, go), daemon=True
        )
        for group in groups
    ]
    for process in processes:
        process.start()

    async def report(expected: str, patience: float | None) -> Any:
        """The next report. Waiting for one is bounded by `patience` when given (opening
        the sockets), else only by the processes staying alive: a long play is no fault,
        and a stuck table's robots give up on their own."""
        waited = 0.0
        while True:
            try:
                kind, value = await asyncio.to_thread(reports.get, timeout=1.0)
                break
            except queue.Empty:
                waited += 1.0
                died = any(p.exitcode not in (None, 0) for p in processes)
                if died or (patience is not None and waited > patience):
                    raise RuntimeError("bench live: a client process stopped answering") from None
        if kind != expected:
            raise RuntimeError(f"bench live: a client process failed:\n{value}")
        return value

    try:
        for _ in processes:
            await report("ready", CLIENT_SECONDS)
        await start()
        go.set()
        outcome = Outcome()
        for _ in processes:
            outcome.merge(await report("done", None))
    finally:
        go.set()
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()
    return outcome


async def play_tables(
    driver: Driver, play: Play, plans: list[TablePlan], clients: int, start: Ready
) -> Outcome:
    """Play `plans` with `driver`, their tables spread over `clients` processes (one: in
    this one); `start` runs once every socket is open, right before the timed play."""
    if clients <= 1:
        return await driver(play, plans, start)
    groups = [plans[n::clients] for n in range(min(clients, len(plans)))]
    return await _in_processes(driver, play, groups, start)


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """One of the `legal` actions at random, as an action message's fields: an amount
    within its bounds, the smallest most often."""
    choice = dict(rng.choice(legal))
    choice.pop("seat", None)
    if "min" in choice:
        low, high = choice.pop("min"), choice.pop("max")
        choice["amount"] = low if rng.random() < 0.8 else rng.randint(low, high)
    return choice


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """Median, p99 and max, in the unit given; zeros when there is nothing to sort."""
    if not samples:
        return 0.0, 0.0, 0.0
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return round(statistics.median(ordered), 3), round(p99, 3), round(ordered[-1], 3)


def rss_mb(pid: int) -> float:
    """A process's resident memory, from the kernel's own count (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"bench live: no VmRSS for process {pid}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def needs_chips(game: str, stack: int, buy_in: int) -> bool:
    """Whether a robot should buy in again before the next hand: once it is down to a
    tenth of its buy-in, if its game allows a top-up then (one may wait until every chip
    is lost)."""
    if stack >= buy_in // 10:
        return False
    return driver(game).top_up_rule(bench_rules(game), stack, buy_in) is None


@functools.cache
def bench_rules(game: str) -> Any:
    """The house rules of the tables the bench opens for `game`, as its engine reads them."""
    played = driver(game)
    return played.resolve_rules(None, played.bench_table.rules)
