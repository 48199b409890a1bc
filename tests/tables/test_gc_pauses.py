"""The collector's pauses, timed per generation for the admins' latency figures."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from app.tables.gc_pauses import GcPauses


@pytest.fixture
def pauses() -> Iterator[GcPauses]:
    """Installed, with automatic collections off so that only the test's own count."""
    recorder = GcPauses()
    was_enabled = gc.isenabled()
    gc.disable()
    recorder.install()
    try:
        yield recorder
    finally:
        recorder.uninstall()
        if was_enabled:
            gc.enable()


def test_each_collection_is_timed_in_its_generation(pauses: GcPauses) -> None:
    gc.collect(0)
    gc.collect(0)
    gc.collect(2)
    summary = pauses.summary()
    assert summary[0].count == 2 and summary[1].count == 0 and summary[2].count == 1
    assert summary[2].max_ms is not None and summary[2].max_ms > 0


def test_reset_forgets_and_uninstall_stops_timing(pauses: GcPauses) -> None:
    gc.collect(1)
    assert pauses.summary()[1].count == 1
    pauses.reset()
    assert [s.count for s in pauses.summary().values()] == [0, 0, 0]
    pauses.uninstall()
    gc.collect(1)
    assert pauses.summary()[1].count == 0
    pauses.install()
    pauses.install()  # once only: a collection is not counted twice
    gc.collect(1)
    assert pauses.summary()[1].count == 1
