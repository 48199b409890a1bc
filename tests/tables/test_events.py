"""The versioned event log: per-viewer filtering and catching up after a reconnect."""

from __future__ import annotations

from app.tables.events import EventLog


def test_versions_increase_and_audiences_filter() -> None:
    log = EventLog()
    public = log.append("declared", {"seat": 1, "choice": "play"})
    private = log.append("dealt", {"cards": ["AS", "KD"]}, audience=frozenset({2}))
    assert (public.version, private.version, log.version) == (1, 2, 2)
    assert [e.kind for e in log.since(0, viewer=2) or []] == ["declared", "dealt"]
    assert [e.kind for e in log.since(0, viewer=1) or []] == ["declared"]
    assert [e.kind for e in log.since(0, viewer=None) or []] == ["declared"]
    assert log.since(2, viewer=2) == []


def test_a_client_too_far_behind_gets_a_snapshot() -> None:
    log = EventLog(window=3)
    for n in range(5):
        log.append("tick", {"n": n})
    # Versions 3, 4, 5 are kept: a client at 2 can catch up, a client at 1 cannot.
    assert [e.version for e in log.since(2, viewer=None) or []] == [3, 4, 5]
    assert log.since(1, viewer=None) is None
    assert log.since(9, viewer=None) is None  # a version this table never had


def test_a_restored_table_continues_its_versions() -> None:
    log = EventLog(start_version=40)
    assert log.append("resumed", {}).version == 41
    assert log.since(40, viewer=None) is not None
    assert log.since(39, viewer=None) is None
