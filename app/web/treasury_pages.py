"""The treasurer's pages: the ledger in names, sittings and who pays whom, chip requests,
a member's page; and the member's own chip request form on their account page.

Filters come from the page's query (a GET form, so a filtered page can be bookmarked; its
`member` and `table` are ids, or empty for "every"), and the CSV link beside each view
carries the same filters to the API export. Dates are whole days in UTC; "to" includes its
day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import Caller, DbDep, OptionalCaller, csrf_protect
from app.api.schemas import FormId, Id
from app.db.models import ChipRequestStatus, GameTable, User
from app.errors import InvalidInput, SalonError
from app.i18n import _, pgettext
from app.services import chip_requests, ledger, members, overview, sessions, treasury
from app.tables.latency import LatencyRecorder
from app.web.admin_guards import ADMIN_PAGE_GUARDS, PageAdmin
from app.web.admin_words import said
from app.web.pages import redirect, render, render_account
from app.ws.logins import LoginSockets

PAGE_SIZE = 50

admin_router = APIRouter(
    prefix="/admin",
    tags=["pages"],
    default_response_class=HTMLResponse,
    dependencies=ADMIN_PAGE_GUARDS,
)
member_router = APIRouter(
    tags=["pages"], default_response_class=HTMLResponse, dependencies=[Depends(csrf_protect)]
)

QueryText = Annotated[str, Query(max_length=32)]
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_KIND = re.compile(r"[a-z_]{1,32}")


def _day(value: str, field: str) -> date | None:
    if not value:
        return None
    try:
        if not _DAY.fullmatch(value):
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidInput(
            "invalid_input", _("%(field)s must be a date (YYYY-MM-DD).", field=field)
        ) from None


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Filters:
    """The page's filters as typed (to refill the form) and as the services take them."""

    member: str
    table: str
    kind: str
    since: str
    until: str
    # "practice" for the practice tables' play money instead of the club's chips.
    chips: str
    member_id: int | None
    table_id: int | None
    since_at: datetime | None
    until_at: datetime | None

    @property
    def practice(self) -> bool:
        return self.chips == "practice"

    def export_query(self, *, with_kind: bool = True, party: str | None = None) -> str:
        """The same filters for the API's CSV export (times in UTC); `party="bots"` for
        the house bots' sessions."""
        query: dict[str, str | int] = {}
        if self.member_id is not None:
            query["member_id"] = self.member_id
        if self.table_id is not None:
            query["table_id"] = self.table_id
        if with_kind and self.kind:
            query["kind"] = self.kind
        if self.since_at is not None:
            query["since"] = self.since_at.strftime("%Y-%m-%dT%H:%M:%S")
        if self.until_at is not None:
            query["until"] = self.until_at.strftime("%Y-%m-%dT%H:%M:%S")
        if self.practice:
            query["practice"] = "true"
        if party is not None:
            query["party"] = party
            query.pop("member_id", None)
        return urlencode(query)

    def page_query(self, page: int) -> str:
        typed = {"member": self.member, "table": self.table, "kind": self.kind}
        typed |= {"since": self.since, "until": self.until, "chips": self.chips}
        typed["page"] = str(page)
        return urlencode({k: v for k, v in typed.items() if v})


def filters(
    member: Annotated[FormId, Query()] = None,
    table: Annotated[FormId, Query()] = None,
    kind: QueryText = "",
    since: QueryText = "",
    until: QueryText = "",
    chips: QueryText = "",
) -> Filters:
    if kind and not _KIND.fullmatch(kind):
        raise InvalidInput("invalid_input", _("Unknown kind of movement."))
    if chips not in ("", "practice"):
        raise InvalidInput("invalid_input", _("Chips are the club's or practice play money."))
    first, last = _day(since, pgettext("dates", "From")), _day(until, pgettext("dates", "To"))
    return Filters(
        member="" if member is None else str(member),
        table="" if table is None else str(table),
        kind=kind,
        since=since,
        until=until,
        chips=chips,
        member_id=member,
        table_id=table,
        since_at=_midnight(first) if first else None,
        until_at=_midnight(last + timedelta(days=1)) if last else None,
    )


FiltersDep = Annotated[Filters, Depends(filters)]


async def _choices(session: AsyncSession) -> dict[str, Any]:
    """What the filter forms offer: every member and every table, closed ones included."""
    return {
        "members": (
            await session.execute(
                select(User.id, User.display_name, User.username).order_by(User.display_name)
            )
        ).all(),
        "tables": (
            await session.execute(
                select(GameTable.id, GameTable.name, GameTable.status).order_by(GameTable.id.desc())
            )
        ).all(),
    }


