"""Group commit: the accepted actions of every table, written together.

Each table's actor stores an accepted action before anyone hears of it (write-ahead,
DESIGN.md). Written one by one, a busy server pays one commit — one flush of the
database's log to disk — per action. Here every action handed over while the previous
write is in flight waits for the next one, and that write stores all of them in a single
INSERT statement, committed once: at 25 busy tables a commit carries many actions, at one
quiet table it carries one and costs what a lone INSERT costs (no tick to wait for).

A table hears of its action only when the write that carried it has committed, so "stored
before anyone hears of it" stays true. A table's actions are in order: its actor hands over
the next one only once the previous is stored. If a write fails, its actions are written
again one by one, so one bad row (a sequence number already taken) fails alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import HandAction
from app.db.session import Database
from app.db.types import utcnow
from app.monitoring.histogram import BATCH_BOUNDS, Histogram
from app.services import fencing

_INSERT_ACTION = insert(HandAction)
log = logging.getLogger(__name__)

# Actions in one write at most: a bound on one write's size when thousands of tables act
# at once.
MAX_ACTIONS_PER_WRITE = 250


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted action as it is stored: its hand, its place in the hand, its table-log
    form, who sent it (None: the turn timer) under which client id, and the table version
    it produced (a restored table takes its version from these rows)."""

    hand_id: int
    seq: int
    action: dict[str, Any]
    client_id: str | None
    user_id: int | None
    version: int
    # The table, and the fencing token its process holds when several serve the club
    # (None: one process, nothing to check; app/services/fencing.py).
    table_id: int = 0
    fence: int | None = None

    def row(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "seq": self.seq,
            "seat": int(self.action["seat"]),
            "action": self.action,
            "client_id": self.client_id,
            "user_id": self.user_id,
            "table_version": self.version,
            "created_at": utcnow(),
        }


@dataclass(slots=True)
class WriterFigures:
    """What the writer has done since start-up (GET /api/admin/latency, the bench)."""

    writes: int = 0
    actions: int = 0
    largest_write: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "writes": self.writes,
            "actions": self.actions,
            "largest_write": self.largest_write,
            "actions_per_write": round(self.actions / self.writes, 2) if self.writes else None,
        }


_Waiting = tuple[ActionRecord, "asyncio.Future[None]"]


class ActionWriter:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.figures = WriterFigures()
        # Actions per commit since start-up, for /metrics (never reset): its sum is the
        # number of actions stored.
        self.batch_sizes = Histogram(BATCH_BOUNDS)
        self._waiting: list[_Waiting] = []
        self._writer: asyncio.Task[None] | None = None
        self._connection: AsyncConnection | None = None

    async def store(self, action: ActionRecord) -> None:
        """Return once `action` is committed; raise what its write raised otherwise."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((action, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all(), name="action-writer")
        # The write runs in its own task: a caller cancelled meanwhile does not stop it (its
        # action is stored, and a restored table has it).
        await done

    def reset_figures(self) -> None:
        self.figures = WriterFigures()

    async def close(self) -> None:
        """Wait for the writes under way and give the connection back (at shutdown, after
        the tables have stopped)."""
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
        if self._connection is not None:
            await self._connection.close()
            self._connection = None

    async def _write_all(self) -> None:
        group: list[_Waiting] = []
        try:
            while self._waiting:
                group = self._waiting[:MAX_ACTIONS_PER_WRITE]
                del self._waiting[:MAX_ACTIONS_PER_WRITE]
                await self._write_group(group)
        except BaseException as stopped:  # cancelled at shutdown: nobody is left waiting
            for _, done in group + self._waiting:
                _settle(done, stopped)
            self._waiting.clear()
            raise

    async def _write_group(self, group: list[_Waiting]) -> None:
        try:
            await self._insert([action for action, _ in group])
        except Exception as error:
            if len(group) == 1:
                _settle(group[0][1], error)
                return
            for action, done in group:  # find the row that failed; the others are stored
                try:
                    await self._insert([action])
                except Exception as alone:
                    _settle(done, alone)
                else:
                    _settle(done, None)
        else:
            for _, done in group:
                _settle(done, None)

    async def _insert(self, actions: list[ActionRecord]) -> None:
        """One INSERT run for every row, in one transaction, on the writer's own connection.
        The statement is built (and compiled, and prepared by the driver) once, whatever the
        number of rows. The connection is held for good: no other work waiting for the pool
        (a burst of settlements, a page of history) ever holds back the tables' actions. A
        connection that failed is dropped, and the next write opens another."""
        if self._connection is None:
            self._connection = await self.db.engine.connect()
        try:
            async with self._connection.begin():
                await _check_fences(self._connection, actions)
                await self._connection.execute(_INSERT_ACTION, [a.row() for a in actions])
        except fencing.TableMoved:
            raise  # rolled back; the connection is sound
        except Exception:
            connection, self._connection = self._connection, None
            with contextlib.suppress(Exception):
                await connection.close()
            raise
        self.figures.writes += 1
        self.figures.actions += len(actions)
        self.figures.largest_write = max(self.figures.largest_write, len(actions))
        self.batch_sizes.observe(len(actions))


async def _check_fences(connection: AsyncConnection, actions: list[ActionRecord]) -> None:
    """Refuse the write if one of its tables has moved to another process (its rows stay
    locked for share until the commit, so a new owner's takeover waits for it). The group
    is then written again one action at a time, and only the moved table's fail."""
    fenced = {a.table_id: a.fence for a in actions if a.fence is not None}
    if not fenced:
        return
    held = await fencing.tokens(connection, sorted(fenced))
    for table_id, token in fenced.items():
        if held.get(table_id) != token:
            log.warning(
                "table %s: an action write was refused: another process owns the table now",
                table_id,
            )
            raise fencing.TableMoved(table_id)


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
        return
    done.set_exception(error)
    if isinstance(error, fencing.TableMoved):
        # The table's actor may have stopped waiting: it learnt of the move another way
        # (its lease, a refused state write) and let the table go. The refusal is then no
        # one's to read, and asyncio would log it as lost ("Future exception was never
        # retrieved") when the future is collected; it is read here, and stays the waiter's.
        done.add_done_callback(_read_refusal)


def _read_refusal(done: asyncio.Future[None]) -> None:
    if not done.cancelled():
        done.exception()
