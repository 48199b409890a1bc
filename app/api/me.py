"""The logged-in member's own profile, balance and statement."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.api.deps import CurrentCaller, DbDep, csrf_protect
from app.api.schemas import LedgerEntryPublic, ProfilePublic
from app.services import club, ledger

router = APIRouter(prefix="/api/me", tags=["me"], dependencies=[Depends(csrf_protect)])


@router.get("")
async def profile(caller: CurrentCaller, db: DbDep) -> ProfilePublic:
    async with db.transaction() as session:
        balance = await ledger.balance_of(session, ledger.member_account_key(caller.user.id))
        the_club = await club.get_club(session)
    return ProfilePublic(
        id=caller.user.id,
        username=caller.user.username,
        display_name=caller.user.display_name,
        role=caller.user.role,
        status=caller.user.status,
        created_at=caller.user.created_at,
        balance=balance,
        chip_unit=the_club.chip_unit,
        csrf_token=caller.session.csrf_token,
    )


@router.get("/ledger")
async def my_ledger(
    caller: CurrentCaller,
    db: DbDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[LedgerEntryPublic]:
    where = ledger.EntryFilter(account_key=ledger.member_account_key(caller.user.id))
    async with db.transaction() as session:
        rows = await ledger.entries(session, where, limit=limit, offset=offset)
    return [LedgerEntryPublic.model_validate(row) for row in rows]
