"""What the tables hold in the ledger, checked against what the tables say.

A seat's stack is its ledger account `seat:<table>:<member>`; a table's pot is `pot:<table>`.
Whatever happens, after every committed transaction:
- a seat account holds chips only while its member sits at that table, and the table is
  not closed (standing up and closing empty it in the same transaction);
- a closed table's pot is empty (closing returns it);
- while a hand runs, the pot holds what the hand was dealt with (chips reach the pot only
  when a hand is settled).
Chips that break the first two rules are *stranded*: no table will ever pay them out. The
audit reports them, and `return_stranded` gives them back (an audited ledger operation).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, AccountKind, GameTable, Hand, LedgerEntry, TableSeat, User
from app.db.models import TableStatus as Status
from app.errors import Conflict, NotFound
from app.i18n import _
from app.services import ledger
from app.services import tables as table_service


@dataclass(frozen=True, slots=True)
class Stranded:
    account: str
    table_id: int
    # The member whose seat it was; None for a pot.
    user_id: int | None
    chips: int

    @property
    def problem(self) -> str:
        if self.user_id is None:
            return (
                f"account {self.account}: {self.chips} chips stranded in the pot of closed "
                f"table {self.table_id}"
            )
        return (
            f"account {self.account}: {self.chips} chips stranded: member {self.user_id} "
            f"has no seat at table {self.table_id}"
        )


# A table's accounts, of club chips or of play money (a practice table's).
_SEATS = (AccountKind.SEAT, AccountKind.PLAY_SEAT)
_POTS = (AccountKind.POT, AccountKind.PLAY_POT)


def _table_of(key: str) -> int:
    return int(key.split(":")[1])


async def stranded(session: AsyncSession, account: str | None = None) -> list[Stranded]:
    """Seat accounts holding chips without a seating, and closed tables' pots with chips
    (only `account`'s, when given)."""
    seated = set(
        (
            await session.execute(
                select(TableSeat.table_id, TableSeat.user_id)
                .join(GameTable, GameTable.id == TableSeat.table_id)
                .where(GameTable.status != Status.CLOSED)
            )
        ).all()
    )
    closed = set(
        (await session.scalars(select(GameTable.id).where(GameTable.status == Status.CLOSED))).all()
    )
    holding = (
        await session.execute(
            select(Account.key, Account.kind, Account.user_id, Account.balance)
            .where(
                Account.kind.in_(_SEATS + _POTS),
                Account.balance != 0,
                *([Account.key == account] if account is not None else []),
            )
            .order_by(Account.id)
        )
    ).all()
    found: list[Stranded] = []
    for key, kind, user_id, balance in holding:
        table_id = _table_of(key)
        if kind in _SEATS and (table_id, user_id) not in seated:
            found.append(Stranded(key, table_id, user_id, int(balance)))
        elif kind in _POTS and table_id in closed:
            found.append(Stranded(key, table_id, None, int(balance)))
    return found


async def table_problems(session: AsyncSession) -> list[str]:
    """What the tables say that their accounts do not hold (beyond stranded chips)."""
    problems: list[str] = []
    seats_at_closed = (
        await session.execute(
            select(TableSeat.table_id, TableSeat.user_id)
            .join(GameTable, GameTable.id == TableSeat.table_id)
            .where(GameTable.status == Status.CLOSED)
        )
    ).all()
    problems += [f"table {t} is closed but member {u} still has a seat" for t, u in seats_at_closed]
    for hand in (await session.scalars(select(Hand).where(Hand.running.is_(True)))).all():
        dealt_with = int(hand.header.get("pot", 0))
        pot = await ledger.balance_of(session, table_service.pot_key(hand.table_id))
        if pot != dealt_with:
            problems.append(
                f"table {hand.table_id}: hand {hand.number} was dealt with {dealt_with} chips "
                f"in the pot, but the pot holds {pot}"
            )
    return problems


async def return_stranded(session: AsyncSession, account: str, actor_id: int | None) -> int:
    """Give stranded chips back: a seat's to its member, a closed table's pot to those who
    paid into it. Returns the chips moved. The idempotency key names the last entry that
    touched the account (entry ids are never reused), so a retry moves nothing twice."""
    found = next(iter(await stranded(session, account)), None)
    if found is None:
        raise NotFound(
            "not_stranded", _("No stranded chips in account %(account)s.", account=account)
        )
    last_entry = await session.scalar(
        select(func.max(LedgerEntry.id))
        .join(
            Account,
            or_(Account.id == LedgerEntry.from_account_id, Account.id == LedgerEntry.to_account_id),
        )
        .where(Account.key == account)
    )
    key = f"stranded:{account}:{last_entry}"
    if found.user_id is None:
        table = await table_service.get_table(session, found.table_id)
        returned = await table_service.return_pot(session, table, idempotency_key=key)
        if not returned:
            raise Conflict(
                "no_payers",
                _("Nobody paid into the pot of table %(table_id)s.", table_id=found.table_id),
            )
        return sum(returned.values())
    # The table may be gone (or never have been): then its chips were club chips.
    practice = await session.scalar(
        select(GameTable.practice).where(GameTable.id == found.table_id)
    )
    bot = await session.scalar(select(User.bot_level).where(User.id == found.user_id))
    home = table_service.chips_home(
        practice=bool(practice), user_id=found.user_id, bot=bot is not None
    )
    await ledger.post(
        session,
        idempotency_key=key,
        kind="stranded_return",
        reason=f"Stranded chips returned from table {found.table_id}",
        actor_id=actor_id,
        movements=[ledger.Movement(account, home, found.chips)],
    )
    return found.chips


async def clear_before_sitting(session: AsyncSession, table_id: int, user_id: int) -> int:
    """A member sitting down again where chips of theirs were stranded gets those chips
    back on their balance first (audited), so the new seating starts with its buy-in only."""
    account = table_service.seat_key(table_id, user_id)
    if not await stranded(session, account):
        return 0
    return await return_stranded(session, account, actor_id=None)
