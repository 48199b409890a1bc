"""Chip requests: a member asks the club for chips, an admin approves or declines.

An approval is one ledger movement from the club's bank to the member, with the request as
its reason, keyed `chip_request:<id>`: the key comes from the request row itself, so
approving twice (a double click, two admins at once, a retry after a crash) moves chips
once. Each decision is one service function taking the acting admin, and writes its one
audit row there (none for a repeat that changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ChipRequest, ChipRequestStatus, MemberStatus, User
from app.db.types import utcnow
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.i18n import _
from app.security.text import clean_text
from app.services import admin_log, ledger

# A request is for play money a member runs short of, not for moving the whole bank.
MAX_REQUEST_AMOUNT = 1_000_000
MAX_NOTE_LENGTH = 200
MAX_ANSWER_LENGTH = 200
# Pending requests a member may have at once: enough for a correction, not for a flood.
MAX_PENDING_PER_MEMBER = 3


def ledger_key(request_id: int) -> str:
    return f"chip_request:{request_id}"


def _reason(request: ChipRequest) -> str:
    reason = f"Chip request #{request.id}"
    if request.note:
        reason += f": {request.note}"
    return reason[: ledger.MAX_REASON_LENGTH]


def _checked_note(note: str, max_length: int, code: str, what: str) -> str:
    """Optional plain text: empty is fine; anything else follows the text rule."""
    if not note.strip():
        return ""
    cleaned = clean_text(note, max_length)
    if cleaned is None:
        raise InvalidInput(
            code,
            _(
                "%(what)s has at most %(max_length)s characters of plain text.",
                what=what,
                max_length=max_length,
            ),
        )
    return cleaned


async def create(session: AsyncSession, member: User, amount: int, note: str) -> ChipRequest:
    """Record `member`'s request for `amount` chips."""
    if member.status != MemberStatus.ACTIVE:
        raise Forbidden("account_inactive", _("Only active members can ask for chips."))
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidInput("request_amount_not_positive", _("Ask for a whole positive number."))
    if amount > MAX_REQUEST_AMOUNT:
        raise InvalidInput(
            "request_amount_too_large",
            _(
                "A request may ask for at most %(max_request_amount)s chips.",
                max_request_amount=MAX_REQUEST_AMOUNT,
            ),
            max=MAX_REQUEST_AMOUNT,
        )
    cleaned = _checked_note(note, MAX_NOTE_LENGTH, "request_note_invalid", "A note")
    pending = await session.scalar(
        select(func.count())
        .select_from(ChipRequest)
        .where(ChipRequest.user_id == member.id, ChipRequest.status == ChipRequestStatus.PENDING)
    )
    if (pending or 0) >= MAX_PENDING_PER_MEMBER:
        raise Conflict(
            "too_many_pending_requests",
            _(
                "You already have %(max_pending_per_member)s requests waiting for an admin.",
                max_pending_per_member=MAX_PENDING_PER_MEMBER,
            ),
            max=MAX_PENDING_PER_MEMBER,
        )
    request = ChipRequest(
        user_id=member.id,
        amount=amount,
        note=cleaned,
        status=ChipRequestStatus.PENDING,
        answer="",
    )
    session.add(request)
    await session.flush()
    return request


async def _locked(session: AsyncSession, request_id: int) -> ChipRequest:
    """The request, locked (Postgres) so two admins deciding it at once queue up."""
    request = await session.scalar(
        select(ChipRequest).where(ChipRequest.id == request_id).with_for_update()
    )
    if request is None:
        raise NotFound(
            "chip_request_not_found",
            _("No chip request with id %(request_id)s.", request_id=request_id),
        )
    return request


