"""The dashboard's per-table latency: each table's samples apart, and all of them together."""

from __future__ import annotations

from app.tables.latency import MAX_SAMPLES_PER_TABLE, BroadcastTracker, LatencyRecorder


def test_latencies_are_kept_per_table_and_overall() -> None:
    recorder = LatencyRecorder()
    for ms in (1.0, 2.0, 3.0):
        recorder.record(ms, table_id=7)
    recorder.record(50.0, table_id=9)
    recorder.record(99.0)  # no table named: counts overall only
    by_table = recorder.by_table()
    assert set(by_table) == {7, 9}
    assert (by_table[7].count, by_table[7].median_ms, by_table[7].max_ms) == (3, 2.0, 3.0)
    assert (by_table[9].count, by_table[9].median_ms) == (1, 50.0)
    assert recorder.summary().count == 5
    recorder.reset()
    assert recorder.by_table() == {}


def test_a_table_keeps_only_its_recent_samples() -> None:
    recorder = LatencyRecorder()
    for ms in range(MAX_SAMPLES_PER_TABLE + 10):
        recorder.record(float(ms), table_id=1)
    assert recorder.by_table()[1].count == MAX_SAMPLES_PER_TABLE
    assert recorder.summary().count == MAX_SAMPLES_PER_TABLE + 10


def test_a_tracked_broadcast_is_recorded_for_its_table() -> None:
    recorder = LatencyRecorder()
    tracker = BroadcastTracker(recorder, received=0.0, table_id=4)
    tracker.pending = 1
    tracker.sent()
    assert recorder.by_table()[4].count == 1
