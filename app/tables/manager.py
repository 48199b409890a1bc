"""The table manager: one actor per live table, started on demand and at start-up.

At start-up every table that is not closed gets its actor back, so hands left running by
a previous process are restored at once (not when someone next connects), and their turn
timers run again.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlalchemy import select

from app.db.models import GameTable, TableStatus
from app.db.session import Database
from app.errors import RateLimited
from app.services import tables as table_service
from app.tables.actor import RuntimeSettings, TableActor
from app.tables.clock import Clock
from app.tables.latency import LatencyRecorder

MAX_CONNECTIONS_PER_USER = 8


class TooManyConnections(RateLimited):
    def __init__(self) -> None:
        super().__init__(retry_after=5)
        self.code = "too_many_connections"
        self.message = f"You already have {MAX_CONNECTIONS_PER_USER} tables open: close one first."


class TableManager:
    def __init__(self, db: Database, clock: Clock, settings: RuntimeSettings) -> None:
        self.db = db
        self.clock = clock
        self.settings = settings
        # Action-to-broadcast latency of every table, for the admins (GET /api/admin/latency).
        self.latency = LatencyRecorder()
        self.actors: dict[int, TableActor] = {}
        self._lock = asyncio.Lock()
        self._connections: Counter[int] = Counter()

    async def start(self) -> None:
        async with self.db.transaction() as session:
            ids = list(
                (
                    await session.scalars(
                        select(GameTable.id).where(GameTable.status != TableStatus.CLOSED)
                    )
                ).all()
            )
        for table_id in ids:
            await self.actor(table_id)

    async def actor(self, table_id: int) -> TableActor:
        """The table's actor, started (and its state loaded) if it was not running."""
        async with self._lock:
            actor = self.actors.get(table_id)
            if actor is None or (actor.task is not None and actor.task.done()):
                async with self.db.transaction() as session:
                    await table_service.get_table(session, table_id)  # NotFound if unknown
                actor = TableActor(table_id, self.db, self.clock, self.settings, self.latency)
                actor.start()
                self.actors[table_id] = actor
        await actor.ready.wait()
        if actor.load_error is not None:
            self.actors.pop(table_id, None)
            raise actor.load_error
        return actor

    def connect(self, user_id: int) -> None:
        if self._connections[user_id] >= MAX_CONNECTIONS_PER_USER:
            raise TooManyConnections()
        self._connections[user_id] += 1

    def disconnect(self, user_id: int) -> None:
        self._connections[user_id] -= 1
        if self._connections[user_id] <= 0:
            del self._connections[user_id]

    async def stop(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
