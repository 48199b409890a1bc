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
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import Redis

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]

# How long a call to another process may take before the caller gives up (an answer takes
# milliseconds; a dead owner's lease lapses within SALON_LEASE_SECONDS, 3 by default).
REQUEST_SECONDS = 4.0


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
        # When the subscription last broke (time.monotonic()), if it ever did.
        self.reconnected_at: float | None = None
        # Whether this process listens on Redis now.
        self.connected = False

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
            except Exception:  # Redis away: these are lost; requests will time out
                log.warning("could not send %d message(s) to other processes", len(batch))
                await asyncio.sleep(0.2)

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.process_id), self.everyone)
                if not first and self.on_reconnect is not None:
                    self.on_reconnect()
                first = False
                self._subscribed.set()
                self.connected = True
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is not None:
                        await self._deliver(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                self.connected = False
                log.warning("lost the other processes' messages; listening again")
                self.reconnected_at = time.monotonic()
                if self.on_reconnect is not None:
                    self.on_reconnect()
                await asyncio.sleep(0.1)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

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
