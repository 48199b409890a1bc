"""Redis goes away and comes back, under real `salon serve` processes.

While it is away a process says so once in its log (and once when it is back), answers
`/api/health` with 503 `degraded` so that a load balancer sends elsewhere, and tries to
reach it again after a growing pause instead of ten times a second. Across restarts —
empty or with its data, short or long — the owner of a table keeps it: no other process
ever takes it (its fencing token in PostgreSQL never moves), the hand goes on, and the
chips add up."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx

from app.db.session import Database
from tests.cluster.test_three_processes import (
    DB,
    act_once,
    close_everything,
    finish_hand,
    open_table,
    owner_of,
    reconnect,
    seat_players,
    start_processes,
    table_fence,
    wait_for_hand,
)
from tests.live import demo_password, salon
from tests.processes import Process, RedisServer
from tests.tables.harness import Player, log_in
from tests.tables.test_crash_group_commit import stored_times

LOST = "lost Redis"
BACK = "Redis is back"
RESTARTS = 10


async def health(process: Process) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient() as http:
        answer = await http.get(f"http://{process.host}/api/health", timeout=5)
    return answer.status_code, answer.json()


async def wait_for_health(process: Process, status: int, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        code, body = await health(process)
        if code == status:
            return body
        assert time.monotonic() < deadline, (code, body)
        await asyncio.sleep(0.05)


async def test_health_says_when_redis_is_away_and_the_log_says_it_once(
    cluster_env: dict[str, str], redis_server: RedisServer
) -> None:
    process = Process(cluster_env, "A")
    await asyncio.to_thread(process.start)
    try:
        assert await health(process) == (
            200,
            {"status": "ok", "database": "postgresql", "redis": "up"},
        )
        for outage in range(2):
            redis_server.kill(keep_data=outage == 1)
            degraded = await wait_for_health(process, 503, 5)
            assert degraded["status"] == "degraded"
            assert degraded["redis"] == "down"
            assert degraded["database"] == "postgresql"
            assert "Redis" in degraded["reason"]
            # Three seconds away, Redis's port hanging up on whoever knocks (as a proxy in
            # front of a dead Redis would): the process knocks a few times, not thirty.
            knocks = await count_knocks(redis_server.port, process, seconds=3)
            assert knocks <= 12, knocks
            redis_server.start()
            back = await wait_for_health(process, 200, 10)
            assert back == {"status": "ok", "database": "postgresql", "redis": "up"}
        log = process.log.read_text()
        assert log.count(LOST) == 2, log
        assert log.count(BACK) == 2, log
        assert "lost the other processes' messages" not in log
        assert "cluster upkeep failed" not in log
        assert "could not send" not in log
    finally:
        process.stop()


async def count_knocks(port: int, process: Process, *, seconds: float) -> int:
    """How many connections the process opens to `port` in that time, each hung up on at
    once; meanwhile its health stays degraded."""
    knocks = 0

    async def hang_up(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal knocks
        knocks += 1
        writer.close()

    server = await asyncio.start_server(hang_up, "127.0.0.1", port, reuse_address=True)
    try:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            assert (await health(process))[0] == 503
            await asyncio.sleep(0.1)
    finally:
        server.close()
        await server.wait_closed()
    return knocks


async def test_the_owner_keeps_its_table_through_ten_redis_restarts(
    cluster_env: dict[str, str], redis_server: RedisServer
) -> None:
    processes = await start_processes(cluster_env)
    db = Database(cluster_env["DATABASE_URL"], null_pool=True)
    DB[:] = [db]
    players: list[Player] = []
    admin: Player | None = None
    rng = random.Random(27)
    sent: list[str] = []
    try:
        admin = await log_in(processes[0].host, "admin", demo_password(cluster_env, "admin"))
        table_id = await open_table(admin)
        players = await seat_players(processes, cluster_env, table_id)
        owner = await owner_of(redis_server, processes, table_id)
        await wait_for_hand(players)
        assert await act_once(players, rng, sent)
        assert await table_fence(db, table_id) == 1

        for restart in range(RESTARTS):
            # Every other time Redis keeps its data, and every other pair it stays away
            # until the owner has noticed (a longer outage, leases expired on its return).
            redis_server.kill(keep_data=restart % 2 == 0)
            if restart % 4 >= 2:
                await wait_for_health(owner, 503, 5)
            redis_server.start()
            for process in processes:
                await wait_for_health(process, 200, 10)
            await owner_back(redis_server, owner, table_id)
            assert await table_fence(db, table_id) == 1, f"the table moved at restart {restart}"

            # Pages whose socket was closed reconnect; the table deals and answers.
            for player, process in zip(players, processes, strict=True):
                await reconnect(player, process, table_id)
            await wait_for_hand(players)
            assert await act_once(players, rng, sent)
            assert (await owner_of(redis_server, processes, table_id)) is owner
            assert await table_fence(db, table_id) == 1, f"the table moved at restart {restart}"

        number = await wait_for_hand(players)
        await finish_hand(players, number, rng, sent)
        assert set((await stored_times(db, sent)).values()) == {1}
        for process in processes:
            log = process.log.read_text()
            if process is not owner:
                assert f"table {table_id}: now served here" not in log
            # Each process told each outage once, and nothing else of it.
            assert log.count(LOST) == RESTARTS, log
            assert log.count(BACK) == RESTARTS, log
            assert "cluster upkeep failed" not in log
    finally:
        await close_everything(players, admin, processes, db)
    audit = salon("audit", env=cluster_env)
    assert audit.returncode == 0, audit.stdout


async def owner_back(redis_server: RedisServer, owner: Process, table_id: int) -> None:
    """Wait until the table's lease is held again (by whom is the caller's question)."""
    client = redis_server.client()
    deadline = time.monotonic() + 10
    while client.get(f"salon:table:{table_id}:owner") is None:
        assert time.monotonic() < deadline, "nobody holds the table's lease"
        await asyncio.sleep(0.02)
    assert client.get(f"salon:table:{table_id}:owner") == owner.process_id
