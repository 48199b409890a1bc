"""Sliding-window counters for throttling (login failures, later chat and actions).

The counts live in this process's memory (with several processes, each counts its own); a
limiter is bounded so that a flood of distinct keys cannot grow it without limit.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from app.errors import RateLimited


class SlidingWindowLimiter:
    def __init__(
        self,
        limit: int,
        window_seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.limit = limit
        self.window = window_seconds
        self._clock = clock
        self._max_keys = max_keys
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, key: str) -> deque[float]:
        now = self._clock()
        hits = self._hits.get(key)
        if hits is None:
            hits = deque()
            self._hits[key] = hits
            if len(self._hits) > self._max_keys:
                self._hits.popitem(last=False)
        else:
            self._hits.move_to_end(key)
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        return hits

    def _seen(self, key: str) -> deque[float]:
        # Looking does not make room for a key never hit: only hits (for logins, each a
        # wrong password that cost a verification) may push other keys out of a full limiter.
        return self._recent(key) if key in self._hits else deque()

    def check(self, key: str) -> None:
        """Raise `RateLimited` if `key` has used up its window."""
        retry = self.seconds_until_below(key, self.limit)
        if retry:
            raise RateLimited(retry)

    def seconds_until_below(self, key: str, allowed: int) -> int:
        """0 if `key` has fewer than `allowed` hits in the window; otherwise the whole
        seconds (at least 1) until enough of them age out that it will."""
        hits = self._seen(key)
        if len(hits) < allowed:
            return 0
        return max(1, math.ceil(hits[len(hits) - allowed] + self.window - self._clock()))

    def hit(self, key: str) -> None:
        self._recent(key).append(self._clock())

    def count(self, key: str) -> int:
        """The hits `key` has in the window."""
        return len(self._seen(key))

    def forget_newest(self, key: str, count: int) -> None:
        """Take back `count` hits of `key`, the newest first."""
        hits = self._hits.get(key, deque())
        for _ in range(min(count, len(hits))):
            hits.pop()

    def reset(self, key: str) -> None:
        self._hits.pop(key, None)
