"""Log in, log out, sessions and passwords."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AuthSession, MemberStatus, User
from app.db.types import utcnow
from app.errors import Forbidden, InvalidInput, NotAuthenticated
from app.i18n import _
from app.security.passwords import check_strength, hash_password, needs_rehash, verify_password
from app.security.text import has_control_chars
from app.security.tokens import digest, new_token


@dataclass(frozen=True, slots=True)
class LoggedIn:
    user: User
    session: AuthSession
    # The cookie value; only its digest is stored.
    token: str


class BadCredentials(NotAuthenticated):
    def __init__(self) -> None:
        super().__init__(_("Wrong username or password."))
        self.code = "bad_credentials"


def _refuse_inactive(user: User) -> None:
    if user.status == MemberStatus.PENDING:
        raise Forbidden("account_pending", _("Your membership is waiting for an admin's approval."))
    if user.status == MemberStatus.BANNED:
        raise Forbidden("account_banned", _("This account has been banned from the club."))


async def open_session(session: AsyncSession, user: User, days: int) -> LoggedIn:
    # Housekeeping at the one moment sessions are made: this member's expired ones go.
    await session.execute(
        delete(AuthSession).where(
            AuthSession.user_id == user.id, AuthSession.expires_at <= utcnow()
        )
    )
    token = new_token()
    auth = AuthSession(
        token_hash=digest(token),
        user_id=user.id,
        csrf_token=new_token(),
        expires_at=utcnow() + timedelta(days=days),
    )
    session.add(auth)
    await session.flush()
    return LoggedIn(user=user, session=auth, token=token)


async def login(session: AsyncSession, username: str, password: str, days: int) -> LoggedIn:
    name = username.strip().lower()
    # Such a name cannot exist, and some databases refuse to even compare it.
    user = (
        None
        if has_control_chars(name)
        else await session.scalar(select(User).where(User.username == name))
    )
    # Always run one Argon2 verification, so timing does not reveal unknown usernames.
    if not verify_password(user.password_hash if user else None, password) or user is None:
        raise BadCredentials()
    if user.bot_level is not None:  # a computer player never logs in (no hash matches)
        raise BadCredentials()
    _refuse_inactive(user)
    if needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return await open_session(session, user, days)


async def resolve(session: AsyncSession, token: str) -> tuple[AuthSession, User] | None:
    """The live session and active member behind a cookie token, if any."""
    row = (
        await session.execute(
            select(AuthSession, User)
            .join(User, User.id == AuthSession.user_id)
            .where(AuthSession.token_hash == digest(token))
        )
    ).first()
    if row is None:
        return None
    auth, user = row
    if auth.expires_at <= utcnow() or user.status != MemberStatus.ACTIVE:
        return None
    return auth, user


async def logout(session: AsyncSession, token: str) -> None:
    await session.execute(delete(AuthSession).where(AuthSession.token_hash == digest(token)))


async def change_password(
    session: AsyncSession, user: User, current: AuthSession, old_password: str, new_password: str
) -> None:
    """Change the password and end every other session of this member."""
    if not verify_password(user.password_hash, old_password):
        raise InvalidInput("wrong_password", _("Your current password is not correct."))
    check_strength(new_password)
    if old_password == new_password:
        raise InvalidInput("password_unchanged", _("The new password is the same as the old one."))
    user.password_hash = hash_password(new_password)
    await session.execute(
        delete(AuthSession).where(AuthSession.user_id == user.id, AuthSession.id != current.id)
    )
    await session.flush()
