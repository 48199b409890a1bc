"""The sliding-window limiter is bounded, and only hits claim its room."""

from __future__ import annotations

import pytest

from app.errors import RateLimited
from app.security.ratelimit import SlidingWindowLimiter


def test_checking_many_new_keys_does_not_push_out_a_counted_one() -> None:
    limiter = SlidingWindowLimiter(1, 60, clock=lambda: 0.0, max_keys=2)
    limiter.hit("guesser")
    for n in range(10):  # cheap refused or clean attempts under ever new names
        limiter.check(f"name{n}")
    with pytest.raises(RateLimited):
        limiter.check("guesser")
