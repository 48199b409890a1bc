"""The treasurer's API: the ledger in names, sittings, who pays whom; JSON and CSV.

The JSON and the CSV of each view take the same filters from the query, so an export is
exactly the lines the page shows (without the paging). Times are UTC.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse

from app.api.admin import KindQuery, as_utc
from app.api.deps import DbDep, csrf_protect, require_admin
from app.api.exports import attachment, csv_chunks, rows_of
from app.api.schemas import Id, Output
from app.services import sessions, treasury

router = APIRouter(
    prefix="/api/admin/treasury",
    tags=["admin"],
    dependencies=[Depends(csrf_protect), Depends(require_admin)],
)


def named_filter(
    member_id: Id | None = None,
    table_id: Id | None = None,
    kind: KindQuery = None,
    since: datetime | None = None,
    until: datetime | None = None,
    practice: bool = False,
) -> treasury.NamedFilter:
    """`practice=true` for the practice tables' play money instead of the club's chips."""
    return treasury.NamedFilter(
        member_id=member_id,
        table_id=table_id,
        kind=kind,
        since=as_utc(since),
        until=as_utc(until),
        practice=practice,
    )


def sitting_filter(
    member_id: Id | None = None,
    table_id: Id | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    party: sessions.Party = sessions.Party.MEMBERS,
) -> sessions.SittingFilter:
    """`party=bots` for the house bots' sittings (their chips are the bank's) instead of the
    members'."""
    return sessions.SittingFilter(
        member_id=member_id,
        table_id=table_id,
        since=as_utc(since),
        until=as_utc(until),
        party=party,
    )


NamedFilterDep = Annotated[treasury.NamedFilter, Depends(named_filter)]
SittingFilterDep = Annotated[sessions.SittingFilter, Depends(sitting_filter)]


def utc_text(moment: datetime | None) -> str:
    """A spreadsheet-friendly UTC time (the column names say UTC)."""
    return "" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S")


class LedgerLinePublic(Output):
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


class LedgerPagePublic(Output):
    lines: list[LedgerLinePublic]
    total: int
    offset: int
    limit: int


@router.get("/ledger")
async def named_ledger(
    db: DbDep,
    where: NamedFilterDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> LedgerPagePublic:
    """Ledger lines in words, newest first, with the total matching the filters."""
    async with db.transaction() as session:
        page = await treasury.named_lines(session, where, limit=limit, offset=offset)
    return LedgerPagePublic(
        lines=[LedgerLinePublic.model_validate(line) for line in page.lines],
        total=page.total,
        offset=page.offset,
        limit=limit,
    )


LEDGER_COLUMNS = (
    "date_utc",
    "kind",
    "from",
    "to",
    "amount",
    "reason",
    "member",
    "table",
    "hand",
    "operation_id",
    "entry_id",
    "from_account",
    "to_account",
)


def ledger_cells(lines: Sequence[treasury.NamedLine]) -> Iterator[Sequence[object]]:
    for line in lines:
        yield (
            utc_text(line.created_at),
            line.kind,
            line.from_name,
            line.to_name,
            line.amount,
            line.reason,
            line.member_name,
            line.table_name,
            line.hand_number,
            line.operation_id,
            line.entry_id,
            line.from_account,
            line.to_account,
        )


@router.get("/ledger.csv", response_class=StreamingResponse)
async def named_ledger_csv(db: DbDep, where: NamedFilterDep) -> StreamingResponse:
    """Every line matching the filters, newest first, one per row."""
    async with db.transaction() as session:
        page = await treasury.named_lines(session, where, limit=None)
    return attachment(
        csv_chunks(LEDGER_COLUMNS, rows_of(ledger_cells(page.lines))),
        "text/csv",
        "salon-ledger-named.csv",
    )


class SittingPublic(Output):
    id: int
    member_id: int
    member_name: str
    table_id: int
    table_name: str
    game: str
    started_at: datetime
    ended_at: datetime | None
    bought_in: int
    cashed_out: int
    at_table: int
    net: int
    # A house bot's sitting: bought in and cashed out are what the bank lent and took back.
    bot: bool


@router.get("/sessions")
async def list_sittings(db: DbDep, where: SittingFilterDep) -> list[SittingPublic]:
    """One row per member per table sitting, newest first (the house bots' with
    `party=bots`)."""
    async with db.transaction() as session:
        rows = await sessions.sittings(session, where)
    return [SittingPublic.model_validate(s) for s in rows]


SESSION_COLUMNS = (
    "start_utc",
    "end_utc",
    "member",
    "table",
    "game",
    "bought_in",
    "cashed_out",
    "at_table",
    "net",
    "member_id",
    "table_id",
    "sitting_id",
    "party",
)


def sitting_cells(rows: Sequence[sessions.Sitting]) -> Iterator[Sequence[object]]:
    for s in rows:
        yield (
            utc_text(s.started_at),
            utc_text(s.ended_at),
            s.member_name,
            s.table_name,
            s.game,
            s.bought_in,
            s.cashed_out,
            s.at_table,
            s.net,
            s.member_id,
            s.table_id,
            s.id,
            "house bot" if s.bot else "member",
        )


@router.get("/sessions.csv", response_class=StreamingResponse)
async def sittings_csv(db: DbDep, where: SittingFilterDep) -> StreamingResponse:
    async with db.transaction() as session:
        rows = await sessions.sittings(session, where)
    name = "salon-house-bots-sessions.csv" if where.party == sessions.Party.BOTS else None
    return attachment(
        csv_chunks(SESSION_COLUMNS, rows_of(sitting_cells(rows))),
        "text/csv",
        name or "salon-sessions.csv",
    )


class NetPublic(Output):
    member_id: int
    name: str
    net: int


class TransferPublic(Output):
    # None for the house (the club's bank).
    payer_id: int | None
    payer: str
    payee_id: int | None
    payee: str
    amount: int


class HousePublic(Output):
    """The house's side, apart from the members': what the house bots won (+) or lost (-)
    with the bank's chips, what lies in pots, and what the members owe it together."""

    name: str
    bots_net: int
    in_pots: int
    net: int


class SettlementPublic(Output):
    # Members only, largest winner first.
    nets: list[NetPublic]
    house: HousePublic
    transfers: list[TransferPublic]


def _party(party: int) -> int | None:
    return None if party == sessions.HOUSE else party


@router.get("/settlement")
async def who_pays_whom(
    db: DbDep,
    table_id: Id | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> SettlementPublic:
    """Who pays whom to settle the nets of every member's sittings that began in the range
    (at one table, if given), the house (bank and bots) being one party shown apart.
    Settling needs everyone's nets, so there is no member filter."""
    where = sessions.SittingFilter(table_id=table_id, since=as_utc(since), until=as_utc(until))
    async with db.transaction() as session:
        view = await sessions.settlement(session, where)
    return SettlementPublic(
        nets=[NetPublic(member_id=p, name=name, net=net) for p, name, net in view.nets],
        house=HousePublic(
            name=sessions.HOUSE_NAME,
            bots_net=view.house.bots_net,
            in_pots=view.house.in_pots,
            net=view.house.net,
        ),
        transfers=[
            TransferPublic(
                payer_id=_party(t.payer),
                payer=view.names[t.payer],
                payee_id=_party(t.payee),
                payee=view.names[t.payee],
                amount=t.amount,
            )
            for t in view.transfers
        ],
    )
