"""A socket that cannot reach its table because the table is moving between processes is
told to come back (close code 1012, "service restart"), never refused for good (1008)."""

from __future__ import annotations

import asyncio
import signal

from tests.cluster.test_three_processes import owner_of
from tests.live import demo_password
from tests.processes import Process, RedisServer
from tests.tables.harness import log_in

CLOSE_TABLE_MOVED = 1012


async def test_a_socket_whose_table_owner_froze_is_told_to_come_back(
    cluster_env: dict[str, str], redis_server: RedisServer
) -> None:
    # Long leases: the frozen owner keeps its table while the socket's join waits for it.
    env = {**cluster_env, "SALON_LEASE_SECONDS": "20"}
    processes = [Process(env, name) for name in "AB"]
    for process in processes:
        await asyncio.to_thread(process.start)
    secret = demo_password(env, "member")
    owner: Process | None = None
    try:
        alice = await log_in(processes[0].host, "alice", secret)
        table_id = (await alice.get("/api/tables")).json()[0]["id"]
        await alice.open(table_id)  # the table is taken by one of the processes
        await alice.wait_for(lambda p: p.snapshot is not None)
        await alice.close()
        owner = await owner_of(redis_server, processes, table_id)
        other = next(p for p in processes if p is not owner)

        owner.signal(signal.SIGSTOP)
        page = await log_in(other.host, "bob", secret)
        await page.open(table_id)
        assert page.ws is not None
        await asyncio.wait_for(page.ws.wait_closed(), 15)
        assert page.ws.close_code == CLOSE_TABLE_MOVED, (page.ws.close_code, page.frames)
        for client in (alice, page):
            await client.http.aclose()
    finally:
        if owner is not None:
            owner.signal(signal.SIGCONT)
        for process in processes:
            process.stop()
