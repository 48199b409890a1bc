"""How long live tables take to answer: from an action received on a WebSocket to the
moment the last seated player's socket has been handed that action's broadcast.

The endpoint stamps each action frame when it arrives; when the actor accepts the action,
the broadcast's last frame (the snapshot) to every seated connection carries one shared
`BroadcastTracker`. Each connection's writer calls `sent()` once that frame has gone out;
the last one records the elapsed time. Spectators, timer moves and refused actions are not
measured. Wall time (`perf_counter`), not the table clock: this measures the machine.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from app.monitoring.histogram import LATENCY_MS_BOUNDS, Histogram

# Enough for a long bench at a hundred busy tables; older samples drop off.
MAX_SAMPLES = 100_000
# Per table, for the dashboard: the recent past of each table is enough to spot a slow one.
MAX_SAMPLES_PER_TABLE = 1_000


@dataclass(frozen=True, slots=True)
class LatencySummary:
    count: int
    median_ms: float | None
    p99_ms: float | None
    max_ms: float | None


class LatencyRecorder:
    """The last `MAX_SAMPLES` latencies, in milliseconds."""

    def __init__(self, max_samples: int = MAX_SAMPLES) -> None:
        self._samples: deque[float] = deque(maxlen=max_samples)
        self._by_table: dict[int, deque[float]] = {}
        # Every latency since start-up, for /metrics (never reset).
        self.histogram = Histogram(LATENCY_MS_BOUNDS)

    def record(self, ms: float, table_id: int | None = None) -> None:
        self._samples.append(ms)
        self.histogram.observe(ms)
        if table_id is not None:
            table = self._by_table.setdefault(table_id, deque(maxlen=MAX_SAMPLES_PER_TABLE))
            table.append(ms)

    def reset(self) -> None:
        self._samples.clear()
        self._by_table.clear()

    def summary(self) -> LatencySummary:
        return summarise(self._samples)

    def by_table(self) -> dict[int, LatencySummary]:
        """Each table's last `MAX_SAMPLES_PER_TABLE` latencies, summarised."""
        return {table: summarise(samples) for table, samples in sorted(self._by_table.items())}


def summarise(recorded: Iterable[float]) -> LatencySummary:
    """Count, median, p99 and maximum of some durations in milliseconds."""
    samples = sorted(recorded)
    if not samples:
        return LatencySummary(count=0, median_ms=None, p99_ms=None, max_ms=None)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return LatencySummary(
        count=len(samples),
        median_ms=round(statistics.median(samples), 3),
        p99_ms=round(p99, 3),
        max_ms=round(samples[-1], 3),
    )


class BroadcastTracker:
    """One accepted action's broadcast on its way to the seated players' sockets."""

    __slots__ = ("pending", "received", "recorder", "table_id")

    def __init__(
        self, recorder: LatencyRecorder, received: float, table_id: int | None = None
    ) -> None:
        self.recorder = recorder
        self.received = received
        self.table_id = table_id
        self.pending = 0  # seated connections that were queued the tagged frame

    def sent(self) -> None:
        self.pending -= 1
        if self.pending == 0:
            self.recorder.record((time.perf_counter() - self.received) * 1000, self.table_id)
