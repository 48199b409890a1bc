"""Chip requests: limits with stable codes, approvals that move chips exactly once."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from app.db.models import ChipRequestStatus, LedgerOperation, User
from app.db.session import Database
from app.errors import Conflict, InvalidInput, SalonError
from app.services import chip_requests, ledger
from tests.helpers import add_member, found_club, snapshot


async def _ask(db: Database, member_id: int, amount: int, note: str = "") -> int:
    async with db.transaction() as session:
        member = await session.get(User, member_id)
        assert member is not None
        return (await chip_requests.create(session, member, amount, note)).id


async def _decide(db: Database, admin_id: int, request_id: int, verb: str) -> str:
    async with db.transaction() as session:
        admin = await session.get(User, admin_id)
        assert admin is not None
        decide = chip_requests.approve if verb == "approve" else chip_requests.decline
        return (await decide(session, admin, request_id, "ok")).status


async def test_approving_twice_moves_chips_once(db: Database) -> None:
    owner = await found_club(db)
    ann = await add_member(db, "ann")
    request_id = await _ask(db, ann, 250, "Friday game")
    assert await _decide(db, owner, request_id, "approve") == ChipRequestStatus.APPROVED
    assert await _decide(db, owner, request_id, "approve") == ChipRequestStatus.APPROVED
    async with db.transaction() as session:
        assert await ledger.balance_of(session, ledger.member_account_key(ann)) == 250
        operations = (
            await session.scalars(
                select(LedgerOperation).where(LedgerOperation.kind == "chip_request")
            )
        ).all()
    assert len(operations) == 1
    assert operations[0].idempotency_key == f"chip_request:{request_id}"
    assert operations[0].reason == f"Chip request #{request_id}: Friday game"
    assert operations[0].actor_id == owner
    # A decided request cannot be turned around.
    with pytest.raises(Conflict) as refused:
        await _decide(db, owner, request_id, "decline")
    assert refused.value.code == "chip_request_decided"


async def test_a_declined_request_moves_nothing(db: Database) -> None:
    owner = await found_club(db)
    ann = await add_member(db, "ann")
    request_id = await _ask(db, ann, 10)
    before = await snapshot(db)
    assert await _decide(db, owner, request_id, "decline") == ChipRequestStatus.DECLINED
    assert await snapshot(db) == before
    with pytest.raises(Conflict):
        await _decide(db, owner, request_id, "approve")
    assert await snapshot(db) == before


@pytest.mark.parametrize(
    ("amount", "note", "code"),
    [
        (0, "", "request_amount_not_positive"),
        (-5, "", "request_amount_not_positive"),
        (chip_requests.MAX_REQUEST_AMOUNT + 1, "", "request_amount_too_large"),
        (10, "x" * (chip_requests.MAX_NOTE_LENGTH + 1), "request_note_invalid"),
        (10, "bad\u202etext", "request_note_invalid"),
    ],
)
async def test_bad_requests_are_refused(db: Database, amount: int, note: str, code: str) -> None:
    await found_club(db)
    ann = await add_member(db, "ann")
    with pytest.raises(InvalidInput) as refused:
        await _ask(db, ann, amount, note)
    assert refused.value.code == code
    async with db.transaction() as session:
        assert not await chip_requests.listing(session, member_id=ann)


async def test_pending_requests_are_capped_per_member(db: Database) -> None:
    await found_club(db)
    ann = await add_member(db, "ann")
    bea = await add_member(db, "bea")
    for _ in range(chip_requests.MAX_PENDING_PER_MEMBER):
        await _ask(db, ann, 10)
    with pytest.raises(SalonError) as refused:
        await _ask(db, ann, 10)
    assert refused.value.code == "too_many_pending_requests"
    await _ask(db, bea, 10)  # another member is not held back
    async with db.transaction() as session:
        assert await chip_requests.pending_count(session) == 4
        count = await session.scalar(select(func.count()).select_from(LedgerOperation))
    assert count == 0


async def test_two_admins_approving_at_once_move_chips_once(pg_db: Database) -> None:
    """On Postgres, where two transactions really run at once: the request row is locked,
    so the second approval sees the first one's and moves nothing."""
    owner = await found_club(pg_db)
    second = await add_member(pg_db, "sam")
    ann = await add_member(pg_db, "ann")
    request_id = await _ask(pg_db, ann, 40)
    statuses = await asyncio.gather(
        *(_decide(pg_db, admin, request_id, "approve") for admin in (owner, second) * 3)
    )
    assert set(statuses) == {ChipRequestStatus.APPROVED}
    async with pg_db.transaction() as session:
        assert await ledger.balance_of(session, ledger.member_account_key(ann)) == 40
        count = await session.scalar(
            select(func.count())
            .select_from(LedgerOperation)
            .where(LedgerOperation.kind == "chip_request")
        )
    assert count == 1
