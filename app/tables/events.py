"""A table's versioned event log, with who may see each event.

Every change at a table gets the next version number. An event is either public or meant
for some seats only (a player's own cards); each viewer is sent only what it may see, so a
viewer's versions have gaps, which is fine: a client only remembers the last version it saw.
A client that reconnects with that version gets the events it missed, or — if they have
already left the bounded window — `None`, meaning "send a full snapshot instead".

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
