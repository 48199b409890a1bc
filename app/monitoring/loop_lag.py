"""Event-loop lag: how late the loop runs what is due. Every table of a process shares one
event loop, so a step that holds it (a slow query's result decoded, a long collection, a
blocking call) delays every table at once; this measures that delay alone, without a
table's own work: a task asks to wake up every `INTERVAL_SECONDS` and records how late
it woke up."""

from __future__ import annotations

import asyncio
import contextlib

from app.monitoring.histogram import LATENCY_MS_BOUNDS, Histogram

INTERVAL_SECONDS = 0.5


class LoopLag:
    def __init__(self, interval: float = INTERVAL_SECONDS) -> None:
        self.interval = interval
        # Milliseconds late, since start-up.
        self.histogram = Histogram(LATENCY_MS_BOUNDS)
        self.last_ms = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._measure(), name="event-loop-lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _measure(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            self.last_ms = max(0.0, loop.time() - due) * 1000
            self.histogram.observe(self.last_ms)
