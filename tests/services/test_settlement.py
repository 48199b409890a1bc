"""Who pays whom: every member ends at zero, in at most (members with a net) - 1 transfers."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.services.settlement import settle

nets_that_balance = st.lists(
    st.integers(min_value=-10_000, max_value=10_000), min_size=0, max_size=12
).map(lambda xs: {f"m{i}": x for i, x in enumerate(xs)} | {"last": -sum(xs)})


@given(nets_that_balance)
def test_transfers_settle_every_net(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    received: dict[str, int] = defaultdict(int)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        received[t.payee] += t.amount
        received[t.payer] -= t.amount
    # What each member receives minus what they pay is exactly their net.
    assert {p: received[p] for p in nets} == nets
    nonzero = sum(1 for n in nets.values() if n)
    assert len(transfers) <= max(nonzero - 1, 0)


def test_a_simple_evening() -> None:
    transfers = settle({"ann": 50, "bea": -30, "cyd": -20, "dan": 0})
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [
        ("bea", "ann", 30),
        ("cyd", "ann", 20),
    ]


def test_nets_that_do_not_balance_are_refused() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        settle({"ann": 5, "bea": -4})
