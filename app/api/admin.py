"""The club's administration: members, chips, the ledger, invites, settings.

Every route requires an owner or admin, checked here on the server; finer rules (only the
owner manages admins) live in the services.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse

from app.api import idempotency
from app.api.deps import (
    AdminCaller,
    ClubLanguageDep,
    DbDep,
    LoginsDep,
    SettingsDep,
    csrf_protect,
    require_admin,
    site_origin,
)
from app.api.exports import attachment, csv_chunks, rows_of
from app.api.schemas import (
    ActionWritesPublic,
    AuditPublic,
    ChipMovementCreate,
    ChipMovementPublic,
    CirculationPublic,
    ClubSettingsPublic,
    ClubUpdate,
    GcPausesPublic,
    Id,
    InviteCreate,
    InvitePublic,
    LatencyPublic,
    LedgerEntryPublic,
    MemberPublic,
    MemberWithBalance,
    PasswordResetPublic,
    RejectedPublic,
    ReturnedPublic,
    RoleName,
    RoleUpdate,
    StatusName,
    StrandedPublic,
    StrandedReturn,
)
from app.db.models import MemberStatus, Role
from app.errors import InvalidInput
from app.i18n import _
from app.services import admin_chips, admin_log, club, ledger, members, password_resets
from app.services.action_writer import ActionWriter
from app.services.audit import club_audit
from app.tables.gc_pauses import GcPauses
from app.tables.latency import LatencyRecorder

KindQuery = Annotated[str | None, Query(pattern=r"^[a-z_]{1,32}$")]

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(csrf_protect), Depends(require_admin)],
)


@router.get("/members")
async def list_members(
    db: DbDep,
    status: StatusName | None = None,
    role: RoleName | None = None,
) -> list[MemberWithBalance]:
    async with db.transaction() as session:
        rows = await members.list_members(
            session,
            status=MemberStatus(status) if status else None,
            role=Role(role) if role else None,
        )
    return [
        MemberWithBalance(**MemberPublic.model_validate(user).model_dump(), balance=balance)
        for user, balance in rows
    ]


@router.post("/members/{member_id}/approve")
async def approve(member_id: Id, caller: AdminCaller, db: DbDep) -> MemberPublic:
    async with db.transaction() as session:
        return MemberPublic.model_validate(await members.approve(session, caller.user, member_id))


@router.post("/members/{member_id}/reject")
async def reject(member_id: Id, caller: AdminCaller, db: DbDep) -> RejectedPublic:
    """Turn down a pending sign-up: the sign-up is removed (its name is free again)."""
    async with db.transaction() as session:
        username = await members.reject(session, caller.user, member_id)
    return RejectedPublic(id=member_id, username=username)


@router.post("/members/{member_id}/ban")
async def ban(member_id: Id, caller: AdminCaller, db: DbDep, logins: LoginsDep) -> MemberPublic:
    async with db.transaction() as session:
        banned = MemberPublic.model_validate(await members.ban(session, caller.user, member_id))
    await logins.recheck(member_id)
    return banned


@router.post("/members/{member_id}/unban")
async def unban(member_id: Id, caller: AdminCaller, db: DbDep) -> MemberPublic:
    async with db.transaction() as session:
        return MemberPublic.model_validate(await members.unban(session, caller.user, member_id))


@router.post("/members/{member_id}/role")
async def set_role(member_id: Id, body: RoleUpdate, caller: AdminCaller, db: DbDep) -> MemberPublic:
    async with db.transaction() as session:
        user = await members.set_role(session, caller.user, member_id, Role(body.role))
        return MemberPublic.model_validate(user)


@router.post("/members/{member_id}/password-reset", status_code=201)
async def password_reset(
    member_id: Id,
    caller: AdminCaller,
    db: DbDep,
    settings: SettingsDep,
    request: Request,
    response: Response,
) -> PasswordResetPublic:
    """A one-time link for a member who lost their password (docs/lost-passwords.md), to
    hand to them yourself: it is in this answer only. It works once, until `expires_at`;
    a newer one replaces it. An admin makes links for members, only the owner for admins,
    nobody for the owner or for themselves."""
    async with db.transaction() as session:
        issued = await password_resets.issue(
            session, caller.user, member_id, settings.password_reset_seconds
        )
    response.headers["Cache-Control"] = "no-store"
    return PasswordResetPublic(url=issued.url(site_origin(request)), expires_at=issued.expires_at)


async def _move_chips(
    body: ChipMovementCreate, caller: AdminCaller, db: DbDep, response: Response, *, grant: bool
) -> ChipMovementPublic:
    """Idempotent on `idempotency_key` (app.api.idempotency, admin_chips): a retry answers
    with the first answer, the balance as it was then included."""
    async with db.transaction() as session:
        moved = await admin_chips.grant_or_deduct(
            session,
            caller.user,
            member_id=body.member_id,
            amount=body.amount,
            grant=grant,
            request_key=body.idempotency_key,
            reason=body.reason,
        )
    idempotency.mark(response, moved.replayed)
    return ChipMovementPublic(
        operation_id=moved.operation_id, replayed=moved.replayed, balance=moved.balance
    )


@router.post("/chips/grant")
async def grant_chips(
    body: ChipMovementCreate, caller: AdminCaller, db: DbDep, response: Response
) -> ChipMovementPublic:
    """Give a member chips from the club's bank (a reason is required)."""
    return await _move_chips(body, caller, db, response, grant=True)


