"""A table's versioned event log, with who may see each event.

Every change at a table gets the next version number. An event is either public or meant
for some seats only (a player's own cards); each viewer is sent only what it may see, so a
viewer's versions have gaps, which is fine: a client only remembers the last version it saw.
A client that reconnects with that version gets the events it missed, or — if they have
already left the bounded window — `None`, meaning "send a full snapshot instead".

A version names one event forever, across restarts and moves between processes. Not every
event is stored (a seat taken, a player gone offline), so a table started again cannot know
the last version its previous run showed; instead each run of a table has an epoch of its
own (the table's fencing token, raised at every start: app/services/fencing.py), and its
versions count up from `first_version(epoch)`. A later run's versions are above every
earlier run's, so a version from a previous run is simply too old to catch up from, and
its client is sent a full snapshot.

An event is kept as the frame that was sent, encoded once when it is logged (by the
`encode` the log is given: the wire format is not this module's business): a catching-up
client is sent the same bytes, and the log holds no dicts for the garbage collector to walk
(bytes are not tracked by it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# A viewer: a seat number, or None for a spectator (who sees public events only).
Viewer = int | None
# (version, kind, data) -> the event's frame as sent.
Encode = Callable[[int, str, Mapping[str, Any]], bytes]
# Versions one run of a table may use. Written in decimal, a version reads as its epoch and
# its count ("3000000042": the 42nd event of epoch 3); for a million epochs it stays within
# the 15 digits a reconnecting page may send (app/ws/endpoint.py), a safe integer for
# JavaScript.
VERSIONS_PER_EPOCH = 10**9


def first_version(epoch: int) -> int:
    """The version a table's log starts from in `epoch` (its first event is the next one)."""
    return epoch * VERSIONS_PER_EPOCH


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    version: int
    kind: str
    frame: bytes
    # None: everyone; otherwise only these seats.
    audience: frozenset[int] | None = None

    def visible_to(self, viewer: Viewer) -> bool:
        return self.audience is None or (viewer is not None and viewer in self.audience)


class EventLog:
    def __init__(self, encode: Encode, *, start_version: int = 0, window: int = 512) -> None:
        self._encode = encode
        self._version = start_version
        self._events: deque[LoggedEvent] = deque(maxlen=window)

    @property
    def version(self) -> int:
        return self._version

    def append(
        self, kind: str, data: Mapping[str, Any], audience: frozenset[int] | None = None
    ) -> LoggedEvent:
        self._version += 1
        event = LoggedEvent(self._version, kind, self._encode(self._version, kind, data), audience)
        self._events.append(event)
        return event

    def since(self, version: int, viewer: Viewer) -> list[LoggedEvent] | None:
        """What `viewer` missed after `version`, or None when only a snapshot can help
        (too far behind, or a version from the future / another incarnation of the table)."""
        if version > self._version:
            return None
        if version == self._version:
            return []
        oldest = self._events[0].version if self._events else self._version + 1
        if version < oldest - 1:
            return None
        return [e for e in self._events if e.version > version and e.visible_to(viewer)]
