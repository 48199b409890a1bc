"""Reading the hand history: lists with filters and keyset pagination, one hand with who
may open it, statistics and exports. Everything here reads stored rows (`hands`,
`hand_seats`): no hand is ever re-run to list, filter or count it.

Practice tables play with play money: their hands are left out of every list, statistic
and export unless asked for (`HandFilter.practice`, `statistics(practice=True)`), and
then they come alone, each marked as practice.
"""

from __future__ import annotations

import base64
import binascii
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Select, literal, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Hand, HandSeat, User
from app.db.types import UTCDateTime
from app.errors import InvalidInput, NotFound
from app.i18n import _

MAX_PAGE = 100
SelectT = TypeVar("SelectT", bound=Select[*tuple[Any, ...]])


@dataclass(frozen=True, slots=True)
class HandFilter:
    game: str | None = None
    table_id: int | None = None
    member_id: int | None = None
    since: datetime | None = None  # inclusive
    until: datetime | None = None  # exclusive
    min_pot: int | None = None
    max_pot: int | None = None
    session: int | None = None
    # The practice tables' hands (play money) instead of the club's.
    practice: bool = False


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where a page ended: the last hand's end time and id (newest first)."""

    ended_at: datetime
    hand_id: int

    def encode(self) -> str:
        raw = f"{self.ended_at.isoformat()}|{self.hand_id}".encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Cursor:
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
            moment, hand_id = raw.split("|")
            ended_at = datetime.fromisoformat(moment)
            if ended_at.tzinfo is None:
                raise ValueError("no zone")
            return cls(ended_at.astimezone(UTC), int(hand_id))
        except (ValueError, binascii.Error, UnicodeDecodeError):
            raise InvalidInput(
                "invalid_cursor", _("This page link is not valid: start again from the first page.")
            ) from None


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    user_id: int
    name: str
    username: str
    net: int
    won: bool
    stack_before: int
    stack_after: int
    bourres_paid: int
    brelan: bool


@dataclass(slots=True)
class HandSummary:
    id: int
    table_id: int
    table_name: str
    game: str
    number: int
    session: int
    ended_at: datetime
    pot: int
    # Played at a practice table, with play money.
    practice: bool = False
    players: list[SeatLine] = field(default_factory=list)
    # Display names of those who took chips from the pot, in seat order.
    winners: list[str] = field(default_factory=list)
    my_net: int | None = None

    def seat_of(self, user_id: int) -> int | None:
        return next((p.seat for p in self.players if p.user_id == user_id), None)


def _when(moment: datetime) -> Any:
    return literal(moment, UTCDateTime())


def _by_member(where: HandFilter, member_id: int) -> Select[int, datetime]:
    """Hands one member was dealt in: read from the member's seat rows (their index)."""
    query = (
        select(HandSeat.hand_id, HandSeat.ended_at)
        .join(GameTable, GameTable.id == HandSeat.table_id)
        .where(HandSeat.user_id == member_id, GameTable.practice.is_(where.practice))
    )
    if where.game is not None:
        query = query.where(HandSeat.game == where.game)
    if where.table_id is not None:
        query = query.where(HandSeat.table_id == where.table_id)
    if where.since is not None:
        query = query.where(HandSeat.ended_at >= _when(where.since))
    if where.until is not None:
        query = query.where(HandSeat.ended_at < _when(where.until))
    if where.min_pot is not None or where.max_pot is not None or where.session is not None:
        query = query.join(Hand, Hand.id == HandSeat.hand_id)
        query = _pot_and_session(query, where)
    return query


def _all_hands(where: HandFilter) -> Select[int, datetime | None]:
    return _hand_filters(select(Hand.id, Hand.ended_at), where)