@admin_router.get("/ledger")
async def ledger_page(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    where: FiltersDep,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> Response:
    named = treasury.NamedFilter(
        member_id=where.member_id,
        table_id=where.table_id,
        kind=where.kind or None,
        since=where.since_at,
        until=where.until_at,
        practice=where.practice,
    )
    async with db.transaction() as session:
        lines = await treasury.named_lines(
            session, named, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        context = await _choices(session)
        kinds = await treasury.operation_kinds(session)
    return await render(
        request,
        db,
        caller,
        "admin_ledger.html",
        lines=lines,
        kinds=kinds,
        filters=where,
        page=page,
        **context,
    )


def _sitting_filter(where: Filters) -> sessions.SittingFilter:
    return sessions.SittingFilter(
        member_id=where.member_id,
        table_id=where.table_id,
        since=where.since_at,
        until=where.until_at,
    )


@admin_router.get("/sessions")
async def sessions_page(
    request: Request, db: DbDep, caller: PageAdmin, where: FiltersDep
) -> Response:
    chosen = _sitting_filter(where)
    async with db.transaction() as session:
        shown = await sessions.sessions_view(session, chosen)
        context = await _choices(session)
    return await render(
        request,
        db,
        caller,
        "admin_sessions.html",
        sittings=shown.members,
        bot_sittings=shown.bots,
        settlement=shown.settlement,
        filters=where,
        **context,
    )


async def _requests_page(
    request: Request, db: DbDep, caller: Caller, status_code: int = 200, **extra: Any
) -> Response:
    async with db.transaction() as session:
        pending = await chip_requests.listing(session, status=ChipRequestStatus.PENDING)
        decided = [
            r
            for r in await chip_requests.listing(session, limit=50)
            if r.status != ChipRequestStatus.PENDING
        ]
    return await render(
        request,
        db,
        caller,
        "admin_chip_requests.html",
        status_code,
        pending=pending,
        decided=decided,
        said=said,
        **extra,
    )


@admin_router.get("/chip-requests")
async def chip_requests_page(request: Request, db: DbDep, caller: PageAdmin) -> Response:
    return await _requests_page(request, db, caller)


@admin_router.post("/chip-requests/{request_id}/{verb}")
async def decide_chip_request(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    request_id: Id,
    verb: Literal["approve", "decline"],
    answer: Annotated[str, Form(max_length=1000)] = "",
) -> Response:
    assert caller is not None
    decide = chip_requests.approve if verb == "approve" else chip_requests.decline
    try:
        async with db.transaction() as session:
            decided = await decide(session, caller.user, request_id, answer)
            name = (await members.get_member(session, decided.user_id)).display_name
    except SalonError as error:
        return await _requests_page(request, db, caller, error.status_code, error=error)
    if verb == "approve":
        notice = _(
            "Request #%(number)s from %(name)s for %(amount)s approved.",
            number=request_id,
            name=name,
            amount=decided.amount,
        )
    else:
        notice = _(
            "Request #%(number)s from %(name)s for %(amount)s declined.",
            number=request_id,
            name=name,
            amount=decided.amount,
        )
    return await _requests_page(request, db, caller, notice=notice)


@admin_router.get("/members/{member_id}")
async def member_page(request: Request, db: DbDep, caller: PageAdmin, member_id: Id) -> Response:
    async with db.transaction() as session:
        member = await members.get_member(session, member_id)
        balance = await ledger.balance_of(session, ledger.member_account_key(member_id))
        statement = await treasury.named_lines(
            session, treasury.NamedFilter(member_id=member_id), limit=100
        )
        rows = await sessions.sittings(session, sessions.SittingFilter(member_id=member_id))
        asked = await chip_requests.listing(session, member_id=member_id, limit=20)
    return await render(
        request,
        db,
        caller,
        "admin_member.html",
        member=member,
        balance=balance,
        statement=statement,
        sittings=rows,
        by_game=sessions.nets_by(rows, "game"),
        by_month=sessions.nets_by(rows, "month"),
        chip_requests=asked,
        said=said,
    )


_WHOLE_NUMBER = re.compile(r"[0-9]{1,12}")


@member_router.post("/account/chip-requests")
async def ask_for_chips(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    amount: Annotated[str, Form(max_length=12)],
    note: Annotated[str, Form(max_length=1000)] = "",
) -> Response:
    if caller is None:
        return redirect("/login")
    try:
        if not _WHOLE_NUMBER.fullmatch(amount.strip()):
            raise InvalidInput("request_amount_not_positive", _("Ask for a whole positive number."))
        async with db.transaction() as session:
            await chip_requests.create(session, caller.user, int(amount), note)
    except SalonError as error:
        return await render_account(
            request, db, caller, error.status_code, chip_request_error=error
        )
    return redirect("/account#chip-requests")


async def treasury_overview(session: AsyncSession, request: Request) -> dict[str, Any]:
    """The dashboard's treasury block: the overview, the action latency, pending requests."""
    latency: LatencyRecorder = request.app.state.latency
    logins: LoginSockets = request.app.state.logins
    by_table = latency.by_table()
    names = await treasury.names_for(session, set(), set(by_table))
    return {
        "overview": await overview.overview(session),
        "latency": latency.summary(),
        "latency_by_table": [
            (table_id, names.tables.get(table_id, f"#{table_id}"), summary)
            for table_id, summary in by_table.items()
        ],
        "members_online": await logins.members_online(),
        "pending_chip_requests": await chip_requests.pending_count(session),
    }
