"""Members: sign-up (with an invite code or an admin's approval), roles and bans.

Every admin action here writes its audit row (admin_log) in the caller's transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    Account,
    AccountKind,
    AuthSession,
    ChatMute,
    Club,
    Invite,
    LedgerEntry,
    MemberStatus,
    Role,
    User,
)
from app.db.types import utcnow
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.i18n import _
from app.security.passwords import check_strength, hash_password
from app.security.text import clean_text, has_control_chars
from app.security.tokens import new_token
from app.services import admin_log, ledger

USERNAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.-]{2,31}$")
MAX_DISPLAY_NAME = 40


def normalize_username(username: str) -> str:
    name = username.strip().lower()
    if not USERNAME_PATTERN.fullmatch(name):
        raise InvalidInput(
            "invalid_username",
            _(
                "Usernames have 3 to 32 characters: letters, digits, '.', '_' or '-', "
                "starting with a letter or digit."
            ),
        )
    return name


def clean_display_name(display_name: str) -> str:
    """The name shown at the tables: plain text in any script, spaces collapsed, NFC."""
    name = clean_text(" ".join(display_name.split()), MAX_DISPLAY_NAME)
    if name is None:
        raise InvalidInput(
            "invalid_display_name",
            _(
                "Display names have 1 to %(max_display_name)s characters of plain text.",
                max_display_name=MAX_DISPLAY_NAME,
            ),
        )
    return name


async def create_user(
    session: AsyncSession,
    *,
    username: str,
    password: str,
    display_name: str,
    role: Role,
    status: MemberStatus,
) -> User:
    """Create a member and their chip account."""
    name = normalize_username(username)
    check_strength(password)
    if await session.scalar(select(User.id).where(User.username == name)) is not None:
        raise Conflict("username_taken", _("The username '%(name)s' is taken.", name=name))
    user = User(
        username=name,
        display_name=clean_display_name(display_name),
        password_hash=hash_password(password),
        role=role,
        status=status,
    )
    session.add(user)
    await session.flush()
    await ledger.open_account(
        session, ledger.member_account_key(user.id), AccountKind.MEMBER, user.id
    )
    return user


async def register(
    session: AsyncSession,
    *,
    username: str,
    password: str,
    display_name: str | None,
    invite_code: str | None,
) -> User:
    """Sign up. A valid invite code makes the member active at once; otherwise the club's
    setting decides between active and pending (waiting for an admin's approval)."""
    club = await session.get(Club, 1)
    if club is None:
        raise NotFound("club_not_set_up", _("This installation has no club yet."))
    status = MemberStatus.PENDING if club.signup_requires_approval else MemberStatus.ACTIVE
    if invite_code:
        if has_control_chars(invite_code):
            raise InvalidInput(
                "invalid_invite", _("This invite code is unknown, used up or expired.")
            )
        invite = await session.scalar(
            select(Invite).where(Invite.code == invite_code).with_for_update()
        )
        now = utcnow()
        if (
            invite is None
            or invite.revoked
            or invite.uses >= invite.max_uses
            or (invite.expires_at is not None and invite.expires_at <= now)
        ):
            raise InvalidInput(
                "invalid_invite", _("This invite code is unknown, used up or expired.")
            )
        invite.uses += 1
        status = MemberStatus.ACTIVE
    return await create_user(
        session,
        username=username,
        password=password,
        display_name=display_name or username,
        role=Role.MEMBER,
        status=status,
    )


async def get_member(session: AsyncSession, user_id: int) -> User:
    user = await session.get(User, user_id)
    if user is None:
        raise NotFound("member_not_found", _("No member with id %(user_id)s.", user_id=user_id))
    return user


async def list_members(
    session: AsyncSession, *, status: MemberStatus | None = None, role: Role | None = None
) -> list[tuple[User, int]]:
    """Members with their chip balance, oldest first."""
    query = (
        select(User, Account.balance)
        .join(Account, (Account.user_id == User.id) & (Account.kind == AccountKind.MEMBER))
        .order_by(User.id)
    )
    if status is not None:
        query = query.where(User.status == status)
    if role is not None:
        query = query.where(User.role == role)
    return [(user, int(balance)) for user, balance in (await session.execute(query)).all()]


def may_manage(actor: User, target: User) -> None:
    """Admins manage members; only the owner manages admins; nobody manages the owner or
    themselves."""
    if actor.id == target.id:
        raise Forbidden("cannot_act_on_self", _("You cannot do this to your own account."))
    if target.role == Role.OWNER:
        raise Forbidden("target_is_owner", _("The club's owner cannot be changed this way."))
    if target.role == Role.ADMIN and actor.role != Role.OWNER:
        raise Forbidden("owner_only", _("Only the club's owner can manage admins."))


async def _log_member(
    session: AsyncSession, actor: User, action: str, user: User, field: str, before: str
) -> None:
    await admin_log.record(
        session,
        actor_id=actor.id,
        action=action,
        target_kind="member",
        target_id=user.id,
        target_label=user.username,
        before={field: before},
        after={field: str(getattr(user, field))},
    )


async def approve(session: AsyncSession, actor: User, user_id: int) -> User:
    user = await get_member(session, user_id)
    may_manage(actor, user)
    if user.status != MemberStatus.PENDING:
        raise Conflict(
            "not_pending", _("%(username)s is not waiting for approval.", username=user.username)
        )
    user.status = MemberStatus.ACTIVE
    await session.flush()
    await _log_member(session, actor, "member.approve", user, "status", MemberStatus.PENDING)
    return user


async def reject(session: AsyncSession, actor: User, user_id: int) -> str:
    """Turn down a pending sign-up: the member and their (empty, untouched) chip account
    are removed, so the name is free again and they may sign up anew (ban someone to keep
    them out). Returns the username that was rejected; the audit row keeps who it was."""
    user = await get_member(session, user_id)
    may_manage(actor, user)
    if user.status != MemberStatus.PENDING:
        raise Conflict(
            "not_pending", _("%(username)s is not waiting for approval.", username=user.username)
        )
    accounts = list(
        (await session.scalars(select(Account).where(Account.user_id == user.id))).all()
    )
    ids = [account.id for account in accounts]
    moved = await session.scalar(
        select(func.count(LedgerEntry.id)).where(
            or_(LedgerEntry.from_account_id.in_(ids), LedgerEntry.to_account_id.in_(ids))
        )
    )
    if moved:
        raise Conflict(
            "has_ledger_history",
            _(
                "%(username)s already has chip movements: approve or ban them instead.",
                username=user.username,
            ),
        )
    before = {
        "status": str(user.status),
        "username": user.username,
        "display_name": user.display_name,
        "signed_up_at": user.created_at.isoformat(),
    }
    await admin_log.record(
        session,
        actor_id=actor.id,
        action="member.reject",
        target_kind="member",
        target_id=user.id,
        target_label=user.username,
        before=before,
        after={"status": "rejected"},
    )
    await session.execute(delete(AuthSession).where(AuthSession.user_id == user.id))
    await session.execute(delete(ChatMute).where(ChatMute.user_id == user.id))
    for account in accounts:
        await session.delete(account)
    await session.flush()
    await session.delete(user)
    await session.flush()
    return before["username"]


async def set_role(session: AsyncSession, actor: User, user_id: int, role: Role) -> User:
    if actor.role != Role.OWNER:
        raise Forbidden("owner_only", _("Only the club's owner can change roles."))
    if role == Role.OWNER:
        raise InvalidInput("invalid_role", _("A club has one owner; choose admin or member."))
    user = await get_member(session, user_id)
    may_manage(actor, user)
    before = str(user.role)
    user.role = role
    await session.flush()
    await _log_member(session, actor, "member.role", user, "role", before)
    return user


async def ban(session: AsyncSession, actor: User, user_id: int) -> User:
    """Ban a member: they can no longer log in, and their open sessions end now."""
    user = await get_member(session, user_id)
    may_manage(actor, user)
    before = str(user.status)
    user.status = MemberStatus.BANNED
    await session.execute(delete(AuthSession).where(AuthSession.user_id == user.id))
    await session.flush()
    await _log_member(session, actor, "member.ban", user, "status", before)
    return user


async def unban(session: AsyncSession, actor: User, user_id: int) -> User:
    user = await get_member(session, user_id)
    may_manage(actor, user)
    if user.status != MemberStatus.BANNED:
        raise Conflict("not_banned", _("%(username)s is not banned.", username=user.username))
    user.status = MemberStatus.ACTIVE
    await session.flush()
    await _log_member(session, actor, "member.unban", user, "status", MemberStatus.BANNED)
    return user


@dataclass(frozen=True, slots=True)
class InviteSpec:
    max_uses: int = 1
    expires_in_days: int | None = 7


async def create_invite(session: AsyncSession, actor: User, spec: InviteSpec) -> Invite:
    expires = utcnow() + timedelta(days=spec.expires_in_days) if spec.expires_in_days else None
    invite = Invite(
        code=new_token(12), created_by_id=actor.id, max_uses=spec.max_uses, expires_at=expires
    )
    session.add(invite)
    await session.flush()
    await admin_log.record(
        session,
        actor_id=actor.id,
        action="invite.create",
        target_kind="invite",
        target_id=invite.id,
        target_label=f"invite {invite.id}",
        after={
            "max_uses": invite.max_uses,
            "expires_at": expires.isoformat() if expires else None,
        },
    )
    return invite


async def list_invites(session: AsyncSession) -> list[Invite]:
    return list((await session.scalars(select(Invite).order_by(Invite.id.desc()))).all())


async def revoke_invite(session: AsyncSession, actor: User, invite_id: int) -> Invite:
    invite = await session.get(Invite, invite_id)
    if invite is None:
        raise NotFound(
            "invite_not_found", _("No invite with id %(invite_id)s.", invite_id=invite_id)
        )
    if invite.revoked:  # revoking again changes nothing, and so leaves no second row
        return invite
    invite.revoked = True
    await session.flush()
    await admin_log.record(
        session,
        actor_id=actor.id,
        action="invite.revoke",
        target_kind="invite",
        target_id=invite.id,
        target_label=f"invite {invite.id}",
        before={"revoked": False, "uses": invite.uses},
        after={"revoked": True, "uses": invite.uses},
    )
    return invite
