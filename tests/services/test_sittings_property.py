"""Sittings read from any evening's ledger add up to what the evening moved."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from app.services.sessions import Line, read_sittings

TABLE = 1
POT = f"pot:{TABLE}"
START = datetime(2026, 1, 1, tzinfo=UTC)

steps = st.lists(
    st.tuples(
        st.sampled_from(["sit", "top_up", "lose", "win", "stand", "pot_return"]),
        st.integers(min_value=1, max_value=3),
        st.integers(min_value=1, max_value=50),
    ),
    max_size=60,
)


class Evening:
    """Plays `steps` at one table as the services would post them, keeping the truth."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.stacks: dict[int, int] = {}  # seated members only
        self.pot = 0
        self.bought: dict[int, int] = defaultdict(int)
        self.cashed: dict[int, int] = defaultdict(int)
        self.sat: dict[int, int] = defaultdict(int)

    def post(
        self, kind: str, src: tuple[str, int | None], dst: tuple[str, int | None], n: int
    ) -> None:
        at = START + timedelta(minutes=len(self.lines))
        self.lines.append(Line(len(self.lines) + 1, at, kind, *src, *dst, n))

    def play(self, step: tuple[str, int, int]) -> None:
        what, member, amount = step
        seat = (f"seat:{TABLE}:{member}", member)
        balance = (f"member:{member}", member)
        if what == "sit" and member not in self.stacks:
            self.post("buy_in", balance, seat, amount)
            self.stacks[member] = amount
            self.bought[member] += amount
            self.sat[member] += 1
        elif what == "top_up" and member in self.stacks:
            self.post("top_up", balance, seat, amount)
            self.stacks[member] += amount
            self.bought[member] += amount
        elif what == "lose" and self.stacks.get(member, 0) > 0:
            paid = min(amount, self.stacks[member])
            self.post("settlement", seat, (POT, None), paid)
            self.stacks[member] -= paid
            self.pot += paid
        elif what == "win" and member in self.stacks and self.pot > 0:
            won = min(amount, self.pot)
            self.post("settlement", (POT, None), seat, won)
            self.stacks[member] += won
            self.pot -= won
        elif what == "stand" and member in self.stacks:
            if self.stacks[member]:
                self.post("cash_out", seat, balance, self.stacks[member])
                self.cashed[member] += self.stacks[member]
            del self.stacks[member]
        elif what == "pot_return" and self.sat[member] and self.pot > 0:
            returned = min(amount, self.pot)
            self.post("pot_return", (POT, None), balance, returned)
            self.cashed[member] += returned
            self.pot -= returned


@given(steps)
def test_sittings_add_up_to_the_ledger(plan: list[tuple[str, int, int]]) -> None:
    evening = Evening()
    for step in plan:
        evening.play(step)
    seated = {(TABLE, member) for member in evening.stacks}
    sittings = read_sittings(evening.lines, seated)

    for member in (1, 2, 3):
        mine = [s for s in sittings if s.member_id == member]
        assert len(mine) == evening.sat[member]
        assert sum(s.bought_in for s in mine) == evening.bought[member]
        assert sum(s.cashed_out for s in mine) == evening.cashed[member]
        still = evening.stacks.get(member, 0)
        assert sum(s.net for s in mine) == evening.cashed[member] + still - evening.bought[member]
        # Only the last sitting of a member still seated is open, holding their stack.
        assert [s.open for s in mine] == [member in evening.stacks and s is mine[-1] for s in mine]
        assert [s.at_table for s in mine if not s.open] == [0] * sum(not s.open for s in mine)
        if mine and mine[-1].open:
            assert mine[-1].at_table == still
    # What the members lost together is exactly what lies in the pot.
    assert sum(s.net for s in sittings) == -evening.pot
