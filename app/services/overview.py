"""The dashboard's overview: what is happening in the club now and over the last 30 days.

Where the club's chips are is `services.circulation`'s one definition. Practice tables are
play money: their hands are counted apart (`practice_hands_today`), never in the club's
hands, charts or largest pot.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Hand, TableStatus
from app.db.types import utcnow
from app.services.circulation import Circulation, circulation

CHART_DAYS = 30


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: int
    # 0-100: the bar's height relative to the chart's tallest.
    percent: int


@dataclass(frozen=True, slots=True)
class Overview:
    tables_open: int
    tables_dealing: int
    hands_today: int
    # Hands finished today at practice tables (play money), counted apart.
    practice_hands_today: int
    circulation: Circulation
    hands_per_day: list[Bar]
    average_pot_per_day: list[Bar]
    largest_pot: int


def _bars(days: list[date], values: dict[date, int]) -> list[Bar]:
    tallest = max((values.get(d, 0) for d in days), default=0) or 1
    return [
        Bar(d.strftime("%m-%d"), values.get(d, 0), round(100 * values.get(d, 0) / tallest))
        for d in days
    ]


async def overview(session: AsyncSession, now: datetime | None = None) -> Overview:
    now = now or utcnow()
    today = datetime.combine(now.date(), time(), tzinfo=now.tzinfo)
    first_day = today - timedelta(days=CHART_DAYS - 1)
    tables = dict(
        (
            await session.execute(
                select(GameTable.status, func.count())
                .where(GameTable.status != TableStatus.CLOSED)
                .group_by(GameTable.status)
            )
        ).all()
    )
    dealing = await session.scalar(
        select(func.count(func.distinct(Hand.table_id))).where(Hand.running.is_(True))
    )
    finished = (
        await session.execute(
            select(Hand.ended_at, Hand.pot, GameTable.practice)
            .join(GameTable, GameTable.id == Hand.table_id)
            .where(Hand.ended_at.is_not(None), Hand.ended_at >= first_day)
        )
    ).all()
    ended = [(at, pot) for at, pot, practice in finished if not practice]
    practice_today = sum(
        1 for at, _, practice in finished if practice and at is not None and at >= today
    )
    hands: dict[date, int] = defaultdict(int)
    pots: dict[date, int] = defaultdict(int)
    for ended_at, pot in ended:
        assert ended_at is not None  # the query asks for finished hands
        hands[ended_at.date()] += 1
        pots[ended_at.date()] += int(pot)
    days = [(first_day + timedelta(days=n)).date() for n in range(CHART_DAYS)]
    average = {d: pots[d] // hands[d] for d in hands}
    return Overview(
        tables_open=int(sum(tables.values())),
        tables_dealing=int(dealing or 0),
        hands_today=hands.get(today.date(), 0),
        practice_hands_today=practice_today,
        circulation=await circulation(session),
        hands_per_day=_bars(days, hands),
        average_pot_per_day=_bars(days, average),
        largest_pot=max((int(p) for _, p in ended), default=0),
    )
