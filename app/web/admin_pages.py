"""The admin dashboard page: what waits for an admin, members, chips, invites, tables, club
settings, the ledger.

Forms post here and call the same services as the REST API; each action is one
transaction, and a chip form carries an idempotency key made when the page was drawn, so
a double-clicked or re-sent form moves chips once.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import Caller, ClubLanguageDep, DbDep, LoginsDep
from app.api.schemas import Id
from app.db.models import MemberStatus, Role
from app.errors import InvalidInput, SalonError
from app.i18n import _, ngettext
from app.security.text import plain_text
from app.security.tokens import new_token
from app.services import admin_chips, club, members, treasury
from app.services import tables as table_service
from app.services.audit import club_audit
from app.services.ledger import MAX_REASON_LENGTH
from app.web.admin_guards import ADMIN_PAGE_GUARDS, PageAdmin
from app.web.admin_words import said
from app.web.form_fields import whole_number
from app.web.pages import render
from app.web.treasury_pages import treasury_overview

# Documented with its form fields (in the OpenAPI schema, under "pages") like the API.
# What the forms' hidden fields may hold: a form's own key, a ledger account's key
# ("seat:4:2", "pot:3"). Anything else is refused before it reaches the database (which
# cannot even store some characters, such as NUL).
FORM_KEY = r"^[A-Za-z0-9_-]+$"
ACCOUNT_KEY = r"^[a-z_]+(:[0-9]+){0,2}$"

# The dashboard's last movements; the ledger page has them all.
RECENT_LEDGER = 20

router = APIRouter(
    prefix="/admin",
    tags=["pages"],
    default_response_class=HTMLResponse,
    dependencies=ADMIN_PAGE_GUARDS,
)

MemberAction = {"approve": members.approve, "ban": members.ban, "unban": members.unban}
MemberVerb = Literal["approve", "reject", "ban", "unban", "make-admin", "make-member"]


async def _dashboard(
    request: Request, db: DbDep, caller: Caller, status_code: int = 200, **extra: Any
) -> Response:
    async with db.transaction() as session:
        everyone = await members.list_members(session)
        context = {
            "club": await club.get_club(session),
            "members": everyone,
            "waiting": waiting_for_admins(everyone),
            "invites": await members.list_invites(session),
            "tables": await table_service.list_tables(session),
            "entries": (
                await treasury.named_lines(session, treasury.NamedFilter(), limit=RECENT_LEDGER)
            ).lines,
            "audit": await club_audit(session),
            "chip_key": new_token(12),
            "said": said,
            **await treasury_overview(session, request),
        }
    return await render(request, db, caller, "admin.html", status_code, **context, **extra)


def waiting_for_admins(everyone: list[tuple[Any, int]]) -> dict[str, Any]:
    """What waits for an admin's decision, shown first on the dashboard: pending sign-ups
    (the pending chip requests are counted by the treasurer's overview)."""
    pending = [user for user, _ in everyone if user.status == MemberStatus.PENDING]
    return {"signups": pending}


@router.get("")
async def dashboard(request: Request, db: DbDep, caller: PageAdmin) -> Response:
    return await _dashboard(request, db, caller)


async def _act(request: Request, db: DbDep, caller: Caller, action: Any) -> Response:
    """Run one admin action; redisplay the dashboard with its outcome."""
    try:
        async with db.transaction() as session:
            notice = await action(session, caller.user)
    except SalonError as error:
        return await _dashboard(request, db, caller, error.status_code, error=error)
    return await _dashboard(request, db, caller, notice=notice)


@router.post("/members/{member_id}/{verb}")
async def member_action(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    logins: LoginsDep,
    member_id: Id,
    verb: MemberVerb,
) -> Response:
    async def action(session: Any, actor: Any) -> str:
        if verb == "reject":
            rejected = await members.reject(session, actor, member_id)
            return _("%(name)s: sign-up rejected.", name=rejected)
        if verb in MemberAction:
            user = await MemberAction[verb](session, actor, member_id)
            return _(
                "%(name)s: %(status)s.",
                name=user.username,
                status=said("member_status", user.status),
            )
        role = Role.ADMIN if verb == "make-admin" else Role.MEMBER
        user = await members.set_role(session, actor, member_id, role)
        return _("%(name)s is now %(role)s.", name=user.username, role=said("role", user.role))

    page = await _act(request, db, caller, action)
    if verb == "ban":  # a banned member's table sockets close now
        await logins.recheck(member_id)
    return page


@router.post("/chips")
async def chips(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    member_id: Annotated[Id, Form()],
    amount: Annotated[str, Form(max_length=12)],
    reason: Annotated[str, Form(max_length=MAX_REASON_LENGTH), plain_text(MAX_REASON_LENGTH)],
    direction: Annotated[str, Form(pattern="^(grant|deduct)$")],
    chip_key: Annotated[str, Form(min_length=8, max_length=64, pattern=FORM_KEY)],
) -> Response:
    async def action(session: Any, actor: Any) -> str:
        chips_ = whole_number(amount, "Amount")
        grant = direction == "grant"
        # The form's key is looked up first (admin_chips): a form sent again answers
        # as the first time, whatever has changed since.
        posted = await admin_chips.grant_or_deduct(
            session,
            actor,
            member_id=member_id,
            amount=chips_,
            grant=grant,
            request_key=chip_key,
            reason=reason,
        )
        if posted.replayed:
            return _("That form was already sent: nothing moved twice.")
        user = await members.get_member(session, member_id)
        if grant:
            return _("Granted %(chips)s to %(name)s.", chips=chips_, name=user.username)
        return _("Deducted %(chips)s from %(name)s.", chips=chips_, name=user.username)

    return await _act(request, db, caller, action)


@router.post("/invites")
async def invite(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    max_uses: Annotated[str, Form(max_length=6)] = "1",
) -> Response:
    async def action(session: Any, actor: Any) -> str:
        uses = whole_number(max_uses, "Uses")
        if not 1 <= uses <= 1000:
            raise InvalidInput("invalid_input", _("Uses must be between 1 and 1000."))
        created = await members.create_invite(session, actor, members.InviteSpec(max_uses=uses))
        return _("Invite code created: %(code)s", code=created.code)

    return await _act(request, db, caller, action)


@router.post("/invites/{invite_id}/revoke")
async def revoke_invite(request: Request, db: DbDep, caller: PageAdmin, invite_id: Id) -> Response:
    async def action(session: Any, actor: Any) -> str:
        revoked = await members.revoke_invite(session, actor, invite_id)
        return _("Invite code %(code)s revoked.", code=revoked.code)

    return await _act(request, db, caller, action)


@router.post("/stranded/return")
async def return_stranded(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    account: Annotated[str, Form(min_length=1, max_length=64, pattern=ACCOUNT_KEY)],
) -> Response:
    async def action(session: Any, actor: Any) -> str:
        chips = await admin_chips.return_stranded(session, actor, account)
        return ngettext(
            "%(num)d chip returned from %(account)s.",
            "%(num)d chips returned from %(account)s.",
            chips,
            account=account,
        )

    return await _act(request, db, caller, action)


@router.post("/club")
async def club_settings(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    club_language: ClubLanguageDep,
    name: Annotated[str, Form(min_length=1, max_length=80)],
    chip_unit: Annotated[str, Form(min_length=1, max_length=20)],
    default_turn_seconds: Annotated[str, Form(max_length=4)],
    signup_requires_approval: Annotated[str, Form(max_length=3)] = "",
    members_may_create_tables: Annotated[str, Form(max_length=3)] = "",
    seed_reveal: Annotated[Literal["hand", "session"] | None, Form()] = None,
    # A language's code, or none (English): the form sends the whole settings, so absent
    # (as a browser sends an empty field) is none, like an unticked box.
    default_language: Annotated[str, Form(max_length=16)] = "",
) -> Response:
    async def action(session: Any, actor: Any) -> str:
        await club.update_club(
            session,
            club.ClubChanges(
                name=name.strip(),
                chip_unit=chip_unit.strip(),
                signup_requires_approval=signup_requires_approval == "on",
                members_may_create_tables=members_may_create_tables == "on",
                default_turn_seconds=whole_number(default_turn_seconds, "Turn timer"),
                seed_reveal=seed_reveal,
                default_language=default_language,
            ),
            actor,
        )
        return _("Club settings saved.")

    answer = await _act(request, db, caller, action)
    club_language.forget()  # committed (or refused): the next request reads it again
    return answer
