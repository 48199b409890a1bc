"""`salon backup PATH` and `salon restore PATH`: the club's database in one file, and back.

SQLite is copied through its online backup API, never as a plain file: the newest commits
of a database in WAL mode may still be in its `-wal` file, and a copy of the main file
alone loses them. The backup is one consistent snapshot taken while the club plays (in WAL
mode a reader never blocks the writer), written as a self-contained file (journal mode
DELETE: no `-wal` beside it).

PostgreSQL is dumped by `pg_dump` (its custom format, one consistent snapshot too) and
restored by `pg_restore` in one transaction, so a restore that fails leaves nothing
behind. They are libpq's own tools: the connection comes from DATABASE_URL through the
environment (app/db/libpq.py), never with the password on the command line.

A restore goes into an empty database only: one that already holds a club is refused, so
that a mistyped DATABASE_URL cannot overwrite a club that is playing. A backup is written
under a temporary name and renamed when complete: a file with the name asked for is a whole
backup. Only its owner may read it (it holds the members' password hashes).
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
import subprocess
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import asyncpg
from sqlalchemy.engine import make_url

from app.commands.preflight import SetupProblem, check_reachable
from app.config import Settings
from app.db.libpq import libpq_environment, libpq_url

Kind = Literal["sqlite", "postgresql"]

# The first bytes of each kind of backup file.
_HEADERS: dict[bytes, Kind] = {b"SQLite format 3\x00": "sqlite", b"PGDMP": "postgresql"}
# How long a SQLite connection waits for the serving process's write lock.
_BUSY_SECONDS = 30.0
_CLIENT_TOOLS = (
    "install PostgreSQL's client tools of the server's version or newer (e.g. "
    "`apt install postgresql-client-{major}`) and put them on PATH"
)


def _kind(settings: Settings) -> Kind:
    return "postgresql" if settings.resolved_database_url.startswith("postgresql") else "sqlite"


def _sqlite_file(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise SetupProblem("DATABASE_URL names an in-memory SQLite database: there is no file.")
    return Path(database)


def _new_file(path: Path) -> None:
    if path.exists():
        raise SetupProblem(f"{path} already exists: give the backup a new name.")
    if not path.parent.is_dir():
        raise SetupProblem(f"The folder {path.parent} does not exist: create it first.")


# Backing up


def backup(settings: Settings, target: Path) -> str:
    """Write the configured database to `target` (a new file); returns what was done."""
    _new_file(target)
    check_reachable(settings)
    url = settings.resolved_database_url
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # Members' password hashes are in it: readable by the operator's user alone.
    partial.touch(mode=0o600)
    try:
        if _kind(settings) == "sqlite":
            source = _sqlite_file(url)
            if not source.exists():
                raise SetupProblem(f"There is no database at {source} to back up.")
            _backup_sqlite(source, partial)
            what = f"the SQLite database {source}"
        else:
            _backup_postgres(url, partial)
            what = f"the PostgreSQL database {make_url(url).database}"
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return f"Backed up {what} to {target} ({target.stat().st_size} bytes)."


def _backup_sqlite(source: Path, target: Path) -> None:
    with (
        closing(sqlite3.connect(source, timeout=_BUSY_SECONDS)) as database,
        closing(sqlite3.connect(target)) as copy,
    ):
        if not _has_table(database, "alembic_version"):
            raise SetupProblem(f"{source} holds no Salon database: there is nothing to back up.")
        # All pages in one step: one read transaction, one snapshot of the database.
        database.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")


def _has_table(connection: sqlite3.Connection, name: str) -> bool:
    found = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return found is not None


def _major(version_line: str) -> int | None:
    """The major version in a tool's `--version` line, e.g. 15 in "pg_dump (PostgreSQL) 15.2"."""
    found = re.search(r"\(PostgreSQL\)\s+(\d+)", version_line)
    return int(found.group(1)) if found else None


async def _server_major(url: str) -> int:
    connection = await asyncpg.connect(libpq_url(url), timeout=10)
    try:
        return int(connection.get_server_version().major)
    finally:
        await connection.close()


