"""`salon backup` while a table plays, `salon restore` into a new database: the restored club
is the source's at one moment of the backup — every ledger operation up to one, none after,
each account's balance what the source's entries made it then — and `salon restore` audits
it clean with the same chips in circulation. On SQLite (its online backup) and on
PostgreSQL (pg_dump, pg_restore), against a real `salon serve` whose bots play on.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import aliased

from app.db.models import Account, AccountKind, LedgerEntry, LedgerOperation
from app.db.session import Database
from app.services.circulation import circulation
from tests.bot_table import QUICK_PLAY, open_bots_table
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import demo_password, running_server, salon, salon_env
from tests.tables.harness import log_in

OPERATIONS_BEFORE_BACKUP = 3
CIRCULATING = (AccountKind.MEMBER, AccountKind.SEAT, AccountKind.POT)


@dataclass(frozen=True)
class Ledger:
    operations: list[int]
    # (operation, from account key, to account key, amount)
    entries: list[tuple[int, str, str, int]]
    balances: dict[str, int]
    kinds: dict[str, AccountKind]
    circulation: int

    def balances_after(self, operations: set[int]) -> dict[str, int]:
        """Each account's balance had only `operations` been made (every account starts at
        zero and moves only through the ledger)."""
        balances: dict[str, int] = defaultdict(int)
        for operation, source, target, amount in self.entries:
            if operation in operations:
                balances[source] -= amount
                balances[target] += amount
        return {key: balance for key, balance in balances.items() if balance}


async def read_ledger(url: str) -> Ledger:
    db = Database(url, null_pool=True)
    source = aliased(Account)
    target = aliased(Account)
    try:
        async with db.transaction() as session:
            operations = list(
                await session.scalars(select(LedgerOperation.id).order_by(LedgerOperation.id))
            )
            entries = (
                await session.execute(
                    select(LedgerEntry.operation_id, source.key, target.key, LedgerEntry.amount)
                    .join(source, source.id == LedgerEntry.from_account_id)
                    .join(target, target.id == LedgerEntry.to_account_id)
                )
            ).all()
            accounts = (
                await session.execute(select(Account.key, Account.kind, Account.balance))
            ).all()
            held = (await circulation(session)).total
    finally:
        await db.dispose()
    return Ledger(
        operations=operations,
        entries=[(int(o), str(f), str(t), int(a)) for o, f, t, a in entries],
        balances={key: int(balance) for key, _, balance in accounts if balance},
        kinds={key: AccountKind(kind) for key, kind, _ in accounts},
        circulation=held,
    )


async def wait_for_operations(url: str, more_than: int) -> int:
    """Poll until the source's ledger holds more than `more_than` operations."""
    deadline = time.monotonic() + 30
    while True:
        count = len((await read_ledger(url)).operations)
        if count > more_than:
            return count
        assert time.monotonic() < deadline, f"the table made no ledger operation after {more_than}"
        await asyncio.sleep(0.1)


async def start_bots_playing(host: str, admin_password: str) -> None:
    admin = await log_in(host, "admin", admin_password)
    try:
        await open_bots_table(admin, "Backup")
    finally:
        await admin.http.aclose()


@dataclass
class Place:
    """Where a test's club lives and where its backup is restored."""

    env: dict[str, str]
    url: str
    restored_env: dict[str, str]
    restored_url: str


@pytest.fixture(params=["sqlite", "postgres"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Place]:
    if request.param == "sqlite":
        source_dir, restored_dir = tmp_path / "club", tmp_path / "restored"
        yield Place(
            env=salon_env(source_dir, **QUICK_PLAY),
            url=f"sqlite+aiosqlite:///{source_dir / 'salon.db'}",
            restored_env=salon_env(restored_dir),
            restored_url=f"sqlite+aiosqlite:///{restored_dir / 'salon.db'}",
        )
        return
    source_url = create_postgres_database()
    restored_url = create_postgres_database()
    try:
        restored_env = salon_env(tmp_path / "restored", restored_url)
        # A database migrated by habit but holding no club is empty enough to restore into.
        assert salon("migrate", env=restored_env).returncode == 0
        yield Place(
            env=salon_env(tmp_path / "club", source_url, **QUICK_PLAY),
            url=source_url,
            restored_env=restored_env,
            restored_url=restored_url,
        )
    finally:
        drop_postgres_database(source_url)
        drop_postgres_database(restored_url)


def said_number(label: str, output: str) -> int:
    found = re.search(rf"{label}: (\d+)", output)
    assert found, output
    return int(found.group(1))


async def test_a_backup_during_play_restores_one_moment_of_the_club(
    place: Place, tmp_path: Path
) -> None:
    assert salon("migrate", env=place.env).returncode == 0
    assert salon("demo", env=place.env).returncode == 0
    backup_file = tmp_path / "club.backup"
    with running_server(place.env) as base:
        await start_bots_playing(base.removeprefix("http://"), demo_password(place.env, "admin"))
        before = len((await read_ledger(place.url)).operations)
        await wait_for_operations(place.url, before + OPERATIONS_BEFORE_BACKUP)
        last_before_backup = (await read_ledger(place.url)).operations[-1]
        made = salon("backup", str(backup_file), env=place.env)
        assert made.returncode == 0, made.stderr
        assert backup_file.stat().st_mode & 0o777 == 0o600  # password hashes inside
        last_after_backup = (await read_ledger(place.url)).operations[-1]
        # The table played on through the backup.
        await wait_for_operations(place.url, len((await read_ledger(place.url)).operations))

        refused = salon("restore", str(backup_file), env=place.env)
        assert refused.returncode == 2
        assert "already holds a club" in refused.stderr and refused.stdout == ""

    source = await read_ledger(place.url)
    restored_run = salon("restore", str(backup_file), env=place.restored_env)
    assert restored_run.returncode == 0, restored_run.stdout + restored_run.stderr
    assert "ledger OK" in restored_run.stdout
    restored = await read_ledger(place.restored_url)

    # One moment of the source: its operations up to one made during the backup, none after.
    last = restored.operations[-1]
    assert last_before_backup <= last <= last_after_backup
    assert restored.operations == [o for o in source.operations if o <= last]
    assert f"last ledger operation: #{last} " in restored_run.stdout
    # Every balance what the source's entries had made it at that moment.
    moment = source.balances_after(set(restored.operations))
    assert restored.balances == moment
    at_the_moment = sum(b for key, b in moment.items() if source.kinds[key] in CIRCULATING)
    assert restored.circulation == at_the_moment > 0
    assert said_number("chips in circulation", restored_run.stdout) == at_the_moment
