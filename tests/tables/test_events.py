"""The versioned event log: per-viewer filtering and catching up after a reconnect."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from app.tables.events import EventLog, first_version

encoded: list[int] = []


def encode(version: int, kind: str, data: Mapping[str, Any]) -> bytes:
    encoded.append(version)
    return orjson.dumps({"version": version, "kind": kind, "data": dict(data)})


def test_versions_increase_and_audiences_filter() -> None:
    log = EventLog(encode)
    public = log.append("declared", {"seat": 1, "choice": "play"})
    private = log.append("dealt", {"cards": ["AS", "KD"]}, audience=frozenset({2}))
    assert (public.version, private.version, log.version) == (1, 2, 2)
    assert [e.kind for e in log.since(0, viewer=2) or []] == ["declared", "dealt"]
    assert [e.kind for e in log.since(0, viewer=1) or []] == ["declared"]
    assert [e.kind for e in log.since(0, viewer=None) or []] == ["declared"]
    assert log.since(2, viewer=2) == []


def test_a_client_too_far_behind_gets_a_snapshot() -> None:
    log = EventLog(encode, window=3)
    for n in range(5):
        log.append("tick", {"n": n})
    # Versions 3, 4, 5 are kept: a client at 2 can catch up, a client at 1 cannot.
    assert [e.version for e in log.since(2, viewer=None) or []] == [3, 4, 5]
    assert log.since(1, viewer=None) is None
    assert log.since(9, viewer=None) is None  # a version this table never had


def test_a_table_started_again_never_reuses_a_version() -> None:
    before = EventLog(encode, start_version=first_version(3))
    shown = [before.append("seated", {"seat": n}).version for n in range(5)]
    after = EventLog(encode, start_version=first_version(4))  # the next run's epoch
    assert after.append("seated", {"seat": 9}).version > max(shown)
    # A page that saw the previous run's versions gets a full snapshot, whichever it saw.
    assert all(after.since(version, viewer=None) is None for version in shown)


def test_an_event_is_encoded_once_and_kept_as_its_frame() -> None:
    log = EventLog(encode)
    encoded.clear()
    event = log.append("declared", {"seat": 1, "choice": "play"})
    assert encoded == [1]
    assert orjson.loads(event.frame) == {
        "version": 1,
        "kind": "declared",
        "data": {"seat": 1, "choice": "play"},
    }
    # A client catching up is sent the very bytes: nothing is encoded again.
    assert [e.frame for e in log.since(0, viewer=None) or []] == [event.frame]
    assert encoded == [1]
