"""Hand histories: a member's hands and statistics, one hand replayed for its viewer, its
table log and printed record, and the exports.

Who sees what: a member lists and opens only the hands they were dealt in, and sees each one
as they saw it at the table (`app.services.hand_replay`); the seed, which derives every
hidden card, reaches them only once the club's reveal policy has revealed the hand, and with
it the full table log. Admins see every hand in full, marked as such.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import PlainTextResponse, StreamingResponse

from app.api.admin import as_utc
from app.api.deps import CurrentCaller, DbDep, csrf_protect, require_admin
from app.api.exports import attachment, csv_chunks
from app.api.schemas import (
    GameKey,
    HandDetailPublic,
    HandPagePublic,
    HandPlayerPublic,
    HandStatsPublic,
    HandSummaryPublic,
    Id,
)
from app.db.models import Hand
from app.db.session import Database
from app.errors import Conflict, Forbidden, InvalidInput
from app.i18n import _
from app.services import history
from app.services.hand_replay import ReplayContext, Viewer, dealt_deck, hand_steps
from app.services.hand_results import public_report
from app.services.hand_text import hand_record
from app.services.time_words import reader_zone

router = APIRouter(prefix="/api/hands", tags=["hands"], dependencies=[Depends(csrf_protect)])
admin_router = APIRouter(
    prefix="/api/admin/hands",
    tags=["admin"],
    dependencies=[Depends(csrf_protect), Depends(require_admin)],
)

GameQuery = Annotated[GameKey | None, Query()]
PotQuery = Annotated[int | None, Query(ge=0, le=10**15)]


def hand_filter(
    game: GameQuery = None,
    table_id: Id | None = None,
    member_id: Id | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    min_pot: PotQuery = None,
    max_pot: PotQuery = None,
    practice: bool = False,
) -> history.HandFilter:
    """The filters every hand listing takes from the query (times without a zone are UTC);
    `practice=true` for the practice tables' hands (play money) instead of the club's."""
    return history.HandFilter(
        game=game,
        table_id=table_id,
        member_id=member_id,
        since=as_utc(since),
        until=as_utc(until),
        min_pot=min_pot,
        max_pot=max_pot,
        practice=practice,
    )


HandFilterDep = Annotated[history.HandFilter, Depends(hand_filter)]


def summary_public(summary: history.HandSummary) -> HandSummaryPublic:
    return HandSummaryPublic(
        id=summary.id,
        table_id=summary.table_id,
        table_name=summary.table_name,
        game=summary.game,
        number=summary.number,
        ended_at=summary.ended_at,
        pot=summary.pot,
        practice=summary.practice,
        players=[
            HandPlayerPublic(seat=p.seat, name=p.name, username=p.username, net=p.net, won=p.won)
            for p in summary.players
        ],
        winners=summary.winners,
        my_net=summary.my_net,
    )


@router.get("")
async def list_hands(
    caller: CurrentCaller,
    db: DbDep,
    where: HandFilterDep,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=history.MAX_PAGE)] = 25,
) -> HandPagePublic:
    """Hands, newest first: a member's own (those they were dealt in); an admin's, every
    hand (or a member's, with `member_id`)."""
    if where.member_id is not None and not caller.is_admin:
        raise Forbidden("admin_only", _("Only the club's admins can list another member's hands."))
    after = history.Cursor.decode(cursor) if cursor else None
    async with db.transaction() as session:
        page, following = await history.list_hands(
            session,
            where,
            viewer_id=caller.user.id,
            everyone=caller.is_admin,
            cursor=after,
            limit=limit,
        )
    return HandPagePublic(
        hands=[summary_public(s) for s in page],
        next_cursor=following.encode() if following else None,
    )


@router.get("/stats")
async def statistics(caller: CurrentCaller, db: DbDep, practice: bool = False) -> HandStatsPublic:
    """The caller's hands played and won, bourrés paid, brelans and net, by game and by
    month, and their net by day (UTC): at the club's tables, or with `practice=true` at
    practice tables (play money) alone."""
    async with db.transaction() as session:
        stats = await history.statistics(session, caller.user.id, practice=practice)
    return HandStatsPublic.model_validate(stats)


MY_COLUMNS = (
    "hand_id",
    "ended_at",
    "table_id",
    "table_name",
    "game",
    "number",
    "seat",
    "pot",
    "stack_before",
    "stack_after",
    "net",
    "won",
    "bourres_paid",
    "brelan",
    # "true" for a practice table's hand (play money; only with practice=true).
    "practice",
)


def _seat_cells(summary: history.HandSummary, line: history.SeatLine) -> list[object]:
    return [
        summary.id,
        summary.ended_at,
        summary.table_id,
        summary.table_name,
        summary.game,
        summary.number,
        line.seat,
        summary.pot,
        line.stack_before,
        line.stack_after,
        line.net,
        line.won,
        line.bourres_paid,
        line.brelan,
        summary.practice,
    ]


async def _pages(
    db: Database, where: history.HandFilter, viewer_id: int, everyone: bool
) -> AsyncIterator[history.HandSummary]:
    """Every matching hand, newest first, a page (one short transaction) at a time."""
    cursor: history.Cursor | None = None
    while True:
        async with db.transaction() as session:
            page, cursor = await history.list_hands(
                session,
                where,
                viewer_id=viewer_id,
                everyone=everyone,
                cursor=cursor,
                limit=history.MAX_PAGE,
            )
        for summary in page:
            yield summary
        if cursor is None:
            return


@router.get("/mine.csv", response_class=StreamingResponse)
async def my_results_csv(caller: CurrentCaller, db: DbDep, where: HandFilterDep) -> Any:
    """The caller's result in each hand they were dealt in, newest first, as CSV."""
    me = caller.user.id
    mine = replace(where, member_id=None)  # one's own hands only, whoever asks

    async def rows() -> AsyncIterator[Sequence[object]]:
        async for summary in _pages(db, mine, me, everyone=False):
            for line in summary.players:
                if line.user_id == me:
                    yield _seat_cells(summary, line)

    return attachment(csv_chunks(MY_COLUMNS, rows()), "text/csv", "salon-my-hands.csv")


async def _opened(db: DbDep, hand_id: int, caller: CurrentCaller) -> history.OpenedHand:
    async with db.transaction() as session:
        return await history.open_hand(session, hand_id, caller.user.id, admin=caller.is_admin)


def _steps(opened: history.OpenedHand, full: bool) -> list[dict[str, Any]]:
    hand, table, summary = opened.hand, opened.table, opened.summary
    seated = {p.seat: (p.name, p.username) for p in summary.players}
    context = ReplayContext(
        table={
            "id": table.id,
            "name": table.name,
            "game": table.game,
            "status": table.status,
            "rules": table.rules,
            "seat_count": table.seat_count,
            "buy_in_min": table.buy_in_min,
            "buy_in_max": table.buy_in_max,
            "turn_seconds": table.turn_seconds,
        },
        number=hand.number,
        commitment=hand.commitment,
        seated=seated,
        result=_result(hand),
        stacks_after={p.seat: p.stack_after for p in summary.players},
    )
    viewer = Viewer(seat=None, full=True) if full else Viewer(seat=opened.viewer_seat)
    actions = list((hand.entry or {}).get("actions", []))
    return hand_steps(hand.header, hand.players, hand.seed, actions, context, viewer)


def _result(hand: Hand) -> dict[str, Any]:
    return public_report(hand.result or {})


def _full(caller: CurrentCaller) -> bool:
    """Admins see every hand in full. A member sees what they saw at the table, even once
    the seed is public: the hand page replays their seat; the seed and the table log
    are there for whoever wants to check everything."""
    return caller.is_admin


def _seed(opened: history.OpenedHand, caller: CurrentCaller) -> str | None:
    return opened.hand.seed if caller.is_admin or opened.hand.revealed else None


@router.get("/{hand_id}")
async def hand_detail(hand_id: Id, caller: CurrentCaller, db: DbDep) -> HandDetailPublic:
    """One hand, replayed step by step as the caller saw it (an admin: every card)."""
    opened = await _opened(db, hand_id, caller)
    full = _full(caller)
    return HandDetailPublic.model_validate(
        {
            "hand": summary_public(opened.summary),
            "full": full,
            "viewer_seat": None if full else opened.viewer_seat,
            "revealed": opened.hand.revealed,
            "commitment": opened.hand.commitment,
            "seed": _seed(opened, caller),
            **_fairness(opened, caller),
            "result": _result(opened.hand),
            "steps": _steps(opened, full),
        }
    )


def _fairness(opened: history.OpenedHand, caller: CurrentCaller) -> dict[str, Any]:
    """What the Verify panel needs besides the seed, shown with the seed and only then."""
    hand = opened.hand
    if _seed(opened, caller) is None:
        return {}
    return {
        "server_seed": hand.server_seed,
        "contributions": hand.contributions,
        "deck": dealt_deck(hand.header, hand.players, hand.seed),
    }


def table_log(hand: Hand) -> dict[str, Any]:
    """The hand as a table log (spec/table-log.md): its header and its one entry."""
    return {**hand.header, "hands": [hand.entry]}


@router.get("/{hand_id}/log.json")
async def hand_log(hand_id: Id, caller: CurrentCaller, db: DbDep) -> dict[str, Any]:
    """The hand's table log, which `salon replay` re-runs to its stored result: to admins,
    and to its players once the hand's seed is revealed (the seed shows every card)."""
    opened = await _opened(db, hand_id, caller)
    if not caller.is_admin and not opened.hand.revealed:
        raise Conflict(
            "not_revealed",
            _(
                "This hand's table log shows every card, so it is available once the hand's "
                "seed is revealed (when the table's session ends)."
            ),
        )
    return table_log(opened.hand)


@router.get("/{hand_id}/log.txt", response_class=PlainTextResponse)
async def hand_text(
    hand_id: Id,
    caller: CurrentCaller,
    db: DbDep,
    # The reader's IANA time zone, as their browser names it ("Europe/Paris"); without one,
    # or with a name that is no zone, the record's time is in UTC. Either way it names it.
    tz: Annotated[str | None, Query()] = None,
) -> PlainTextResponse:
    """The hand as a printed record, showing what the caller may see of it."""
    opened = await _opened(db, hand_id, caller)
    full = _full(caller)
    steps = _steps(opened, full)
    zone = reader_zone(tz)
    text = hand_record(opened.summary, steps, _seed(opened, caller), full, zone)
    return PlainTextResponse(text)


# Hands read per transaction while an export streams.
EXPORT_BATCH = 200
EXPORT_COLUMNS = (
    "hand_id",
    "ended_at",
    "table_id",
    "table_name",
    "game",
    "number",
    "session",
    "seat",
    "member_id",
    "username",
    "pot",
    "stack_before",
    "stack_after",
    "net",
    "won",
    "bourres_paid",
    "brelan",
    "practice",
)


@admin_router.get("/export", response_class=StreamingResponse)
async def export_hands(
    db: DbDep,
    where: HandFilterDep,
    session: Annotated[int | None, Query(ge=1, le=2_147_483_647)] = None,
    format: Literal["jsonl", "csv"] = "jsonl",
) -> Any:
    """Every matching hand, oldest first, in one file: JSON lines (each hand with its
    players, full result, seed and table log) or CSV (one row per player and hand)."""
    if session is not None and where.table_id is None:
        raise InvalidInput("session_needs_table", _("Give the table whose session you want."))
    chosen = replace(where, session=session)

    async def hands() -> AsyncIterator[tuple[Hand, history.HandSummary]]:
        after: history.Cursor | None = None
        while True:
            async with db.transaction() as tx:
                batch = await history.hands_in_order(tx, chosen, after=after, limit=EXPORT_BATCH)
                summaries = await history.summarise(tx, [h.id for h in batch], None)
            for hand, summary in zip(batch, summaries, strict=True):
                yield hand, summary
            if len(batch) < EXPORT_BATCH:
                return
            last = batch[-1]
            after = history.Cursor(last.ended_at or last.started_at, last.id)

    if format == "csv":

        async def rows() -> AsyncIterator[Sequence[object]]:
            async for hand, summary in hands():
                for line in summary.players:
                    cells = _seat_cells(summary, line)
                    yield [
                        *cells[:6],
                        hand.session,
                        line.seat,
                        line.user_id,
                        line.username,
                        *cells[7:],
                    ]

        return attachment(csv_chunks(EXPORT_COLUMNS, rows()), "text/csv", "salon-hands.csv")

    async def lines() -> AsyncIterator[str]:
        async for hand, summary in hands():
            record = {
                **summary_public(summary).model_dump(mode="json", exclude={"my_net"}),
                "session": hand.session,
                "commitment": hand.commitment,
                "seed": hand.seed,
                "revealed": hand.revealed,
                "result": hand.result,
                "log": table_log(hand),
            }
            yield json.dumps(record, ensure_ascii=False) + "\n"

    return attachment(lines(), "application/x-ndjson", "salon-hands.jsonl")
