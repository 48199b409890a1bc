"""Lost passwords: one-time reset links (docs/lost-passwords.md).

The club has no e-mail: an admin makes a link for a member and hands it over themselves (a
message, a note at the table); the owner can make one, or set a password outright, from the
server's shell with `salon reset-password`. A link is `/reset/<token>`: the token comes
from the OS CSPRNG and only its SHA-256 is stored, so neither the database nor the audit log
ever holds a usable link. A link works once, until it expires; a newer link for the same
member replaces it; a ban makes it useless. Setting a password through it ends every
session of the member. The making and the use are both written to the admins' audit log:
who, for whom, when — never the token.

Who may make a link for whom is `members.may_manage`, the rule of every member action: an
admin for members, only the owner for admins, nobody from the web pages for the owner or
for themselves (their own password they change on their account page; the owner's lost
one is reset from the server's shell, where whoever runs the command already holds the
club's database).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AuthSession, MemberStatus, PasswordReset, User
from app.db.types import utcnow
from app.errors import Conflict, InvalidInput, NotFound
from app.i18n import _
from app.security.passwords import check_strength, hash_password
from app.security.text import has_control_chars
from app.security.tokens import digest, new_token
from app.services import admin_log, members

# Where a link leads: the member's page to choose a new password (app/web/reset_pages.py).
LINK_PATH = "/reset/"
# What `new_token()` makes is 43 characters; anything much longer is no token of ours.
MAX_TOKEN_LENGTH = 128


class InvalidResetLink(NotFound):
    """One answer for a token that never was, was used, expired, was replaced by a newer
    link or belongs to a banned member: which of them it was is nobody's business."""

    def __init__(self) -> None:
        super().__init__(
            "reset_link_invalid",
            _(
                "This password-reset link is unknown, already used or expired: ask an admin "
                "of the club for a new one."
            ),
        )


@dataclass(frozen=True, slots=True)
class IssuedReset:
    """A link just made: its token exists only here, to be shown once."""

    token: str
    expires_at: datetime
    member: User

    def url(self, origin: str) -> str:
        """The link under the site's `origin` (scheme, host and port)."""
        return f"{origin.rstrip('/')}{LINK_PATH}{self.token}"


def _resettable(member: User) -> None:
    if member.bot_level is not None:
        raise InvalidInput(
            "member_is_bot",
            _("%(username)s is a computer player: it has no password.", username=member.username),
        )
    if member.status == MemberStatus.BANNED:
        raise Conflict(
            "member_banned",
            _(
                "%(username)s is banned: unban them before a new password.",
                username=member.username,
            ),
        )


async def issue(
    session: AsyncSession, actor: User | None, member_id: int, lifetime_seconds: int
) -> IssuedReset:
    """Make a reset link for `member_id`, by the admin `actor` (None: the `salon` command,
    which may reset anyone's, the owner's included). Any older link of the member stops
    working."""
    # Locked, so that two admins' links made at once leave one, not two.
    member = await session.get(User, member_id, with_for_update=True)
    if member is None:
        raise NotFound(
            "member_not_found", _("No member with id %(member_id)s.", member_id=member_id)
        )
    if actor is not None:
        members.may_manage(actor, member)
    _resettable(member)
    now = utcnow()
    # The member's older link goes (a newer one voids it), and every expired link with it.
    await session.execute(
        delete(PasswordReset).where(
            or_(PasswordReset.user_id == member.id, PasswordReset.expires_at <= now)
        )
    )
    token = new_token()
    expires_at = now + timedelta(seconds=lifetime_seconds)
    session.add(
        PasswordReset(
            token_hash=digest(token),
            user_id=member.id,
            created_by_id=actor.id if actor else None,
            created_at=now,
            expires_at=expires_at,
        )
    )
    await session.flush()
    await admin_log.record(
        session,
        actor_id=actor.id if actor else None,
        action="member.password_reset",
        target_kind="member",
        target_id=member.id,
        target_label=member.username,
        after={"link_expires_at": expires_at.isoformat()},
    )
    return IssuedReset(token=token, expires_at=expires_at, member=member)


async def live_link(session: AsyncSession, token: str) -> tuple[PasswordReset, User]:
    """The unexpired link behind `token` and its member, or `InvalidResetLink`."""
    if not token or len(token) > MAX_TOKEN_LENGTH or has_control_chars(token):
        raise InvalidResetLink()
    found = (
        await session.execute(
            select(PasswordReset, User)
            .join(User, User.id == PasswordReset.user_id)
            .where(PasswordReset.token_hash == digest(token))
        )
    ).first()
    if found is None:
        raise InvalidResetLink()
    reset, member = found
    if reset.expires_at <= utcnow() or member.status == MemberStatus.BANNED:
        raise InvalidResetLink()
    return reset, member


async def _end_sessions(session: AsyncSession, member: User) -> int:
    ended = await session.scalars(
        delete(AuthSession).where(AuthSession.user_id == member.id).returning(AuthSession.id)
    )
    return len(ended.all())


async def redeem(session: AsyncSession, token: str, new_password: str) -> User:
    """Set the member's new password through their link: the link is used up and every
    session of the member ends. A password the rules refuse leaves the link as it was."""
    reset, member = await live_link(session, token)
    check_strength(new_password)
    # Used once, even when the form is sent twice at the same moment: only one
    # transaction deletes the row (the other waits for it, then finds nothing).
    used = await session.scalars(
        delete(PasswordReset).where(PasswordReset.id == reset.id).returning(PasswordReset.id)
    )
    if not used.all():
        raise InvalidResetLink()
    member.password_hash = hash_password(new_password)
    sessions_ended = await _end_sessions(session, member)
    creator = (
        await session.get(User, reset.created_by_id) if reset.created_by_id is not None else None
    )
    await admin_log.record(
        session,
        actor_id=member.id,
        action="member.password_reset_used",
        target_kind="member",
        target_id=member.id,
        target_label=member.username,
        after={
            "link_made_by": creator.username if creator else "the salon command",
            "link_made_at": reset.created_at.isoformat(),
            "sessions_ended": sessions_ended,
        },
    )
    return member


async def member_named(session: AsyncSession, username: str) -> User | None:
    """The member (or admin, or owner) whose login name is `username`, if any."""
    name = username.strip().lower()
    if has_control_chars(name):
        return None
    found: User | None = await session.scalar(select(User).where(User.username == name))
    return found


async def set_from_shell(session: AsyncSession, member: User, new_password: str) -> int:
    """`salon reset-password --password-stdin`: set the password at once, end the member's
    sessions and any link of theirs; returns how many sessions ended."""
    _resettable(member)
    check_strength(new_password)
    member.password_hash = hash_password(new_password)
    await session.execute(delete(PasswordReset).where(PasswordReset.user_id == member.id))
    sessions_ended = await _end_sessions(session, member)
    await admin_log.record(
        session,
        actor_id=None,
        action="member.password_set",
        target_kind="member",
        target_id=member.id,
        target_label=member.username,
        after={"sessions_ended": sessions_ended},
    )
    return sessions_ended
