"""One serving process on the embedded (SQLite) database.

Each serving process keeps its tables' state in memory: two of them on one SQLite file
would both deal at the same tables. Several processes need PostgreSQL and Redis, which
decide which process runs each table (app/cluster). So `salon serve` on SQLite holds an
exclusive lock on a file next to the database for its whole life; a second one refuses to
start. The operating system releases the lock when the process ends, however it ends (even
`kill -9`), so it never outlives its holder.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from app.commands.preflight import SetupProblem

# The lock held by this process, kept referenced so it lives as long as the process.
_held: list[IO[str]] = []


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".serving")


def hold_embedded_database(database: Path) -> None:
    """Take the serving lock of the SQLite file `database`, or say who holds it."""
    path = lock_path(database)
    try:
        lock = path.open("a+")
    except OSError as error:
        raise SetupProblem(
            f"Cannot create the lock file {path} ({error.strerror}): make its folder "
            "writable by this user."
        ) from None
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or "another process"
        lock.close()
        raise SetupProblem(
            f"Another `salon serve` ({holder}) is already serving the SQLite database "
            f"{database}: the embedded database allows one serving process; to serve with "
            "several, use PostgreSQL and Redis (DATABASE_URL, REDIS_URL)."
        ) from None
    lock.seek(0)
    lock.truncate()
    lock.write(f"process {os.getpid()}")
    lock.flush()
    _held.append(lock)
