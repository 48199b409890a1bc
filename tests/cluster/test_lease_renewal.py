"""A process keeps renewing its leases while it takes a table over slowly.

Taking a table reads it back from Postgres, which under load may take longer than a lease.
Were the renewals to wait for it, every other lease of the process would lapse, the others
would take those tables, and lapse theirs while taking them: a churn of takeovers that
never settles. Real `salon serve`, real Redis, real Postgres; the slow takeover is a table
row locked by another transaction, so that raising its fencing token waits, while the
process takes it over from a process that died."""

from __future__ import annotations

import asyncio
import time

from sqlalchemy import select, text

from app.db.models import GameTable
from app.db.session import Database
from tests.processes import Process, RedisServer

LEASE_SECONDS = 1.0  # the cluster tests' leases (tests/processes.py)


def owners(redis_server: RedisServer, table_ids: list[int]) -> dict[int, str | None]:
    client = redis_server.client()
    return {t: client.get(f"salon:table:{t}:owner") for t in table_ids}


async def wait_until_owned(redis_server: RedisServer, table_ids: list[int], by: str) -> None:
    deadline = time.monotonic() + 30
    while set(owners(redis_server, table_ids).values()) != {by}:
        assert time.monotonic() < deadline, owners(redis_server, table_ids)
        await asyncio.sleep(0.1)


async def test_leases_are_renewed_while_a_table_is_taken_over_slowly(
    cluster_env: dict[str, str], redis_server: RedisServer
) -> None:
    db = Database(cluster_env["DATABASE_URL"], null_pool=True)
    process = Process(cluster_env, "A")
    await asyncio.to_thread(process.start)
    try:
        async with db.transaction() as session:
            open_ids = sorted(
                await session.scalars(select(GameTable.id).where(GameTable.status != "closed"))
            )
        assert len(open_ids) >= 2
        me = process.process_id
        await wait_until_owned(redis_server, open_ids, me)
        slow, others = open_ids[0], open_ids[1:]

        async with db.transaction() as session:
            # Another transaction holds the table's row: raising its token waits.
            await session.execute(
                text("select fence from game_tables where id = :id for update"), {"id": slow}
            )
            # Another process took the table's lease, and died: this one gives the table up
            # at its next renewal, and takes it over at a scan once the other is found dead,
            # slowly.
            redis_server.client().set(f"salon:table:{slow}:owner", "gone-process")
            deadline = time.monotonic() + 10
            while owners(redis_server, [slow])[slow] != me:
                assert time.monotonic() < deadline, "the table was not taken over"
                await asyncio.sleep(0.05)
            # For three lease periods of that takeover, every other lease stays the process's.
            watch_until = time.monotonic() + 3 * LEASE_SECONDS
            while time.monotonic() < watch_until:
                held = owners(redis_server, others)
                assert set(held.values()) == {me}, held
                await asyncio.sleep(0.05)
        # The row let go, the process serves every table again.
        await wait_until_owned(redis_server, open_ids, me)
    finally:
        await asyncio.to_thread(process.stop)
        await db.dispose()
