"""Time for the table runtime, injectable so tests drive turn timers without sleeping.

The runtime never calls `time` or `asyncio.sleep` directly: it asks a `Clock` for `now()`
and awaits `sleep_until(deadline)`. `SystemClock` is real time; `FakeClock` moves only when
a test calls `advance()`, waking every sleeper whose deadline has come.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, deadline: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.monotonic()

    async def sleep_until(self, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._tiebreak = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        if deadline <= self._now:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (deadline, next(self._tiebreak), future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move time forward and let every task woken by it run before returning."""
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
        # Let the woken tasks (and what they trigger) run.
        for _ in range(5):
            await asyncio.sleep(0)
