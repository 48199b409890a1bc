"""The table manager: one actor per live table, started on demand and at start-up.

At start-up every table that is not closed gets its actor back, so hands left running by
a previous process are restored at once (not when someone next connects), and their turn
timers run again.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from app.services import fencing
from app.services import tables as table_service
from app.services.action_writer import ActionWriter
from app.tables.actor import RuntimeSettings, TableActor
from app.tables.clock import Clock
from app.tables.commands import Encoders, TableHandle
from app.tables.gc_pauses import GcPauses, tune_collector
from app.tables.latency import LatencyRecorder
from app.tables.refusals import RefusedWrites

if TYPE_CHECKING:  # types only: the runtime reaches the database through app/services
    from app.cluster.node import ClusterNode
    from app.db.session import Database


class TableManager:
    def __init__(
        self, db: Database, clock: Clock, settings: RuntimeSettings, encoders: Encoders
    ) -> None:
        self.db = db
        # How the tables' messages become frames: the WebSocket layer's business.
        self.encoders = encoders
        self.clock = clock
        self.settings = settings
        # Action-to-broadcast latency of every table, for the admins (GET /api/admin/latency).
        self.latency = LatencyRecorder()
        # The collector's pauses, which stop every table at once (same endpoint).
        self.gc_pauses = GcPauses()
        # Every table's accepted actions, stored together (group commit).
        self.writer = ActionWriter(db)
        # The writes its tables could not make (fenced off, or the database away).
        self.refused = RefusedWrites()
        self.actors: dict[int, TableActor] = {}
        self._lock = asyncio.Lock()
        # Set when several processes serve the club (REDIS_URL; app/cluster).
        self.cluster: ClusterNode | None = None

    async def start(self, *, tune_gc: bool = False) -> None:
        """Bring back every table not closed (with several processes, join the others: the
        tables nobody owns are taken within a second). `tune_gc`: then tune the garbage
        collector for serving (gc_pauses.tune_collector; see Settings.gc_freeze)."""
        if self.cluster is not None:
            await self.cluster.start()
        else:
            async with self.db.transaction() as session:
                ids = await table_service.open_table_ids(session)
            for table_id in ids:
                await self.actor(table_id)
        self.gc_pauses.install()
        if tune_gc:
            tune_collector()

    async def table(self, table_id: int) -> TableHandle:
        """What to send a table's commands to: its actor here, or (several processes) a
        handle reaching the process that owns it."""
        if self.cluster is not None:
            return await self.cluster.handle(table_id)
        return await self.actor(table_id)

    async def running(self, table_id: int) -> TableHandle | None:
        """The table if some process is serving it now, without starting it."""
        if self.cluster is not None:
            owner = await self.cluster.leases.owner(table_id)
            return await self.cluster.handle(table_id) if owner is not None else None
        return self.running_here(table_id)

    def running_here(self, table_id: int) -> TableActor | None:
        """The table's actor if it runs in this process now."""
        actor = self.actors.get(table_id)
        if actor is None or actor.task is None or actor.task.done():
            return None
        return actor

    async def actor(self, table_id: int, *, fenced: bool = False) -> TableActor:
        """The table's actor in this process, started (and its state loaded) if it was not
        running. Each start raises the table's fencing token: the new run's epoch, which
        its versions carry; `fenced` (several processes): its writes check the token."""
        async with self._lock:
            actor = self.actors.get(table_id)
            if actor is None or (actor.task is not None and actor.task.done()):
                async with self.db.transaction() as session:
                    await table_service.get_table(session, table_id)  # NotFound if unknown
                    epoch = await fencing.take(session, table_id)
                actor = TableActor(
                    table_id,
                    self.db,
                    self.clock,
                    self.settings,
                    self.latency,
                    self.encoders,
                    self.writer,
                    epoch,
                    fenced=fenced,
                    refused=self.refused,
                )
                actor.start()
                self.actors[table_id] = actor
        await actor.ready.wait()
        if actor.load_error is not None:
            self.actors.pop(table_id, None)
            raise actor.load_error
        return actor

    async def stop(self) -> None:
        self.gc_pauses.uninstall()
        if self.cluster is not None:
            await self.cluster.stop()  # stops the actors, then lets go of their leases
            for actor in self.actors.values():  # any that did not stop in time
                if actor.task is not None:
                    actor.task.cancel()
            self.actors.clear()
        await self.stop_actors()
        await self.writer.close()

    async def stop_actors(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
