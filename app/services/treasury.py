"""The ledger as a treasurer reads it: names instead of account keys, filters, paging.

Account keys name who holds chips: `bank` (the club), `member:<user>` (a balance),
`seat:<table>:<user>` (a member's stack at a table) and `pot:<table>`. Here each becomes
words ("Club bank", "Alice", "Alice's stack at 'Cajun Bourré'", "pot of 'Cajun Bourré'"),
and each line says which member and table it concerns and, for a hand's settlement, which
hand. Nothing here writes: the ledger itself stays the one record.

Practice tables move play money (`play_*` accounts), never the club's chips: their lines
are left out unless asked for (`NamedFilter.practice`), and then they come alone. (No
entry mixes the two: the ledger refuses it.)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, false, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    PLAY_KINDS,
    Account,
    AccountKind,
    GameTable,
    Hand,
    LedgerEntry,
    LedgerOperation,
    User,
)

BANK_NAME = "Club bank"
PLAY_BANK_NAME = "Play money (practice tables)"


@dataclass(frozen=True, slots=True)
class NamedFilter:
    """Lines touching this member's balance or stacks, this table's stacks or pot, of this
    operation kind, at or after `since` and before `until` (UTC); the club's chips, or
    with `practice` the practice tables' play money instead."""

    member_id: int | None = None
    table_id: int | None = None
    kind: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    practice: bool = False


@dataclass(frozen=True, slots=True)
class NamedLine:
    entry_id: int
    operation_id: int
    created_at: datetime
    kind: str
    reason: str
    from_account: str
    to_account: str
    from_name: str
    to_name: str
    amount: int
    member_id: int | None
    member_name: str | None
    table_id: int | None
    table_name: str | None
    hand_id: int | None
    hand_number: int | None


@dataclass(frozen=True, slots=True)
class Page:
    lines: list[NamedLine]
    total: int
    offset: int
    limit: int

    @property
    def has_next(self) -> bool:
        return self.offset + len(self.lines) < self.total


def table_of_key(key: str) -> int | None:
    """The table a seat or pot account belongs to."""
    parts = key.split(":")
    if parts[0] in (AccountKind.SEAT, AccountKind.POT) and len(parts) >= 2:
        return int(parts[1])
    return None


def hand_of_operation(idempotency_key: str) -> int | None:
    """A hand's settlement is keyed `hand:<hand id>:settle` (see services.hands)."""
    parts = idempotency_key.split(":")
    if len(parts) == 3 and parts[0] == "hand" and parts[2] == "settle" and parts[1].isdigit():
        return int(parts[1])
    return None


@dataclass(frozen=True, slots=True)
class Names:
    """Display names of the members and tables a set of lines mentions."""

    members: dict[int, str]
    tables: dict[int, str]

    def member(self, user_id: int | None) -> str:
        if user_id is None:
            return "?"
        return self.members.get(user_id, f"member #{user_id}")

    def table(self, table_id: int) -> str:
        return f"'{self.tables.get(table_id, f'table #{table_id}')}'"

    def account(self, key: str, kind: str, user_id: int | None) -> str:
        if kind == AccountKind.BANK:
            return BANK_NAME
        if kind == AccountKind.PLAY_BANK:
            return PLAY_BANK_NAME
        if kind == AccountKind.MEMBER:
            return self.member(user_id)
        table_id = table_of_key(key)
        assert table_id is not None
        if kind == AccountKind.SEAT:
            return f"{self.member(user_id)}'s stack at {self.table(table_id)}"
        if kind == AccountKind.PLAY_SEAT:
            return f"{self.member(user_id)}'s play-money stack at {self.table(table_id)}"
        if kind == AccountKind.PLAY_POT:
            return f"play-money pot of {self.table(table_id)}"
        return f"pot of {self.table(table_id)}"


async def names_for(session: AsyncSession, user_ids: set[int], table_ids: set[int]) -> Names:
    members = dict(
        (
            await session.execute(select(User.id, User.display_name).where(User.id.in_(user_ids)))
        ).all()
    )
    tables = dict(
        (
            await session.execute(
                select(GameTable.id, GameTable.name).where(GameTable.id.in_(table_ids))
            )
        ).all()
    )
    return Names(members, tables)


_src = Account.__table__.alias("src")
_dst = Account.__table__.alias("dst")


