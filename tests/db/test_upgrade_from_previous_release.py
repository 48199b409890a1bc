"""An upgrade from the previous release (migrations/releases.toml) with its server playing.

The previous release's source is exported from git and run as it was: it migrates a fresh
PostgreSQL database, and its `salon serve` deals hands at a table of bots. This checkout's
`salon migrate` then upgrades the database under that running server, which must play on
unharmed; then the old server stops and this checkout's starts on the same database (the
documented order, docs/backups-and-upgrades.md): the old hands are listed with the same
table logs, they replay, the ledger audits clean and no chip moved across the upgrade.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text

from app.db.models import LedgerOperation
from app.db.session import Database
from app.services.circulation import circulation
from tests.bot_table import QUICK_PLAY, open_bots_table
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import RestartableServer, demo_password, salon, salon_env
from tests.releases import export_source, previous_release
from tests.tables.harness import Player, log_in

HANDS_BEFORE_UPGRADE = 2


@pytest.fixture
def database() -> Iterator[str]:
    url = create_postgres_database()
    try:
        yield url
    finally:
        drop_postgres_database(url)


async def scalar(url: str, query: Any) -> Any:
    db = Database(url, null_pool=True)
    try:
        async with db.transaction() as session:
            return await session.scalar(query)
    finally:
        await db.dispose()


async def hands_over(url: str) -> int:
    """Hands ended (read with SQL both schemas have: the new models may name new columns)."""
    return int(await scalar(url, text("SELECT count(*) FROM hands WHERE ended_at IS NOT NULL")))


async def wait_for_hands(url: str, more_than: int, server: RestartableServer) -> int:
    deadline = time.monotonic() + 60
    while (count := await hands_over(url)) <= more_than:
        assert server.process is not None and server.process.poll() is None, server.log.read_text()
        assert time.monotonic() < deadline, f"no hand ended after {more_than}"
        await asyncio.sleep(0.1)
    return count


async def hand_logs(admin: Player) -> dict[int, Any]:
    """Every hand the server lists, by id, with its table log."""
    listed = await admin.http.get("/api/hands", params={"limit": 100})
    assert listed.status_code == 200, listed.text
    logs = {}
    for hand in listed.json()["hands"]:
        log = await admin.http.get(f"/api/hands/{hand['id']}/log.json")
        assert log.status_code == 200, log.text
        logs[int(hand["id"])] = log.json()
    return logs


async def paused(admin: Player, table_id: int, url: str) -> None:
    """Pause the table and wait for its hand to end: then no chip moves."""
    answer = await admin.post(f"/api/tables/{table_id}/pause")
    assert answer.status_code == 200, answer.text
    deadline = time.monotonic() + 30
    running = "SELECT count(*) FROM hands WHERE ended_at IS NULL"
    while await scalar(url, text(running)):
        assert time.monotonic() < deadline, "the paused table's hand did not end"
        await asyncio.sleep(0.1)


async def test_the_previous_release_upgrades_under_its_running_server(
    database: str, tmp_path: Path
) -> None:
    release = previous_release()
    old_source = export_source(release, tmp_path / "previous-release")
    env = salon_env(tmp_path / "data", database, **QUICK_PLAY)
    (tmp_path / "data").mkdir()

    # The previous release, as its operators run it.
    migrated = salon("migrate", env=env, source=old_source)
    assert migrated.returncode == 0, migrated.stderr
    schema = await scalar(database, text("SELECT version_num FROM alembic_version"))
    assert schema == release.schema, "migrations/releases.toml names another schema"
    assert salon("demo", env=env, source=old_source).returncode == 0
    old = RestartableServer(env, source=old_source, log_name="previous-release.log")
    old.start()
    try:
        admin = await log_in(old.host, "admin", demo_password(env, "admin"))
        table_id = await open_bots_table(admin, "Upgrade")
        await wait_for_hands(database, HANDS_BEFORE_UPGRADE - 1, old)

        # This checkout's migrations, under the old server while it deals.
        upgraded = salon("migrate", env=env)
        assert upgraded.returncode == 0, upgraded.stderr
        assert old.process is not None and old.process.poll() is None, old.log.read_text()
        # The old server plays on over the new schema, and still answers.
        await wait_for_hands(database, await hands_over(database), old)
        assert (await admin.http.get("/api/health")).status_code == 200

        await paused(admin, table_id, database)
        logs_before = await hand_logs(admin)
        await admin.http.aclose()
    finally:
        old.stop()
    # Stopped as a service manager stops it (Uvicorn ends by re-raising the SIGTERM), not
    # crashed: no traceback in its whole log.
    said = old.log.read_text()
    assert old.process.returncode in (0, -signal.SIGTERM), said
    assert "Finished server process" in said and "Traceback" not in said, said
    assert len(logs_before) >= HANDS_BEFORE_UPGRADE

    async def chips() -> tuple[int, int]:
        db = Database(database, null_pool=True)
        try:
            async with db.transaction() as session:
                last = await session.scalar(select(func.max(LedgerOperation.id)))
                return (await circulation(session)).total, int(last or 0)
        finally:
            await db.dispose()

    before = await chips()
    new = RestartableServer(env, log_name="this-release.log")
    new.start()
    try:
        admin = await log_in(new.host, "admin", demo_password(env, "admin"))
        after_upgrade = await hand_logs(admin)
        # The same hands, with the same table logs.
        assert {h: after_upgrade[h] for h in logs_before} == logs_before
        assert await chips() == before
        await admin.http.aclose()
    finally:
        new.stop()
    oldest = min(logs_before)
    log_file = tmp_path / "hand.json"
    log_file.write_text(json.dumps(logs_before[oldest]))
    replayed = salon("replay", str(log_file), env=env)
    assert replayed.returncode == 0, replayed.stderr
    audit = salon("audit", env=env)
    assert audit.returncode == 0 and "ledger OK" in audit.stdout, audit.stdout