def _tool(name: str, server_major: int, by_hand: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SetupProblem(
            f"{name} was not found on PATH: {_CLIENT_TOOLS.format(major=server_major)}, or "
            f"{by_hand}."
        )
    return found


def _check_pg_dump_version(pg_dump: str, server_major: int) -> None:
    """pg_dump refuses a server newer than itself: say so before it tries."""
    line = subprocess.run(  # noqa: S603 (the pg_dump found on PATH)
        [pg_dump, "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    major = _major(line)
    if major is None:
        raise SetupProblem(f"{pg_dump} --version answered {line!r}, not a pg_dump version.")
    if major < server_major:
        raise SetupProblem(
            f"{pg_dump} is version {major}, older than the PostgreSQL {server_major} server, "
            f"which it cannot back up: {_CLIENT_TOOLS.format(major=server_major)} first."
        )


def _backup_postgres(url: str, target: Path) -> None:
    server_major = asyncio.run(_server_major(url))
    pg_dump = _tool(
        "pg_dump",
        server_major,
        "back up by hand on a machine that has them: `pg_dump --format=custom --file PATH` "
        "with the connection of DATABASE_URL",
    )
    _check_pg_dump_version(pg_dump, server_major)
    _run(pg_dump, ["--format=custom", "--file", str(target)], url)


def _run(tool: str, arguments: list[str], url: str) -> None:
    done = subprocess.run(  # noqa: S603 (a PostgreSQL tool found on PATH)
        [tool, *arguments], env=libpq_environment(url), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        # The tools' first error line says what went wrong (the next ones quote the SQL).
        errors = [line for line in lines if "error" in line.lower()]
        said = errors[0] if errors else lines[-1] if lines else f"exit status {done.returncode}"
        raise SetupProblem(f"{Path(tool).name} failed: {said}")


# Restoring


@dataclass(frozen=True, slots=True)
class Contents:
    has_tables: bool
    has_club: bool


def backup_kind(path: Path) -> Kind:
    """What `path` is a backup of, from its first bytes."""
    if not path.is_file():
        raise SetupProblem(f"There is no backup file at {path}.")
    with path.open("rb") as file:
        start = file.read(16)
    for header, kind in _HEADERS.items():
        if start.startswith(header):
            return kind
    raise SetupProblem(
        f"{path} is not a Salon backup (neither a SQLite database nor a pg_dump custom archive)."
    )


def restore(settings: Settings, source: Path) -> str:
    """Restore the backup `source` into the configured database, which must hold no club."""
    kind = backup_kind(source)
    if kind != _kind(settings):
        raise SetupProblem(
            f"{source} is a {_said(kind)} backup but DATABASE_URL names a {_said(_kind(settings))} "
            f"database: restore it into a {_said(kind)} database."
        )
    check_reachable(settings)
    url = settings.resolved_database_url
    if kind == "sqlite":
        target = _sqlite_file(url)
        contents = _sqlite_contents(target)
        _refuse_a_club(contents, str(target))
        _restore_sqlite(source, target)
    else:
        contents = asyncio.run(_postgres_contents(url))
        _refuse_a_club(contents, f"{make_url(url).database} (PostgreSQL)")
        _restore_postgres(source, url, contents)
    return f"Restored {source} into the {_said(kind)} database."


def _said(kind: Kind) -> str:
    return "PostgreSQL" if kind == "postgresql" else "SQLite"


def _refuse_a_club(contents: Contents, where: str) -> None:
    if contents.has_club:
        raise SetupProblem(
            f"The database {where} already holds a club: restore only into an empty "
            "database (a new SQLite file, or a new PostgreSQL database made with createdb); "
            "nothing was changed."
        )


def _sqlite_contents(path: Path) -> Contents:
    if not path.exists():
        return Contents(has_tables=False, has_club=False)
    try:
        with closing(sqlite3.connect(path, timeout=_BUSY_SECONDS)) as database:
            tables = database.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'")
            has_tables = tables.fetchone() is not None
            has_club = _has_table(database, "club") and bool(
                database.execute("SELECT 1 FROM club").fetchone()
            )
    except sqlite3.DatabaseError:
        raise SetupProblem(
            f"{path} is not a SQLite database: restore into a new file; nothing was changed."
        ) from None
    return Contents(has_tables=has_tables, has_club=has_club)


async def _postgres_contents(url: str) -> Contents:
    connection = await asyncpg.connect(libpq_url(url), timeout=10)
    try:
        tables = await connection.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        )
        has_club = await connection.fetchval("SELECT to_regclass('club') IS NOT NULL") and (
            await connection.fetchval("SELECT EXISTS (SELECT 1 FROM club)")
        )
    finally:
        await connection.close()
    return Contents(has_tables=bool(tables), has_club=bool(has_club))


def _restore_sqlite(source: Path, target: Path) -> None:
    read_only = f"{source.resolve().as_uri()}?mode=ro"
    with (
        closing(sqlite3.connect(read_only, uri=True)) as backup_file,
        closing(sqlite3.connect(target, timeout=_BUSY_SECONDS)) as database,
    ):
        if not _has_table(backup_file, "alembic_version"):
            raise SetupProblem(f"{source} holds no Salon database: nothing was restored.")
        backup_file.backup(database)


def _restore_postgres(source: Path, url: str, contents: Contents) -> None:
    server_major = asyncio.run(_server_major(url))
    pg_restore = _tool(
        "pg_restore",
        server_major,
        "restore by hand on a machine that has them: `pg_restore --no-owner --no-privileges "
        "--single-transaction --dbname NAME PATH` with the connection of DATABASE_URL",
    )
    arguments = [
        # The restoring user owns what it creates, whoever owned it where the backup was made.
        "--no-owner",
        "--no-privileges",
        # All or nothing.
        "--single-transaction",
        "--exit-on-error",
    ]
    if contents.has_tables:
        # Migrated but without a club: its empty tables make way for the backup's.
        arguments += ["--clean", "--if-exists"]
    database = make_url(url).database or ""
    _run(pg_restore, [*arguments, "--dbname", database, str(source)], url)
