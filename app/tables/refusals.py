"""Writes this process's tables could not make, counted since start-up for /metrics."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class RefusedWrites:
    # Refused by the database because another process owns the table now: this process was
    # paused or cut off past its lease (app/services/fencing.py).
    fenced: int = 0
    # Not made because the database could not be reached or could not write: the one that
    # found it away, then each command refused while the table waits for it to answer again
    # (app/services/outage.py).
    storage: int = 0
