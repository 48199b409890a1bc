"""Chip requests over the API: members ask (`/api/me/chip-requests`), admins answer
(`/api/admin/chip-requests`). Limits are checked by the service, with stable codes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from pydantic import Field, StrictInt, StrictStr

from app.api.deps import AdminCaller, CurrentCaller, DbDep, csrf_protect, require_admin
from app.api.schemas import Id, Input, Output
from app.db.models import ChipRequestStatus
from app.services import chip_requests

member_router = APIRouter(
    prefix="/api/me/chip-requests", tags=["me"], dependencies=[Depends(csrf_protect)]
)
admin_router = APIRouter(
    prefix="/api/admin/chip-requests",
    tags=["admin"],
    dependencies=[Depends(csrf_protect), Depends(require_admin)],
)

# Generous bounds at the door; the service's own limits answer with their stable codes.
_Note = Annotated[StrictStr, Field(max_length=1000)]


class ChipRequestCreate(Input):
    amount: StrictInt
    note: _Note = ""


class ChipRequestAnswer(Input):
    answer: _Note = ""


class ChipRequestPublic(Output):
    id: int
    member_id: int
    member_name: str
    amount: int
    note: str
    status: str
    created_at: datetime
    decided_at: datetime | None
    decided_by: str | None
    answer: str


async def _public(db: DbDep, request_id: int) -> ChipRequestPublic:
    async with db.transaction() as session:
        rows = await chip_requests.listing(session, request_id=request_id, limit=1)
    return ChipRequestPublic.model_validate(rows[0])


@member_router.post("", status_code=201)
async def ask_for_chips(
    body: ChipRequestCreate, caller: CurrentCaller, db: DbDep
) -> ChipRequestPublic:
    """Ask the club for chips; an admin approves (the chips arrive) or declines."""
    async with db.transaction() as session:
        created = await chip_requests.create(session, caller.user, body.amount, body.note)
    return await _public(db, created.id)


@member_router.get("")
async def my_chip_requests(caller: CurrentCaller, db: DbDep) -> list[ChipRequestPublic]:
    async with db.transaction() as session:
        rows = await chip_requests.listing(session, member_id=caller.user.id)
    return [ChipRequestPublic.model_validate(r) for r in rows]


@admin_router.get("")
async def list_chip_requests(
    db: DbDep, status: Literal["pending", "approved", "declined"] | None = None
) -> list[ChipRequestPublic]:
    async with db.transaction() as session:
        rows = await chip_requests.listing(
            session, status=ChipRequestStatus(status) if status else None
        )
    return [ChipRequestPublic.model_validate(r) for r in rows]


@admin_router.post("/{request_id}/approve")
async def approve_chip_request(
    request_id: Id, body: ChipRequestAnswer, caller: AdminCaller, db: DbDep
) -> ChipRequestPublic:
    """Grant the chips from the club's bank: one ledger movement, however often it is sent."""
    async with db.transaction() as session:
        await chip_requests.approve(session, caller.user, request_id, body.answer)
    return await _public(db, request_id)


@admin_router.post("/{request_id}/decline")
async def decline_chip_request(
    request_id: Id, body: ChipRequestAnswer, caller: AdminCaller, db: DbDep
) -> ChipRequestPublic:
    async with db.transaction() as session:
        await chip_requests.decline(session, caller.user, request_id, body.answer)
    return await _public(db, request_id)