def _hand_filters(query: SelectT, where: HandFilter) -> SelectT:
    """Finished hands matching the filter's game, table, dates, pot and session, read from
    the hands themselves (a member's own list reads their seat rows: `_by_member`)."""
    query = query.join(GameTable, GameTable.id == Hand.table_id).where(
        Hand.ended_at.is_not(None), GameTable.practice.is_(where.practice)
    )
    if where.game is not None:
        query = query.where(GameTable.game == where.game)
    if where.table_id is not None:
        query = query.where(Hand.table_id == where.table_id)
    if where.since is not None:
        query = query.where(Hand.ended_at >= _when(where.since))
    if where.until is not None:
        query = query.where(Hand.ended_at < _when(where.until))
    return _pot_and_session(query, where)


def _pot_and_session(query: SelectT, where: HandFilter) -> SelectT:
    if where.min_pot is not None:
        query = query.where(Hand.pot >= where.min_pot)
    if where.max_pot is not None:
        query = query.where(Hand.pot <= where.max_pot)
    if where.session is not None:
        query = query.where(Hand.session == where.session)
    return query


def _matching(where: HandFilter, member_id: int | None) -> tuple[Select[Any, Any], Any, Any]:
    """The ids and end times of the matching hands, with the two columns to order by."""
    if member_id is not None:
        return _by_member(where, member_id), HandSeat.ended_at, HandSeat.hand_id
    return _all_hands(where), Hand.ended_at, Hand.id


async def list_hands(
    session: AsyncSession,
    where: HandFilter,
    *,
    viewer_id: int,
    everyone: bool,
    cursor: Cursor | None,
    limit: int,
) -> tuple[list[HandSummary], Cursor | None]:
    """A page of hands, newest first. A member (`everyone` False) sees the hands they were
    dealt in; an admin every hand, or a member's with `member_id`."""
    member = viewer_id if not everyone else where.member_id
    query, ended, ident = _matching(where, member)
    if cursor is not None:
        query = query.where(
            tuple_(ended, ident) < tuple_(_when(cursor.ended_at), literal(cursor.hand_id))
        )
    rows = (
        await session.execute(query.order_by(ended.desc(), ident.desc()).limit(limit + 1))
    ).all()
    more = len(rows) > limit
    rows = rows[:limit]
    summaries = await summarise(session, [int(r[0]) for r in rows], viewer_id)
    last = rows[-1] if rows and more else None
    return summaries, Cursor(last[1], int(last[0])) if last is not None else None


async def summarise(
    session: AsyncSession, hand_ids: Sequence[int], viewer_id: int | None
) -> list[HandSummary]:
    """The summaries of these hands, in the order given."""
    if not hand_ids:
        return []
    heads = (
        await session.execute(
            select(
                Hand.id,
                Hand.table_id,
                Hand.number,
                Hand.session,
                Hand.started_at,
                Hand.ended_at,
                Hand.pot,
                GameTable.name,
                GameTable.game,
                GameTable.practice,
            )
            .join(GameTable, GameTable.id == Hand.table_id)
            .where(Hand.id.in_(hand_ids))
        )
    ).all()
    summaries = {
        head.id: HandSummary(
            id=head.id,
            table_id=head.table_id,
            table_name=head.name,
            game=head.game,
            number=head.number,
            session=head.session,
            ended_at=head.ended_at or head.started_at,
            pot=head.pot,
            practice=head.practice,
        )
        for head in heads
    }
    seats = (
        await session.execute(
            select(HandSeat, User.display_name, User.username)
            .join(User, User.id == HandSeat.user_id)
            .where(HandSeat.hand_id.in_(hand_ids))
            .order_by(HandSeat.hand_id, HandSeat.seat_no)
        )
    ).all()
    for row, name, username in seats:
        summary = summaries[row.hand_id]
        summary.players.append(
            SeatLine(
                seat=row.seat_no,
                user_id=row.user_id,
                name=name,
                username=username,
                net=row.net,
                won=row.won,
                stack_before=row.stack_before,
                stack_after=row.stack_after,
                bourres_paid=row.bourres_paid,
                brelan=row.brelan,
            )
        )
        if row.won:
            summary.winners.append(name)
        if row.user_id == viewer_id:
            summary.my_net = row.net
    return [summaries[i] for i in hand_ids if i in summaries]


