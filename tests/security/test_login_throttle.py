"""The login throttle's windows on a fake clock: how long each refusal lasts, and that it
lifts when the failures behind it age out (the HTTP behaviour is in tests/api/test_auth.py)."""

from __future__ import annotations

import pytest

from app.errors import RateLimited
from app.security.login_throttle import LoginThrottle


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def refused_for(throttle: LoginThrottle, account: str, address: str) -> int:
    """The seconds the throttle asks to wait; 0 when it lets the attempt through."""
    try:
        throttle.check(account, address)
    except RateLimited as refusal:
        return refusal.retry_after
    return 0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def throttle(clock: FakeClock) -> LoginThrottle:
    return LoginThrottle(per_account=3, per_address=7, window_seconds=100, clock=clock)


def test_a_guesser_waits_until_its_oldest_failure_ages_out(
    throttle: LoginThrottle, clock: FakeClock
) -> None:
    for _ in range(3):
        throttle.failed("owner", "A")
        clock.now += 10
    assert refused_for(throttle, "owner", "A") == 70
    assert refused_for(throttle, "owner", "B") == 0
    clock.now += 70
    assert refused_for(throttle, "owner", "A") == 0


def test_under_attack_an_address_that_failed_waits_for_the_sooner_of_two_reliefs(
    throttle: LoginThrottle, clock: FakeClock
) -> None:
    throttle.failed("owner", "A")  # at 1000: the account's oldest failure
    clock.now += 30
    throttle.failed("owner", "B")  # at 1030: A's newest and only failure is older still
    clock.now += 10
    throttle.failed("owner", "C")  # at 1040: the account is under attack
    # A's own failure ages out at 1100, the account's oldest too: 60 s from now.
    assert refused_for(throttle, "owner", "A") == 60
    # B's own failure ages out at 1130; the account drops below 3 failures at 1100.
    assert refused_for(throttle, "owner", "B") == 60
    assert refused_for(throttle, "owner", "D") == 0
    clock.now += 60
    assert [refused_for(throttle, "owner", a) for a in "ABC"] == [0, 0, 0]


def test_a_spraying_address_waits_for_every_account(
    throttle: LoginThrottle, clock: FakeClock
) -> None:
    for n in range(7):
        throttle.failed(f"member{n}", "A")
    assert refused_for(throttle, "anyone", "A") == 100
    clock.now += 100
    assert refused_for(throttle, "anyone", "A") == 0


def test_the_right_password_clears_its_address_for_that_account_only(
    throttle: LoginThrottle,
) -> None:
    for account in ("owner", "owner", "carol", "carol"):
        throttle.failed(account, "A")
    throttle.succeeded("owner", "A")
    throttle.failed("owner", "A")
    assert refused_for(throttle, "owner", "A") == 0  # 1 failure since, not 3
    throttle.failed("carol", "A")
    assert refused_for(throttle, "carol", "A") > 0  # its 3 failures were not cleared
    assert refused_for(throttle, "anyone", "A") == 0
    throttle.failed("owner", "A")
    # The address's failures overall were not forgotten: 7 of them now.
    assert refused_for(throttle, "anyone", "A") > 0
