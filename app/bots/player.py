"""A computer player at a live table: a connection like a person's socket, and a task.

The table sends the bot's connection exactly the frames a socket of its seat would get
(the same bytes: the actor builds one snapshot per seat and hands it to every connection of
that seat). The bot reads the newest snapshot's ``view``, and when that view offers its
seat an action it waits a human moment, then asks its brain and sends the decision through
the table's queue like any player, with the version it acted on: the turn timer, every
check and the write-ahead apply to it as to a person. The task is the bot's own, so its
thinking never holds the table up.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from app.bots.base import Brain, Decision, legal_choices
from app.errors import SalonError
from app.tables.clock import Clock
from app.tables.commands import Connection
from app.tables.table import ActionRequest

log = logging.getLogger(__name__)

# Where a bot's decisions may be watched (tests compare each view with the seat's own).
Observer = Callable[[Mapping[str, Any], Decision], None]


@dataclass(frozen=True, slots=True)
class Thinking:
    """How long a bot takes over a decision: uniformly between the two, in seconds."""

    shortest: float = 0.8
    longest: float = 2.0

    def pause(self, rng: random.Random) -> float:
        return rng.uniform(self.shortest, self.longest)


class BotPlayer:
    """One bot seated at one table (see the module's text)."""

    def __init__(
        self,
        connection: Connection,
        brain: Brain,
        submit: Callable[[Connection, ActionRequest], Awaitable[Any]],
        clock: Clock,
        thinking: Thinking,
        *,
        rng: random.Random | None = None,
        observer: Observer | None = None,
    ) -> None:
        self.connection = connection
        self.brain = brain
        self.submit = submit
        self.clock = clock
        self.thinking = thinking
        # Not a secret: a bot's choices may be as predictable as a person's.
        self.rng = rng or random.Random()
        self.observer = observer
        self.task: asyncio.Task[None] | None = None
        self._ids = itertools.count(1)
        # The newest snapshot: (table version, view).
        self._latest: tuple[int, dict[str, Any]] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"bot-{self.connection.user_id}")

    def stop(self) -> None:
        self.connection.end(1000)
        if self.task is not None:
            self.task.cancel()

    async def _run(self) -> None:
        acted_on: int | None = None
        while not self.connection.closed:
            await self._read()
            if self._latest is None:
                continue
            version, view = self._latest
            if version == acted_on or not legal_choices(view):
                continue
            await self.clock.sleep_until(self.clock.now() + self.thinking.pause(self.rng))
            self._drain()  # the table may have moved on while the bot thought
            version, view = self._latest
            if not legal_choices(view):
                continue
            acted_on = version
            await self._act(version, view)

    async def _read(self) -> None:
        """Wait for the next frame, then take every frame already there."""
        frame, tracker = await self.connection.outbox.get()
        self._take(frame)
        if tracker is not None:
            tracker.sent()
        self._drain()

    def _drain(self) -> None:
        while not self.connection.outbox.empty():
            frame, tracker = self.connection.outbox.get_nowait()
            self._take(frame)
            if tracker is not None:
                tracker.sent()

    def _take(self, frame: bytes) -> None:
        message = orjson.loads(frame)
        if message.get("type") == "snapshot":
            self._latest = (int(message["version"]), message["view"])

    async def _act(self, version: int, view: dict[str, Any]) -> None:
        decision = self.brain(view, self.rng)
        if self.observer is not None:
            self.observer(view, decision)
        action = decision.action
        cards = action.get("cards")
        request = ActionRequest(
            id=f"bot-{self.connection.user_id}-{version}-{next(self._ids)}",
            action=str(action["action"]),
            card=action.get("card"),
            cards=tuple(cards) if cards is not None else None,
            amount=action.get("amount"),
            version=version,
        )
        try:
            await self.submit(self.connection, request)
        except SalonError as error:
            # A stale view (someone acted first) or the timer's move: the next snapshot
            # shows the table as it is now.
            log.info("bot %s: %s", self.connection.user_id, error.message)