@dataclass(frozen=True, slots=True)
class OpenedHand:
    hand: Hand
    table: GameTable
    summary: HandSummary
    # The viewer's seat in this hand, None for an admin who did not play it.
    viewer_seat: int | None


async def open_hand(
    session: AsyncSession, hand_id: int, viewer_id: int, *, admin: bool
) -> OpenedHand:
    """A finished hand the viewer may open: one they were dealt in, or any for an admin."""
    found = (
        await session.execute(
            select(Hand, GameTable)
            .join(GameTable, GameTable.id == Hand.table_id)
            .where(Hand.id == hand_id, Hand.running.is_(False))
        )
    ).first()
    summaries = await summarise(session, [hand_id], viewer_id) if found else []
    seat = summaries[0].seat_of(viewer_id) if summaries else None
    if found is None or not summaries or (seat is None and not admin):
        raise NotFound("hand_not_found", _("No such hand among those you played."))
    return OpenedHand(found[0], found[1], summaries[0], seat)


@dataclass(slots=True)
class Tally:
    hands: int = 0
    won: int = 0
    net: int = 0
    bourres_paid: int = 0
    brelans: int = 0

    def add(self, row: Any) -> None:
        self.hands += 1
        self.won += int(row.won)
        self.net += int(row.net)
        self.bourres_paid += int(row.bourres_paid)
        self.brelans += int(row.brelan)

    def as_dict(self) -> dict[str, int]:
        return {
            "hands": self.hands,
            "won": self.won,
            "net": self.net,
            "bourres_paid": self.bourres_paid,
            "brelans": self.brelans,
        }


async def statistics(
    session: AsyncSession, user_id: int, *, practice: bool = False
) -> dict[str, Any]:
    """A member's hands played and won, bourrés paid, brelans and net chips, by game and by
    month (UTC), and their net by day, from their seat rows: at the club's tables, or with
    `practice` at practice tables (play money) alone."""
    rows = (
        await session.execute(
            select(
                HandSeat.game,
                HandSeat.ended_at,
                HandSeat.won,
                HandSeat.net,
                HandSeat.bourres_paid,
                HandSeat.brelan,
            )
            .join(GameTable, GameTable.id == HandSeat.table_id)
            .where(HandSeat.user_id == user_id, GameTable.practice.is_(practice))
            .order_by(HandSeat.ended_at)
        )
    ).all()
    by_game: dict[str, Tally] = defaultdict(Tally)
    by_month: dict[tuple[str, str], Tally] = defaultdict(Tally)
    by_day: dict[str, int] = defaultdict(int)
    for row in rows:
        by_game[row.game].add(row)
        by_month[(row.ended_at.strftime("%Y-%m"), row.game)].add(row)
        by_day[row.ended_at.strftime("%Y-%m-%d")] += int(row.net)
    return {
        "by_game": {game: tally.as_dict() for game, tally in sorted(by_game.items())},
        "by_month": [
            {"month": month, "game": game, **tally.as_dict()}
            for (month, game), tally in sorted(by_month.items())
        ],
        "net_by_day": [{"day": day, "net": net} for day, net in sorted(by_day.items())],
    }


async def hands_in_order(
    session: AsyncSession, where: HandFilter, *, after: Cursor | None, limit: int
) -> list[Hand]:
    """Matching finished hands, oldest first, from `after` on: what exports read, a page
    at a time."""
    query = _hand_filters(select(Hand), where)
    if where.member_id is not None:
        mine = select(HandSeat.hand_id).where(HandSeat.user_id == where.member_id)
        query = query.where(Hand.id.in_(mine))
    if after is not None:
        query = query.where(
            tuple_(Hand.ended_at, Hand.id) > tuple_(_when(after.ended_at), literal(after.hand_id))
        )
    return list((await session.scalars(query.order_by(Hand.ended_at, Hand.id).limit(limit))).all())
