"""Who owns which table: a lease per table in Redis, and a heartbeat per process.

A table's lease is the key `{prefix}:table:{id}:owner`, holding the owning process's id,
set only if absent and expiring after `ttl` unless renewed. The lease says who should
serve a table; it does not by itself keep a former owner from writing (a process paused
past its lease wakes up believing it still owns the table): that is the fencing token's
job (app/services/fencing.py), which the new owner raises in Postgres after taking the
lease.

Each process also keeps `{prefix}:proc:{id}` alive while it runs: the others read it to
know whether the process behind a proxied socket or a lease is still there.
"""

from __future__ import annotations

from redis.asyncio import Redis

# Renew only a lease that is still ours; put it back if Redis lost it (a restart without
# persistence), since nobody else can have taken it through Postgres's fence without
# first holding the key; 0 if another process holds it now.
_RENEW = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
# Take over a lease from a process known to be gone, only if it still holds it.
_TAKE_OVER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""
# Let go of a lease only if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    def __init__(self, redis: Redis, prefix: str, process_id: str, ttl_ms: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.process_id = process_id
        self.ttl_ms = ttl_ms
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._take_over = redis.register_script(_TAKE_OVER)

    def owner_key(self, table_id: int) -> str:
        return f"{self.prefix}:table:{table_id}:owner"

    def process_key(self, process_id: str) -> str:
        return f"{self.prefix}:proc:{process_id}"

    async def take(self, table_id: int) -> bool:
        """Take the table's lease if nobody holds it."""
        return bool(
            await self.redis.set(self.owner_key(table_id), self.process_id, nx=True, px=self.ttl_ms)
        )

    async def take_over(self, table_id: int, gone: str) -> bool:
        """Take the table's lease from process `gone` (found dead before its lease lapsed),
        if it still holds it."""
        taken = await self._take_over(
            keys=[self.owner_key(table_id)], args=[gone, self.process_id, self.ttl_ms]
        )
        return bool(taken)

    async def renew(self, table_ids: list[int]) -> dict[int, bool]:
        """Renew these leases in one round trip; False for each one another process holds."""
        if not table_ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._renew(
                    keys=[self.owner_key(table_id)],
                    args=[self.process_id, self.ttl_ms],
                    client=pipe,
                )
            answers = await pipe.execute()
        return {table_id: bool(kept) for table_id, kept in zip(table_ids, answers, strict=True)}

    async def release(self, table_id: int) -> None:
        await self._release(keys=[self.owner_key(table_id)], args=[self.process_id])

    async def owners(self, table_ids: list[int]) -> dict[int, str | None]:
        """Who holds each table's lease (None: nobody; the table is free to take)."""
        if not table_ids:
            return {}
        values = await self.redis.mget([self.owner_key(t) for t in table_ids])
        return {
            table_id: (value.decode() if isinstance(value, bytes) else value)
            for table_id, value in zip(table_ids, values, strict=True)
        }

    async def owner(self, table_id: int) -> str | None:
        return (await self.owners([table_id]))[table_id]

    async def beat(self) -> None:
        """This process is alive for another lease period."""
        await self.redis.set(self.process_key(self.process_id), b"1", px=self.ttl_ms)

    async def alive(self, process_ids: list[str]) -> dict[str, bool]:
        if not process_ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for process_id in process_ids:
                pipe.exists(self.process_key(process_id))
            answers = await pipe.execute()
        return {p: bool(a) for p, a in zip(process_ids, answers, strict=True)}

    async def quit(self) -> None:
        """This process stops: its heartbeat goes at once, so nobody waits for it to lapse."""
        await self.redis.delete(self.process_key(self.process_id))
