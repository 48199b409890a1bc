"""Garbage-collection pauses: while Python's cyclic collector runs, every table in the
process waits, so a long collection shows up in every table's latency at once.

`GcPauses` times each collection through `gc.callbacks` (start and stop of one collection
are reported in pairs on the thread that runs it) and keeps the last few thousand per
generation, for the admins' latency figures and `salon bench live`. Installing it costs two
calls of a small function per collection.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from typing import Any

from app.monitoring.histogram import LATENCY_MS_BOUNDS, Histogram
from app.tables.latency import LatencySummary, summarise

GENERATIONS = (0, 1, 2)
# Collect the youngest objects every 20,000 allocations, not 700: by then most of an action's
# objects are freed already, fewer reach the older generations, and the full collections
# (tens of milliseconds with hundreds of sockets open) become rare.
YOUNG_THRESHOLD = 20_000
MAX_SAMPLES_PER_GENERATION = 10_000


class GcPauses:
    """The collector's pauses since installed (or the last reset), in milliseconds."""

    def __init__(self) -> None:
        self._started: float | None = None
        self._pauses: dict[int, deque[float]] = {
            generation: deque(maxlen=MAX_SAMPLES_PER_GENERATION) for generation in GENERATIONS
        }
        # Every pause since installed, for /metrics (never reset).
        self.histograms = {generation: Histogram(LATENCY_MS_BOUNDS) for generation in GENERATIONS}

    def install(self) -> None:
        if self._on_collection not in gc.callbacks:
            gc.callbacks.append(self._on_collection)

    def uninstall(self) -> None:
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)

    def _on_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            pause = (time.perf_counter() - self._started) * 1000
            generation = int(info["generation"])
            self._pauses[generation].append(pause)
            self.histograms[generation].observe(pause)
            self._started = None

    def reset(self) -> None:
        for pauses in self._pauses.values():
            pauses.clear()

    def summary(self) -> dict[int, LatencySummary]:
        return {generation: summarise(self._pauses[generation]) for generation in GENERATIONS}


def tune_collector() -> None:
    """For a serving process, once its tables are loaded: what exists now (modules, the ORM's
    mappers, the validators, the tables' long-lived state) lives as long as the process, so
    it is left out of every later collection (garbage is collected first, not kept); young
    collections happen less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 10, 10)
