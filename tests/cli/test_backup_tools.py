"""`salon backup` on PostgreSQL without the right `pg_dump`: one sentence saying what to
install (the server's major version, read from the server), exit 2, no file written.

A machine without PostgreSQL's client tools is shown by a PATH that holds none; an older
client than the server by a `pg_dump` on PATH that answers an old version, as an old
install would (this machine has only the server's own version).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from app.db.libpq import libpq_url
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import salon, salon_env


@pytest.fixture
def empty_postgres() -> Iterator[str]:
    url = create_postgres_database()
    try:
        yield url
    finally:
        drop_postgres_database(url)


async def server_major(url: str) -> int:
    connection = await asyncpg.connect(libpq_url(url))
    try:
        return int(connection.get_server_version().major)
    finally:
        await connection.close()


def test_without_pg_dump_on_path_backup_says_what_to_install(
    empty_postgres: str, tmp_path: Path
) -> None:
    nothing = tmp_path / "bin"
    nothing.mkdir()
    env = salon_env(tmp_path, empty_postgres, PATH=str(nothing))
    target = tmp_path / "club.dump"
    done = salon("backup", str(target), env=env)
    major = asyncio.run(server_major(empty_postgres))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("salon: pg_dump was not found on PATH")
    assert f"postgresql-client-{major}" in done.stderr
    assert "pg_dump --format=custom" in done.stderr  # and how to do it by hand
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""
    assert list(tmp_path.glob("club.dump*")) == []


def test_a_pg_dump_older_than_the_server_is_refused_before_it_runs(
    empty_postgres: str, tmp_path: Path
) -> None:
    old_tools = tmp_path / "bin"
    old_tools.mkdir()
    old = old_tools / "pg_dump"
    old.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = --version ]; then echo "pg_dump (PostgreSQL) 9.6.24"; exit 0; fi\n'
        'echo ran >> "$(dirname "$0")/ran"\n'
    )
    old.chmod(0o755)
    env = salon_env(tmp_path, empty_postgres, PATH=str(old_tools))
    done = salon("backup", str(tmp_path / "club.dump"), env=env)
    major = asyncio.run(server_major(empty_postgres))
    assert done.returncode == 2, done.stderr
    assert f"is version 9, older than the PostgreSQL {major} server" in done.stderr
    assert f"postgresql-client-{major}" in done.stderr
    assert not (old_tools / "ran").exists()  # asked its version only
    assert list(tmp_path.glob("club.dump*")) == []


def test_restore_refuses_what_is_not_a_backup_of_this_kind_of_database(tmp_path: Path) -> None:
    env = salon_env(tmp_path / "data")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a backup")
    done = salon("restore", str(notes), env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"salon: {notes} is not a Salon backup (neither a SQLite database nor a pg_dump "
        "custom archive).\n"
    )
    archive = tmp_path / "club.dump"
    archive.write_bytes(b"PGDMP\x01\x0e\x00")
    done = salon("restore", str(archive), env=env)
    assert done.returncode == 2
    assert "is a PostgreSQL backup but DATABASE_URL names a SQLite database" in done.stderr
    assert not (tmp_path / "data" / "salon.db").exists()  # nothing was made
