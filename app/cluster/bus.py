"""Messages between the processes serving a club, over Redis pub/sub.

Each process listens on its own channel (`{prefix}:proc:{id}`) and on one shared by all
(`{prefix}:all`). Everything it sends goes out through one task, in order, several
messages to one pipeline: a table's frames reach the socket's process in the order the
table sent them. A message is lost if its receiver is not listening at that moment (it
died, or Redis restarted): requests then time out, and a process whose subscription broke
is told (`on_reconnect`) so that it can close the sockets it proxies — their pages
reconnect and catch up by version, as after any reconnect.

`request` is a call to another process with an answer: the answer comes back on the
caller's channel under the request's number.

The subscription is also how a process knows whether Redis is there (`redis_state`): a
restart or an outage breaks it at once. While Redis is away the bus tries again after a
pause that doubles up to `RETRY_CAP_SECONDS` (with jitter, so that the processes of a club
do not all knock at the same instant), and says so once in the log when Redis goes away and
once when it is back — not at every try.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import orjson
from redis.asyncio import Redis
from redis.backoff import EqualJitterBackoff

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]

# How long a call to another process may take before the caller gives up (an answer takes
# milliseconds; a dead owner's lease lapses within SALON_LEASE_SECONDS, 3 by default).
REQUEST_SECONDS = 4.0
# Tries to reach Redis again after a pause of 0.1-0.2 s, doubling up to 1-2 s: back within
# two seconds of Redis's return, at one try every second or two while it is away.
RETRY_BASE_SECONDS = 0.2
RETRY_CAP_SECONDS = 2.0

RedisState = Literal["up", "down"]


class RequestTimedOut(Exception):
    pass


class Bus:
    def __init__(self, redis: Redis, prefix: str, process_id: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.process_id = process_id
        self.handlers: dict[str, Handler] = {}
        self.on_reconnect: Callable[[], None] | None = None
        self._outgoing: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._numbers = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        # Which process each request waiting for its answer went to.
        self._asked: dict[int, str] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._state: RedisState = "down"
        # When Redis was last found back after an outage (time.monotonic()), if it ever was.
        self.back_at: float | None = None
        # Awaited when Redis is back, before the bus says so (the node puts its leases back).
        self.on_back: Callable[[], Awaitable[None]] | None = None
        self._backoff = EqualJitterBackoff(cap=RETRY_CAP_SECONDS, base=RETRY_BASE_SECONDS)

    @property
    def redis_state(self) -> RedisState:
        """Is "up" while this process is subscribed to its channels, "down" from the moment the
        subscription breaks (Redis stopped, restarted or unreachable) until it is back."""
        return self._state

    def channel(self, process_id: str) -> str:
        return f"{self.prefix}:proc:{process_id}"

    @property
    def everyone(self) -> str:
        return f"{self.prefix}:all"

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(), name="bus-listen"),
            asyncio.create_task(self._send_all(), name="bus-send"),
        ]
        await asyncio.wait_for(self._subscribed.wait(), timeout=10)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(RequestTimedOut())

    async def listening(self, process_ids: list[str]) -> dict[str, bool]:
        """Which of these processes listen to their channel now. A process that died lost
        its connection to Redis, and with it its subscription, at once — long before its
        leases lapse."""
        if not process_ids:
            return {}
        counts = dict(await self.redis.pubsub_numsub(*[self.channel(p) for p in process_ids]))
        return {
            p: bool(counts.get(self.channel(p).encode(), counts.get(self.channel(p), 0)))
            for p in process_ids
        }

    def post(self, process_id: str | None, message: dict[str, Any]) -> None:
        """Send without waiting (None: to every process, this one included)."""
        channel = self.everyone if process_id is None else self.channel(process_id)
        self._outgoing.put_nowait((channel, orjson.dumps(message)))

    async def request(self, process_id: str, message: dict[str, Any]) -> dict[str, Any]:
        """Send and wait for the answer (RequestTimedOut after REQUEST_SECONDS)."""
        number = next(self._numbers)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = answer
        self._asked[number] = process_id
        try:
            self.post(process_id, {**message, "from": self.process_id, "number": number})
            async with asyncio.timeout(REQUEST_SECONDS):
                return await answer
        except TimeoutError:
            raise RequestTimedOut() from None
        finally:
            self._waiting.pop(number, None)
            self._asked.pop(number, None)

    def give_up_on(self, process_id: str) -> None:
        """That process died: its answers will never come, so stop waiting for them."""
        for number, asked in list(self._asked.items()):
            waiting = self._waiting.get(number)
            if asked == process_id and waiting is not None and not waiting.done():
                waiting.set_exception(RequestTimedOut())

    def answer(self, request: dict[str, Any], message: dict[str, Any]) -> None:
        self.post(str(request["from"]), {**message, "kind": "answer", "number": request["number"]})

    async def _send_all(self) -> None:
        while True:
            batch = [await self._outgoing.get()]
            while not self._outgoing.empty():
                batch.append(self._outgoing.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    await pipe.execute()
            except Exception as error:  # these are lost; requests will time out
                if self._state == "up":  # an outage is told once, by the listener
                    log.warning(
                        "could not send %d message(s) to other processes (%s)", len(batch), error
                    )
                await asyncio.sleep(0.2)

    async def _listen(self) -> None:
        failures = 0
        lost_at = 0.0
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.process_id), self.everyone)
                if self._subscribed.is_set():  # back after an outage
                    await self._back(time.monotonic() - lost_at)
                failures = 0
                self._state = "up"
                self._subscribed.set()
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is not None:
                        await self._deliver(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self._state == "up":
                    self._state = "down"
                    lost_at = time.monotonic()
                    log.warning(
                        "lost Redis (%s): the other processes' messages stop until it is back;"
                        " trying again every second or two",
                        error or type(error).__name__,
                    )
                    if self.on_reconnect is not None:
                        self.on_reconnect()
                await asyncio.sleep(self._backoff.compute(failures))
                failures = min(failures + 1, 10)  # the pause is at its cap long before
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _back(self, away_seconds: float) -> None:
        self.back_at = time.monotonic()
        if self.on_back is not None:
            try:
                await self.on_back()
            except Exception as error:  # Redis away again: the next break says so
                log.debug("could not act on Redis's return: %s", error)
        if self.on_reconnect is not None:
            self.on_reconnect()
        log.warning(
            "Redis is back after %.1f s: listening to the other processes again", away_seconds
        )

    async def _deliver(self, data: bytes) -> None:
        try:
            message = orjson.loads(data)
        except orjson.JSONDecodeError:
            return
        kind = message.get("kind")
        if kind == "answer":
            waiting = self._waiting.get(message.get("number"))
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
            return
        handler = self.handlers.get(str(kind))
        if handler is None:
            return
        try:
            outcome = handler(message)
            if outcome is not None:
                await outcome
        except Exception:
            log.exception("a %s message from another process failed", kind)
