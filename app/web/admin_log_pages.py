"""The audit log page (/admin/log): every admin action with filters and pages, and a link
to the same selection as CSV.

The filter form is a plain GET form, so a filtered page is a link an admin can keep. Its
empty fields mean "any"; dates are whole days in UTC, both ends included.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import DbDep
from app.api.schemas import FormId
from app.errors import InvalidInput
from app.i18n import _, pgettext
from app.services import admin_log
from app.web.admin_guards import ADMIN_PAGE_GUARDS, PageAdmin
from app.web.pages import render

router = APIRouter(
    prefix="/admin",
    tags=["pages"],
    default_response_class=HTMLResponse,
    dependencies=ADMIN_PAGE_GUARDS,
)

PAGE_SIZE = 50
FormQuery = Annotated[str, Query(max_length=64)]
_TARGET = re.compile(r"[a-z0-9:_]{1,64}")


def _day(value: str, field: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidInput(
            "invalid_date", _("%(field)s must be a date (YYYY-MM-DD).", field=field)
        ) from None


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def page_filter(
    actor_id: int | None, action: str, target_kind: str, target: str, since: str, until: str
) -> admin_log.LogFilter:
    """The page's form fields as the log's filter (refusing what no row could match)."""
    if action and action not in admin_log.ACTIONS:
        raise InvalidInput(
            "unknown_action", _("No admin action is called '%(action)s'.", action=action)
        )
    if target and not _TARGET.fullmatch(target):
        raise InvalidInput("invalid_input", _("A target is a number or an account name."))
    first, last = _day(since, pgettext("dates", "From")), _day(until, pgettext("dates", "To"))
    return admin_log.LogFilter(
        actor_id=actor_id,
        action=action or None,
        target_kind=target_kind or None,
        target_id=target or None,
        since=_start_of(first) if first else None,
        until=_start_of(last + timedelta(days=1)) if last else None,
    )


def csv_link(where: admin_log.LogFilter) -> str:
    """The REST export of exactly this selection."""
    query = {
        "actor_id": where.actor_id,
        "action": where.action,
        "target_kind": where.target_kind,
        "target": where.target_id,
        "since": where.since.isoformat() if where.since else None,
        "until": where.until.isoformat() if where.until else None,
    }
    given = {key: value for key, value in query.items() if value is not None}
    return "/api/admin/log.csv" + (f"?{urlencode(given)}" if given else "")


@router.get("/log")
async def log_page(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    actor_id: Annotated[FormId, Query()] = None,
    action: FormQuery = "",
    target_kind: FormQuery = "",
    target: FormQuery = "",
    since: FormQuery = "",
    until: FormQuery = "",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> Response:
    where = page_filter(actor_id, action, target_kind, target, since, until)
    async with db.transaction() as session:
        total = await admin_log.count(session, where)
        rows = await admin_log.entries(
            session, where, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        admins = await admin_log.actors(session)
    form = {
        "actor_id": str(actor_id) if actor_id else "",
        "action": action,
        "target_kind": target_kind,
        "target": target,
        "since": since,
        "until": until,
    }

    def page_link(number: int) -> str:
        given = {key: value for key, value in form.items() if value}
        return "/admin/log?" + urlencode({**given, "page": number})

    context: dict[str, Any] = {
        "rows": rows,
        "total": total,
        "page": page,
        "pages": max(1, -(-total // PAGE_SIZE)),
        "form": form,
        "admins": admins,
        "actions": admin_log.action_words(),
        "target_kinds": admin_log.target_words(),
        "changes": admin_log.changes,
        "csv_link": csv_link(where),
        "page_link": page_link,
    }
    return await render(request, db, caller, "admin_log.html", **context)
