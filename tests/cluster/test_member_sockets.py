"""A member's table sockets are counted over every process: eight at most, wherever the
load balancer sent each of them; a closed one frees its place."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from websockets.exceptions import InvalidStatus

from app.cluster.leases import Leases
from app.cluster.sockets import MemberSockets
from app.ws.logins import MAX_SOCKETS_PER_MEMBER
from tests.cluster.test_three_processes import start_processes
from tests.live import demo_password
from tests.processes import RedisServer
from tests.tables.harness import Player, log_in


async def members_online(redis_server: RedisServer) -> int:
    """What the admins' dashboard counts, read by a process of its own."""
    redis = Redis.from_url(redis_server.url)
    try:
        return await MemberSockets(
            redis, "salon", Leases(redis, "salon", "probe", 1000)
        ).members_online()
    finally:
        await redis.aclose()


async def test_the_socket_limit_holds_across_processes(
    cluster_env: dict[str, str], redis_server: RedisServer
) -> None:
    processes = await start_processes(cluster_env)
    secret = demo_password(cluster_env, "member")
    pages: list[Player] = []
    try:
        logged_in = await log_in(processes[0].host, "alice", secret)
        lobby = (await logged_in.get("/api/tables")).json()
        table_id = lobby[0]["id"]
        for n in range(MAX_SOCKETS_PER_MEMBER):
            page = Player(processes[n % len(processes)].host, "alice")
            page.http.cookies = logged_in.http.cookies
            await page.open(table_id)
            await page.wait_for(lambda p: p.snapshot is not None)
            pages.append(page)
        assert await members_online(redis_server) == 1  # alice, on three processes
        for process in processes:  # one more is refused on every process
            extra = Player(process.host, "alice")
            extra.http.cookies = logged_in.http.cookies
            with pytest.raises(InvalidStatus) as refused:
                await extra.open(table_id)
            assert refused.value.response.status_code == 403
            await extra.http.aclose()
        await pages[0].close()
        # Counted as closed in the background: the place frees up within moments.
        again = Player(processes[2].host, "alice")
        again.http.cookies = logged_in.http.cookies
        for _ in range(100):
            try:
                await again.open(table_id)
                break
            except InvalidStatus:
                await asyncio.sleep(0.05)
        await again.wait_for(lambda p: p.snapshot is not None)
        pages.append(again)
        await logged_in.http.aclose()
    finally:
        for page in pages:
            await page.close()
            await page.http.aclose()
        for process in processes:
            process.stop()