async def approve(
    session: AsyncSession, actor: User, request_id: int, answer: str = ""
) -> ChipRequest:
    """Grant the request from the bank; approving an approved request changes nothing."""
    request = await _locked(session, request_id)
    if request.status == ChipRequestStatus.APPROVED:
        return request
    if request.status != ChipRequestStatus.PENDING:
        raise Conflict("chip_request_decided", _("This request was already declined."))
    cleaned = _checked_note(answer, MAX_ANSWER_LENGTH, "answer_invalid", "An answer")
    posted = await ledger.post(
        session,
        idempotency_key=ledger_key(request.id),
        kind="chip_request",
        reason=_reason(request),
        actor_id=actor.id,
        movements=[
            ledger.Movement(
                ledger.BANK_KEY, ledger.member_account_key(request.user_id), request.amount
            )
        ],
    )
    request.status = ChipRequestStatus.APPROVED
    request.decided_at = utcnow()
    request.decided_by_id = actor.id
    request.answer = cleaned
    request.operation_id = posted.operation_id
    await session.flush()
    await _log(
        session,
        actor,
        "chip_request.approve",
        request,
        after={
            "status": str(request.status),
            "amount": int(request.amount),
            "operation_id": posted.operation_id,
            "answer": request.answer,
        },
    )
    return request


async def decline(
    session: AsyncSession, actor: User, request_id: int, answer: str = ""
) -> ChipRequest:
    """Refuse the request; declining a declined request changes nothing."""
    request = await _locked(session, request_id)
    if request.status == ChipRequestStatus.DECLINED:
        return request
    if request.status != ChipRequestStatus.PENDING:
        raise Conflict("chip_request_decided", _("This request was already approved."))
    request.status = ChipRequestStatus.DECLINED
    request.decided_at = utcnow()
    request.decided_by_id = actor.id
    request.answer = _checked_note(answer, MAX_ANSWER_LENGTH, "answer_invalid", "An answer")
    await session.flush()
    await _log(
        session,
        actor,
        "chip_request.decline",
        request,
        after={
            "status": str(request.status),
            "amount": int(request.amount),
            "answer": request.answer,
        },
    )
    return request


async def _log(
    session: AsyncSession, actor: User, action: str, request: ChipRequest, after: dict[str, Any]
) -> None:
    """The decision's audit row (the request was pending before it)."""
    member = await session.get(User, request.user_id)
    await admin_log.record(
        session,
        actor_id=actor.id,
        action=action,
        target_kind="chip_request",
        target_id=request.id,
        target_label=f"request #{request.id} from {member.username if member else '?'}",
        before={"status": str(ChipRequestStatus.PENDING)},
        after=after,
    )


@dataclass(frozen=True, slots=True)
class RequestRow:
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


async def listing(
    session: AsyncSession,
    *,
    member_id: int | None = None,
    status: ChipRequestStatus | None = None,
    request_id: int | None = None,
    limit: int = 100,
) -> list[RequestRow]:
    """Requests, newest first, with the names of who asked and who decided."""
    admin = User.__table__.alias("admin")
    query = (
        select(ChipRequest, User.display_name, admin.c.display_name)
        .join(User, User.id == ChipRequest.user_id)
        .outerjoin(admin, admin.c.id == ChipRequest.decided_by_id)
        .order_by(ChipRequest.id.desc())
        .limit(limit)
    )
    if member_id is not None:
        query = query.where(ChipRequest.user_id == member_id)
    if status is not None:
        query = query.where(ChipRequest.status == status)
    if request_id is not None:
        query = query.where(ChipRequest.id == request_id)
    return [
        RequestRow(
            id=r.id,
            member_id=r.user_id,
            member_name=name,
            amount=int(r.amount),
            note=r.note,
            status=r.status,
            created_at=r.created_at,
            decided_at=r.decided_at,
            decided_by=decider,
            answer=r.answer,
        )
        for r, name, decider in (await session.execute(query)).all()
    ]


async def pending_count(session: AsyncSession) -> int:
    count = await session.scalar(
        select(func.count())
        .select_from(ChipRequest)
        .where(ChipRequest.status == ChipRequestStatus.PENDING)
    )
    return int(count or 0)
