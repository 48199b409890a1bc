"""Sittings: one row per member per time they sat at a table, read back from the ledger.

Nothing is booked twice: a sitting is the run of ledger lines on the member's stack account
`seat:<table>:<member>` that begins with a `buy_in` (sitting down) and ends with the stack
going back to the balance (`cash_out` when standing up, `stranded_return` when an admin
returned chips left behind). Between them: `top_up`s (more bought in) and hand settlements
(chips to and from the pot). Chips a closing table's pot gives back to its payers
(`pot_return`) count as cashed out in that member's last sitting at that table.

- bought in = the buy-in plus every top-up;
- cashed out = what went back to the balance (cash-out, stranded return, pot return);
- at the table = what the stack still holds (a member still seated);
- net = cashed out + at the table - bought in.

Someone who stands up with an empty stack leaves no cash-out line: their sitting ends at its
last ledger line (the hand that emptied the stack), which is what `ended_at` shows then.
A sitting is still open while the member holds that seat (`table_seats`).

House bots sit too, but with the club's chips: the bank lends a bot its buy-in and takes its
stack back when it leaves, so for a bot "bought in" is what the bank lent and "cashed out"
what went back to the bank. Bots are the house's, never members: their sittings are listed
apart (`Party.BOTS`) and settle as one line against the bank (`who_pays_whom`). Practice
tables' stacks are play money (`play_seat` accounts) and never appear here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import NamedTuple

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    Account,
    AccountKind,
    GameTable,
    LedgerEntry,
    LedgerOperation,
    TableSeat,
    TableStatus,
    User,
)
from app.services.ledger import BANK_KEY
from app.services.settlement import Transfer, settle
from app.services.treasury import names_for, table_of_key

RETURNS_TO_BALANCE = frozenset({"cash_out", "stranded_return", "pot_return"})


class Party(StrEnum):
    """Whose sittings: the members' (the default everywhere) or the house bots'."""

    MEMBERS = "members"
    BOTS = "bots"


def _home(key: str) -> bool:
    """Where a stack's chips come from and go back to: a member's balance, or the bank
    for a house bot."""
    return key.startswith("member:") or key == BANK_KEY


@dataclass(slots=True)
class Sitting:
    # The buy-in's ledger operation: a sitting's stable id.
    id: int
    table_id: int
    member_id: int
    started_at: datetime
    ended_at: datetime | None = None
    last_at: datetime | None = None
    bought_in: int = 0
    cashed_out: int = 0
    at_table: int = 0
    closed: bool = False
    # A house bot's sitting (its chips are the bank's), not a member's.
    bot: bool = False
    member_name: str = ""
    table_name: str = ""
    game: str = ""

    @property
    def net(self) -> int:
        return self.cashed_out + self.at_table - self.bought_in

    @property
    def open(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class SittingFilter:
    """Sittings of this member, at this table, that began at or after `since` and before
    `until` (UTC); the members' sittings, or the house bots' (`party`)."""

    member_id: int | None = None
    table_id: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    party: Party = Party.MEMBERS


@dataclass(slots=True)
class _Walk:
    sittings: list[Sitting] = field(default_factory=list)
    current: dict[tuple[int, int], Sitting] = field(default_factory=dict)
    last: dict[tuple[int, int], Sitting] = field(default_factory=dict)

    def begin(self, operation_id: int, table_id: int, member_id: int, at: datetime) -> Sitting:
        self.end_quietly(table_id, member_id)
        sitting = Sitting(operation_id, table_id, member_id, started_at=at, last_at=at)
        self.sittings.append(sitting)
        self.current[(table_id, member_id)] = sitting
        self.last[(table_id, member_id)] = sitting
        return sitting

    def end_quietly(self, table_id: int, member_id: int) -> None:
        """The sitting ended without a cash-out (an empty stack): at its last line."""
        previous = self.current.pop((table_id, member_id), None)
        if previous is not None:
            previous.ended_at = previous.last_at


def _seat_of(key: str, user_id: int | None) -> tuple[int, int] | None:
    table_id = table_of_key(key)
    if table_id is None or user_id is None or not key.startswith("seat:"):
        return None
    return table_id, user_id


async def _lines(
    session: AsyncSession, member_id: int | None, table_id: int | None
) -> list[tuple[int, datetime, str, str, int | None, str, int | None, int]]:
    """Every ledger line on a stack account, and every pot return, oldest first."""
    src = Account.__table__.alias("src")
    dst = Account.__table__.alias("dst")
    query = (
        select(
            LedgerOperation.id,
            LedgerOperation.created_at,
            LedgerOperation.kind,
            src.c.key,
            src.c.user_id,
            dst.c.key,
            dst.c.user_id,
            LedgerEntry.amount,
        )
        .join(LedgerOperation, LedgerEntry.operation_id == LedgerOperation.id)
        .join(src, LedgerEntry.from_account_id == src.c.id)
        .join(dst, LedgerEntry.to_account_id == dst.c.id)
        .where(
            or_(
                src.c.kind == AccountKind.SEAT,
                dst.c.kind == AccountKind.SEAT,
                LedgerOperation.kind == "pot_return",
            )
        )
        .order_by(LedgerEntry.id)
    )
    if member_id is not None:
        query = query.where(or_(src.c.user_id == member_id, dst.c.user_id == member_id))
    if table_id is not None:
        query = query.where(
            or_(
                src.c.key.like(f"seat:{table_id}:%"),
                dst.c.key.like(f"seat:{table_id}:%"),
                src.c.key == f"pot:{table_id}",
            )
        )
    rows = (await session.execute(query)).all()
    return [(a, b, c, d, e, f, g, int(h)) for a, b, c, d, e, f, g, h in rows]


class Line(NamedTuple):
    """One ledger line as the sittings read it."""

    operation_id: int
    at: datetime
    kind: str
    from_key: str
    from_user: int | None
    to_key: str
    to_user: int | None
    amount: int


def read_sittings(lines: Iterable[Line], seated: set[tuple[int, int]]) -> list[Sitting]:
    """The sittings told by `lines` (oldest first); `seated`: (table, member) pairs that
    hold a seat now, whose last sitting is still open. Pure: no database."""
    walk = _Walk()
    for line in lines:
        into = _seat_of(line.to_key, line.to_user)
        out_of = _seat_of(line.from_key, line.from_user)
        if into is not None:
            sitting = walk.current.get(into)
            if line.kind == "buy_in" or sitting is None:
                sitting = walk.begin(line.operation_id, *into, line.at)
            if _home(line.from_key):
                sitting.bought_in += line.amount
            sitting.at_table += line.amount
            sitting.last_at = line.at
        elif out_of is not None:
            sitting = walk.current.get(out_of)
            if sitting is None:
                continue  # chips left from before the ledger kept sittings apart
            sitting.at_table -= line.amount
            sitting.last_at = line.at
            if line.kind in RETURNS_TO_BALANCE and _home(line.to_key):
                sitting.cashed_out += line.amount
                sitting.ended_at = line.at
                walk.current.pop(out_of)
        elif line.kind == "pot_return" and line.to_user is not None:
            table_id = table_of_key(line.from_key)
            if table_id is not None and (earlier := walk.last.get((table_id, line.to_user))):
                earlier.cashed_out += line.amount
    for seat in list(walk.current):
        if seat not in seated:
            walk.end_quietly(*seat)
    return walk.sittings


async def _read(
    session: AsyncSession, member_id: int | None, table_id: int | None
) -> list[Sitting]:
    """Every sitting the ledger tells of (this member's, at this table, if given), each
    marked a house bot's or a member's, not yet named."""
    seated = {
        (table_id, user_id)
        for table_id, user_id in (
            await session.execute(
                select(TableSeat.table_id, TableSeat.user_id)
                .join(GameTable, GameTable.id == TableSeat.table_id)
                .where(GameTable.status != TableStatus.CLOSED)
            )
        ).all()
    }
    lines = await _lines(session, member_id, table_id)
    told = read_sittings((Line(*line) for line in lines), seated)
    bots = set(
        (
            await session.scalars(
                select(User.id).where(
                    User.id.in_({s.member_id for s in told}), User.bot_level.is_not(None)
                )
            )
        ).all()
    )
    for s in told:
        s.bot = s.member_id in bots
    return told


def _matching(told: list[Sitting], where: SittingFilter) -> list[Sitting]:
    """The sittings of `told` that `where` selects, newest first."""
    chosen = [
        s
        for s in told
        if s.bot == (where.party == Party.BOTS)
        and (where.member_id is None or s.member_id == where.member_id)
        and (where.since is None or s.started_at >= where.since)
        and (where.until is None or s.started_at < where.until)
    ]
    chosen.sort(key=lambda s: (s.started_at, s.id), reverse=True)
    return chosen


async def _name(session: AsyncSession, rows: list[Sitting]) -> None:
    """Give `rows` their member's and table's names and the table's game."""
    names = await names_for(session, {s.member_id for s in rows}, {s.table_id for s in rows})
    games = dict(
        (
            await session.execute(
                select(GameTable.id, GameTable.game).where(
                    GameTable.id.in_({s.table_id for s in rows})
                )
            )
        ).all()
    )
    for s in rows:
        s.member_name = names.member(s.member_id)
        s.table_name = names.tables.get(s.table_id, f"table #{s.table_id}")
        s.game = games.get(s.table_id, "")


async def sittings(session: AsyncSession, where: SittingFilter) -> list[Sitting]:
    """The sittings matching `where`, newest first."""
    chosen = _matching(await _read(session, where.member_id, where.table_id), where)
    await _name(session, chosen)
    return chosen


def nets_by_member(rows: list[Sitting]) -> dict[int, int]:
    """Each member's net over `rows` (members who broke even included, at 0)."""
    nets: dict[int, int] = defaultdict(int)
    for s in rows:
        nets[s.member_id] += s.net
    return dict(nets)


@dataclass(frozen=True, slots=True)
class NetRow:
    label: str
    sittings: int
    bought_in: int
    cashed_out: int
    net: int


def nets_by(rows: list[Sitting], key: str) -> list[NetRow]:
    """Totals per game (`key="game"`) or per month of the sitting's start (`"month"`)."""
    groups: dict[str, list[Sitting]] = defaultdict(list)
    for s in rows:
        label = s.game if key == "game" else s.started_at.strftime("%Y-%m")
        groups[label].append(s)
    return [
        NetRow(
            label=label,
            sittings=len(group),
            bought_in=sum(s.bought_in for s in group),
            cashed_out=sum(s.cashed_out for s in group),
            net=sum(s.net for s in group),
        )
        for label, group in sorted(groups.items(), reverse=key == "month")
    ]


# Not a member (ids start at 1): the house, that is the club's bank, in a settlement.
HOUSE = 0
HOUSE_NAME = "The house (club bank)"


@dataclass(frozen=True, slots=True)
class House:
    """The house's side of a settlement, shown apart from the members'.

    `bots_net`: what the house bots won (+) or lost (-) over their sittings, with the
    bank's chips; `in_pots`: chips the members and bots put into pots that no hand has paid
    out yet (a Bourré pot carried to a later hand, antes of a table that never dealt again).
    Both are the club's: the members settle them with the bank."""

    bots_net: int
    in_pots: int

    @property
    def net(self) -> int:
        """What the members owe the house (+) or the house owes them (-), all together."""
        return self.bots_net + self.in_pots


@dataclass(frozen=True, slots=True)
class WhoPaysWhom:
    # (member id, name, net), largest winner first: members only.
    nets: list[tuple[int, str, int]]
    house: House
    # Between members, or between a member and the house (HOUSE).
    transfers: list[Transfer[int]]
    names: dict[int, str]


def who_pays_whom(members: list[Sitting], bots: list[Sitting]) -> WhoPaysWhom:
    """Settle the nets of the members' sittings `members` in few transfers (see
    services.settlement), the house being one more party.

    Every chip a member won came from another member, a house bot or a pot, and every chip
    lost went to one of them; so the members' nets, the bots' net and what stayed in the pots
    sum to zero, and the house's net is minus the members' together. Bots never appear
    among the members: the house stands for all of them at once."""
    if any(s.bot for s in members) or not all(s.bot for s in bots):
        raise ValueError("members' and bots' sittings are settled apart")
    nets = nets_by_member(members)
    names = {s.member_id: s.member_name for s in members}
    bots_net = sum(s.net for s in bots)
    house = House(bots_net=bots_net, in_pots=-sum(nets.values()) - bots_net)
    listed = sorted(((p, names[p], n) for p, n in nets.items()), key=lambda r: (-r[2], r[1]))
    parties = dict(nets)
    if house.net:
        parties[HOUSE] = house.net
    names[HOUSE] = HOUSE_NAME
    order = {party: f"{names[party]}#{party}" for party in parties}
    return WhoPaysWhom(nets=listed, house=house, transfers=settle(parties, order), names=names)


@dataclass(frozen=True, slots=True)
class Sessions:
    """The treasurer's sessions page: the chosen members' sittings, the house bots' (at the
    same tables and dates, whichever member is chosen) and who pays whom."""

    members: list[Sitting]
    bots: list[Sitting]
    settlement: WhoPaysWhom


async def sessions_view(session: AsyncSession, where: SittingFilter) -> Sessions:
    """Everything the sessions page shows, from one read of the ledger. Settling needs
    everyone's nets, so the member filter narrows the members' list, not the settlement;
    the bots' sittings come in as the house."""
    told = await _read(session, None, where.table_id)
    everyone = replace(where, member_id=None)
    members = _matching(told, replace(everyone, party=Party.MEMBERS))
    bots = _matching(told, replace(everyone, party=Party.BOTS))
    await _name(session, members + bots)
    chosen = [s for s in members if where.member_id in (None, s.member_id)]
    return Sessions(chosen, bots, who_pays_whom(members, bots))


async def settlement(session: AsyncSession, where: SittingFilter) -> WhoPaysWhom:
    """Who pays whom over the sittings `where` selects (at one table, in a range)."""
    return (await sessions_view(session, where)).settlement
