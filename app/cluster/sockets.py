"""Each member's open table sockets, counted over every process serving the club.

A hash per member, `{prefix}:sockets:{member}`, holds how many sockets each process has
open for them. A process that died leaves its count behind; counts of processes whose
heartbeat is gone are dropped whenever the member opens another socket.
"""

from __future__ import annotations

import asyncio
import logging

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from app.cluster.leases import Leases
from app.ws.logins import TooManyConnections

log = logging.getLogger(__name__)

# A member's counts are forgotten a day after their last socket opened.
KEEP_SECONDS = 24 * 3600


class MemberSockets:
    def __init__(self, redis: Redis, prefix: str, leases: Leases) -> None:
        self.redis = redis
        self.prefix = prefix
        self.leases = leases

    def _key(self, user_id: int) -> str:
        return f"{self.prefix}:sockets:{user_id}"

    async def open(self, user_id: int, limit: int) -> None:
        """Count one more socket for the member; TooManyConnections (and nothing counted)
        if they already have `limit` open across the processes."""
        key = self._key(user_id)
        me = self.leases.process_id
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, me, 1)
            pipe.expire(key, KEEP_SECONDS)
            pipe.hgetall(key)
            _, _, counts = await pipe.execute()
        by_process = {
            (p.decode() if isinstance(p, bytes) else p): int(n) for p, n in counts.items()
        }
        others = [p for p in by_process if p != me]
        alive = await self.leases.alive(others)
        dead = [p for p in others if not alive.get(p)]
        if dead:
            await self.redis.hdel(key, *dead)
        total = sum(n for p, n in by_process.items() if p not in dead)
        if total > limit:
            await self.redis.hincrby(key, me, -1)
            raise TooManyConnections()

    async def members_online(self) -> int:
        """Members with a socket open in a live process."""
        keys = [
            key async for key in self.redis.scan_iter(match=f"{self.prefix}:sockets:*", count=500)
        ]
        if not keys:
            return 0
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hgetall(key)
            counts = await pipe.execute()
        processes = {p for c in counts for p in c}
        alive = await self.leases.alive(
            sorted(p.decode() if isinstance(p, bytes) else p for p in processes)
        )
        return sum(
            1
            for c in counts
            if any(
                int(n) > 0 and alive.get(p.decode() if isinstance(p, bytes) else p)
                for p, n in c.items()
            )
        )

    def closed(self, user_id: int) -> None:
        """One socket fewer (counted in the background: a closing socket waits for nothing)."""
        task = asyncio.get_running_loop().create_task(self._uncount(user_id))
        task.add_done_callback(_log_failure)

    async def _uncount(self, user_id: int) -> None:
        await self.redis.hincrby(self._key(user_id), self.leases.process_id, -1)


def _log_failure(task: asyncio.Task[None]) -> None:
    if task.cancelled() or task.exception() is None:
        return
    error = task.exception()
    # Redis away: the sockets closing because of it would each say so; the bus says it once.
    level = logging.DEBUG if isinstance(error, RedisConnectionError) else logging.WARNING
    log.log(level, "could not count a closed socket: %s", error)