@router.post("/chips/deduct")
async def deduct_chips(
    body: ChipMovementCreate, caller: AdminCaller, db: DbDep, response: Response
) -> ChipMovementPublic:
    """Take chips from a member back to the club's bank (never below zero)."""
    return await _move_chips(body, caller, db, response, grant=False)


def as_utc(moment: datetime | None) -> datetime | None:
    """Query times without a zone are read as UTC."""
    if moment is None:
        return None
    try:
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:
        raise InvalidInput("invalid_time", _("That time is out of range.")) from None


def ledger_filter(
    member_id: Id | None = None,
    kind: KindQuery = None,
    actor_id: Id | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    practice: bool = False,
) -> ledger.EntryFilter:
    """The ledger filters both the listing and the CSV export take from the query: the
    club's chips, or with `practice=true` the practice tables' play money alone."""
    return ledger.EntryFilter(
        account_key=ledger.member_account_key(member_id) if member_id is not None else None,
        kind=kind,
        actor_id=actor_id,
        since=as_utc(since),
        until=as_utc(until),
        practice=practice,
    )


LedgerFilterDep = Annotated[ledger.EntryFilter, Depends(ledger_filter)]


@router.get("/ledger")
async def whole_ledger(
    db: DbDep,
    where: LedgerFilterDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> list[LedgerEntryPublic]:
    async with db.transaction() as session:
        rows = await ledger.entries(session, where, limit=limit, offset=offset)
    return [LedgerEntryPublic.model_validate(row) for row in rows]


CSV_COLUMNS = (
    "entry_id",
    "operation_id",
    "created_at",
    "kind",
    "reason",
    "actor_id",
    "from_account",
    "to_account",
    "amount",
)


@router.get("/ledger.csv", response_class=StreamingResponse)
async def ledger_csv(db: DbDep, where: LedgerFilterDep) -> StreamingResponse:
    async with db.transaction() as session:
        rows = await ledger.entries(session, where, limit=None)
    cells = ([getattr(row, column) for column in CSV_COLUMNS] for row in rows)
    return attachment(csv_chunks(CSV_COLUMNS, rows_of(cells)), "text/csv", "salon-ledger.csv")


@router.get("/audit")
async def audit(db: DbDep) -> AuditPublic:
    """The ledger proved, and every table's seat and pot accounts checked against the
    tables: chips no table will pay out are listed under `stranded`."""
    async with db.transaction() as session:
        report = await club_audit(session)
    return AuditPublic(
        ok=report.ok,
        accounts=report.ledger.accounts,
        entries=report.ledger.entries,
        chips_in_circulation=report.ledger.chips_in_circulation,
        circulation=CirculationPublic(
            balances=report.circulation.balances,
            stacks=report.circulation.stacks,
            held_by_members=report.circulation.held_by_members,
            bot_stacks=report.circulation.bot_stacks,
            pots=report.circulation.pots,
        ),
        problems=report.problems,
        stranded=[
            StrandedPublic(
                account=s.account, table_id=s.table_id, member_id=s.user_id, chips=s.chips
            )
            for s in report.stranded
        ],
    )


@router.post("/stranded/return")
async def return_stranded(body: StrandedReturn, caller: AdminCaller, db: DbDep) -> ReturnedPublic:
    """Give stranded chips back (a seat's to its member, a closed table's pot to those who
    paid into it): one audited ledger operation; a retry moves nothing twice."""
    async with db.transaction() as session:
        chips = await admin_chips.return_stranded(session, caller.user, body.account)
    return ReturnedPublic(account=body.account, chips=chips)


# Null fields are left out: a club without a default language has none to show.
@router.get("/club", response_model_exclude_none=True)
async def get_club(db: DbDep) -> ClubSettingsPublic:
    async with db.transaction() as session:
        return ClubSettingsPublic.model_validate(await club.get_club(session))


@router.patch("/club", response_model_exclude_none=True)
async def update_club(
    body: ClubUpdate, caller: AdminCaller, db: DbDep, club_language: ClubLanguageDep
) -> ClubSettingsPublic:
    async with db.transaction() as session:
        updated = await club.update_club(
            session, club.ClubChanges(**body.model_dump()), caller.user
        )
        saved = ClubSettingsPublic.model_validate(updated)
    club_language.forget()  # committed: the next request speaks the new default
    return saved


@router.get("/invites")
async def list_invites(db: DbDep) -> list[InvitePublic]:
    async with db.transaction() as session:
        return [InvitePublic.model_validate(i) for i in await members.list_invites(session)]


@router.post("/invites", status_code=201)
async def create_invite(body: InviteCreate, caller: AdminCaller, db: DbDep) -> InvitePublic:
    spec = members.InviteSpec(max_uses=body.max_uses, expires_in_days=body.expires_in_days)
    async with db.transaction() as session:
        return InvitePublic.model_validate(await members.create_invite(session, caller.user, spec))


@router.post("/invites/{invite_id}/revoke")
async def revoke_invite(invite_id: Id, caller: AdminCaller, db: DbDep) -> InvitePublic:
    async with db.transaction() as session:
        revoked = await members.revoke_invite(session, caller.user, invite_id)
        return InvitePublic.model_validate(revoked)


def _latency(request: Request) -> LatencyRecorder:
    recorder: LatencyRecorder = request.app.state.latency
    return recorder


def _gc_pauses(request: Request) -> GcPauses:
    pauses: GcPauses = request.app.state.tables.gc_pauses
    return pauses


def _action_writer(request: Request) -> ActionWriter:
    writer: ActionWriter = request.app.state.tables.writer
    return writer


LatencyDep = Annotated[LatencyRecorder, Depends(_latency)]
GcPausesDep = Annotated[GcPauses, Depends(_gc_pauses)]
WriterDep = Annotated[ActionWriter, Depends(_action_writer)]


@router.get("/latency")
async def latency(recorder: LatencyDep, pauses: GcPausesDep, writer: WriterDep) -> LatencyPublic:
    """Live tables since start-up (or the last reset): median and p99 time from an action
    received to the last seated player's broadcast sent, in milliseconds; the garbage
    collector's pauses per generation, and the actions stored per commit, over the same
    time."""
    return LatencyPublic(
        action_writes=ActionWritesPublic(**writer.figures.as_dict()),
        **dataclasses.asdict(recorder.summary()),
        gc_pauses=[
            GcPausesPublic(generation=generation, **dataclasses.asdict(summary))
            for generation, summary in pauses.summary().items()
        ],
    )


@router.delete("/latency", status_code=204)
async def reset_latency(
    recorder: LatencyDep,
    pauses: GcPausesDep,
    writer: WriterDep,
    caller: AdminCaller,
    db: DbDep,
) -> None:
    """Forget the latencies measured so far (before a measurement)."""
    async with db.transaction() as session:
        await admin_log.record(
            session,
            actor_id=caller.user.id,
            action="latency.reset",
            target_kind="club",
            target_id=1,
            target_label="latency figures",
            before=dataclasses.asdict(recorder.summary()),
        )
        recorder.reset()
        pauses.reset()
        writer.reset_figures()