def _touches_table(table_id: int) -> ColumnElement[bool]:
    seat_prefix = f"seat:{table_id}:%"
    pot = f"pot:{table_id}"
    return or_(
        _src.c.key.like(seat_prefix),
        _dst.c.key.like(seat_prefix),
        _src.c.key == pot,
        _dst.c.key == pot,
    )


def _conditions(where: NamedFilter) -> list[ColumnElement[bool]]:
    play = _src.c.kind.in_(PLAY_KINDS)
    found: list[ColumnElement[bool]] = [play if where.practice else ~play]
    if where.member_id is not None:
        found.append(or_(_src.c.user_id == where.member_id, _dst.c.user_id == where.member_id))
    if where.table_id is not None:
        found.append(_touches_table(where.table_id))
    if where.kind is not None:
        found.append(LedgerOperation.kind == where.kind)
    if where.since is not None:
        found.append(LedgerOperation.created_at >= where.since)
    if where.until is not None:
        found.append(LedgerOperation.created_at < where.until)
    if where.since is not None and where.until is not None and where.since >= where.until:
        found.append(false())
    return found


async def named_lines(
    session: AsyncSession, where: NamedFilter, *, limit: int | None = 50, offset: int = 0
) -> Page:
    """Ledger lines, newest first, in words; `limit=None` for all of them (exports)."""
    conditions = _conditions(where)
    base = (
        select(
            LedgerEntry.id,
            LedgerOperation.id,
            LedgerOperation.created_at,
            LedgerOperation.kind,
            LedgerOperation.reason,
            LedgerOperation.idempotency_key,
            _src.c.key,
            _src.c.kind,
            _src.c.user_id,
            _dst.c.key,
            _dst.c.kind,
            _dst.c.user_id,
            LedgerEntry.amount,
        )
        .join(LedgerOperation, LedgerEntry.operation_id == LedgerOperation.id)
        .join(_src, LedgerEntry.from_account_id == _src.c.id)
        .join(_dst, LedgerEntry.to_account_id == _dst.c.id)
        .where(*conditions)
    )
    total = await session.scalar(select(func.count()).select_from(base.subquery()))
    query = base.order_by(LedgerEntry.id.desc()).offset(offset)
    if limit is not None:
        query = query.limit(limit)
    rows = (await session.execute(query)).all()

    user_ids: set[int] = set()
    table_ids: set[int] = set()
    hand_ids: set[int] = set()
    for row in rows:
        user_ids.update(u for u in (row[8], row[11]) if u is not None)
        table_ids.update(t for t in (table_of_key(row[6]), table_of_key(row[9])) if t is not None)
        if (hand := hand_of_operation(row[5])) is not None:
            hand_ids.add(hand)
    names = await names_for(session, user_ids, table_ids)
    hand_numbers = dict(
        (await session.execute(select(Hand.id, Hand.number).where(Hand.id.in_(hand_ids)))).all()
    )

    lines = []
    for (
        entry_id,
        operation_id,
        created_at,
        kind,
        reason,
        op_key,
        src_key,
        src_kind,
        src_user,
        dst_key,
        dst_kind,
        dst_user,
        amount,
    ) in rows:
        member_id = src_user if src_user is not None else dst_user
        table_id = table_of_key(src_key)
        if table_id is None:
            table_id = table_of_key(dst_key)
        hand_id = hand_of_operation(op_key)
        lines.append(
            NamedLine(
                entry_id=entry_id,
                operation_id=operation_id,
                created_at=created_at,
                kind=kind,
                reason=reason,
                from_account=src_key,
                to_account=dst_key,
                from_name=names.account(src_key, src_kind, src_user),
                to_name=names.account(dst_key, dst_kind, dst_user),
                amount=int(amount),
                member_id=member_id,
                member_name=names.member(member_id) if member_id is not None else None,
                table_id=table_id,
                table_name=names.tables.get(table_id) if table_id is not None else None,
                hand_id=hand_id,
                hand_number=hand_numbers.get(hand_id) if hand_id is not None else None,
            )
        )
    return Page(lines=lines, total=int(total or 0), offset=offset, limit=limit or len(lines))


async def operation_kinds(session: AsyncSession) -> list[str]:
    """Every operation kind the ledger holds, for the filter's choices."""
    return list(
        (
            await session.scalars(
                select(LedgerOperation.kind).distinct().order_by(LedgerOperation.kind)
            )
        ).all()
    )
