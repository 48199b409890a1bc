"""Where the club's chips are: one definition, read by the dashboard, the audit (`salon
audit`, the admin API) and the treasurer's overview alike.

Chips in circulation are what the bank has issued and not taken back (minus the bank's
balance). They sit on members' balances, in members' stacks at the tables, in the house
bots' stacks (chips the bank lent the bots: the house's, never the members') and in the
tables' pots. "Held by members" is the first two together. Play money (practice tables'
`play_*` accounts) is never among them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, AccountKind, User


@dataclass(frozen=True, slots=True)
class Circulation:
    balances: int
    # Members' stacks at the club's tables.
    stacks: int
    # The house bots' stacks: lent by the bank.
    bot_stacks: int
    pots: int

    @property
    def held_by_members(self) -> int:
        return self.balances + self.stacks

    @property
    def held_by_the_house(self) -> int:
        return self.bot_stacks + self.pots

    @property
    def total(self) -> int:
        return self.held_by_members + self.held_by_the_house

    def said(self) -> str:
        """In one line, as `salon audit` prints it."""
        return (
            f"held by members: {self.held_by_members} (balances {self.balances} + stacks "
            f"{self.stacks})  house bots' stacks: {self.bot_stacks}  in pots: {self.pots}"
        )


async def circulation(session: AsyncSession) -> Circulation:
    rows = (
        await session.execute(
            select(Account.kind, User.bot_level, Account.balance)
            .outerjoin(User, User.id == Account.user_id)
            .where(
                Account.kind.in_((AccountKind.MEMBER, AccountKind.SEAT, AccountKind.POT)),
                Account.balance != 0,
            )
        )
    ).all()
    held = {"balances": 0, "stacks": 0, "bot_stacks": 0, "pots": 0}
    for kind, bot_level, balance in rows:
        if kind == AccountKind.MEMBER:
            held["balances"] += int(balance)
        elif kind == AccountKind.POT:
            held["pots"] += int(balance)
        else:
            held["bot_stacks" if bot_level is not None else "stacks"] += int(balance)
    return Circulation(**held)
