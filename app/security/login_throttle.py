"""The login throttle: failed guesses slow their source down, never the account's owner.

Failures are counted over a sliding window in three ways, and a login attempt is refused
(`rate_limited`, with the seconds to wait) before its password is even checked when:

- its address has failed `per_account` times against this account: it is refused *for this
  account*, even with the right password — the guesser at one address;
- its address has failed `per_address` times against any accounts: it is refused *for every
  account* — password spraying from one address;
- the account has had `per_account` failures from all addresses together and this address
  is one of them (it has failed against the account at least once): the guesser spread over
  many addresses gets about one guess per address per window once the account is under
  attack, each also paying for an Argon2 verification.

An address with no failure against the account is never refused because of what other
addresses did, so the owner logs in with the right password during an attack from
elsewhere; a successful login forgets that address's failures against that account. The
keys are the name as typed (lowered) and the client's address as the app sees it (behind a
trusted proxy, the forwarded one): nothing here depends on whether the account exists, so
a refusal says nothing about it.

The counters live in this process's memory: with several processes, each counts its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from app.errors import RateLimited
from app.security.ratelimit import SlidingWindowLimiter


class LoginThrottle:
    def __init__(
        self,
        *,
        per_account: int,
        per_address: int,
        window_seconds: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._per_pair = SlidingWindowLimiter(per_account, window_seconds, clock=clock)
        self._per_address = SlidingWindowLimiter(per_address, window_seconds, clock=clock)
        self._per_account = SlidingWindowLimiter(per_account, window_seconds, clock=clock)

    def check(self, account: str, address: str) -> None:
        """Raise `RateLimited` if `address` may not try a password for `account` now."""
        pair = _pair(account, address)
        attacked = self._per_account.seconds_until_below(account, self._per_account.limit)
        # Under attack, an address that failed against the account waits until either its
        # own failures against it or the account's surplus of failures age out.
        as_a_guesser = min(attacked, self._per_pair.seconds_until_below(pair, 1))
        retry = max(
            self._per_pair.seconds_until_below(pair, self._per_pair.limit),
            self._per_address.seconds_until_below(address, self._per_address.limit),
            as_a_guesser,
        )
        if retry:
            raise RateLimited(retry)

    def failed(self, account: str, address: str) -> None:
        self._per_pair.hit(_pair(account, address))
        self._per_address.hit(address)
        self._per_account.hit(account)

    def succeeded(self, account: str, address: str) -> None:
        """The right password: this address's failures against this account are forgotten,
        and no longer count toward the account being under attack. Its failures overall
        stay, so that logging in to one's own account cannot launder a spray."""
        pair = _pair(account, address)
        # The account's newest failures are taken back in their stead: what remains ages
        # out no later than the exact remainder would, which errs toward the owner.
        self._per_account.forget_newest(account, self._per_pair.count(pair))
        self._per_pair.reset(pair)


def _pair(account: str, address: str) -> str:
    # An address never contains a newline, so no two pairs share a key.
    return f"{address}\n{account}"
