"""The admins' audit log over REST: the listing and its CSV export, with the same filters.

Read-only by design: the log has no route that changes it (and the database refuses it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse

from app.api.admin import as_utc
from app.api.deps import DbDep, csrf_protect, require_admin
from app.api.exports import attachment, csv_chunks, rows_of
from app.api.schemas import Id, Output
from app.errors import InvalidInput
from app.i18n import _
from app.services import admin_log

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(csrf_protect), Depends(require_admin)],
)

ActionQuery = Annotated[str | None, Query(pattern=r"^[a-z_.]{1,40}$")]
TargetKindQuery = Annotated[str | None, Query(pattern=r"^[a-z_]{1,20}$")]
# The target's id as the log keeps it: a number, or an account's name ("seat:3:7").
TargetQuery = Annotated[str | None, Query(min_length=1, max_length=64, pattern=r"^[a-z0-9:_]+$")]


def log_filter(
    actor_id: Id | None = None,
    action: ActionQuery = None,
    target_kind: TargetKindQuery = None,
    target: TargetQuery = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> admin_log.LogFilter:
    """The filters the listing, the CSV export and the admin page take from the query."""
    if action is not None and action not in admin_log.ACTIONS:
        raise InvalidInput(
            "unknown_action",
            _("No admin action is called '%(action)s'.", action=action),
            known=sorted(admin_log.ACTIONS),
        )
    return admin_log.LogFilter(
        actor_id=actor_id,
        action=action,
        target_kind=target_kind,
        target_id=target,
        since=as_utc(since),
        until=as_utc(until),
    )


LogFilterDep = Annotated[admin_log.LogFilter, Depends(log_filter)]


class AdminActionPublic(Output):
    id: int
    created_at: datetime
    actor_id: int | None
    actor: str
    action: str
    target_kind: str
    target_id: str
    target_label: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class AdminLogPage(Output):
    total: int
    entries: list[AdminActionPublic]


@router.get("/log")
async def admin_log_listing(
    db: DbDep,
    where: LogFilterDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> AdminLogPage:
    """Every admin action, newest first: who, what, to what, when, before and after."""
    async with db.transaction() as session:
        total = await admin_log.count(session, where)
        rows = await admin_log.entries(session, where, limit=limit, offset=offset)
    return AdminLogPage(total=total, entries=[AdminActionPublic.model_validate(r) for r in rows])


CSV_COLUMNS = (
    "id",
    "created_at",
    "actor_id",
    "actor",
    "action",
    "target_kind",
    "target_id",
    "target_label",
    "before",
    "after",
)


def _json(value: dict[str, Any] | None) -> str:
    return "" if value is None else orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


@router.get("/log.csv", response_class=StreamingResponse)
async def admin_log_csv(db: DbDep, where: LogFilterDep) -> StreamingResponse:
    """The log as CSV, with the listing's filters; `before` and `after` as JSON text."""
    async with db.transaction() as session:
        rows = await admin_log.entries(session, where, limit=None)
    cells = (
        (
            r.id,
            r.created_at,
            r.actor_id,
            r.actor,
            r.action,
            r.target_kind,
            r.target_id,
            r.target_label,
            _json(r.before),
            _json(r.after),
        )
        for r in rows
    )
    return attachment(csv_chunks(CSV_COLUMNS, rows_of(cells)), "text/csv", "salon-admin-log.csv")
