"""Chat moderation: admins read any table's chat, remove a line, mute a member for a time.

A removed line stays stored (with who removed it and when) but is shown to everyone as
`REMOVED_TEXT`; only the admins' chat view and the audit log still show what it said. A
mute covers every table's chat until its end. Each action writes its audit row in the
caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import ChatMessage, ChatMute, GameTable, User
from app.db.types import utcnow
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.i18n import _
from app.services import admin_log, members
from app.services.time_words import time_left_words

REMOVED_TEXT = "removed by an admin"
# A mute lasts from one minute to thirty days.
MAX_MUTE_MINUTES = 30 * 24 * 60


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat line as the admins see it: what was said, even when removed."""

    id: int
    table_id: int
    user_id: int
    username: str
    name: str
    text: str
    at: datetime
    removed_at: datetime | None
    removed_by: str | None

    @property
    def shown_text(self) -> str:
        """What the players see."""
        return REMOVED_TEXT if self.removed_at is not None else self.text


async def table_chat(session: AsyncSession, table_id: int, limit: int = 200) -> list[ChatLine]:
    """The table's last `limit` chat lines, oldest first, removed ones included."""
    if await session.get(GameTable, table_id) is None:
        raise NotFound("table_not_found", _("No table with id %(table_id)s.", table_id=table_id))
    remover = aliased(User)
    rows = (
        await session.execute(
            select(ChatMessage, User.username, User.display_name, remover.username)
            .join(User, User.id == ChatMessage.user_id)
            .outerjoin(remover, remover.id == ChatMessage.removed_by_id)
            .where(ChatMessage.table_id == table_id)
            .order_by(ChatMessage.id.desc())
            .limit(limit)
        )
    ).all()
    return [
        ChatLine(
            id=m.id,
            table_id=m.table_id,
            user_id=m.user_id,
            username=username,
            name=name,
            text=m.text,
            at=m.created_at,
            removed_at=m.removed_at,
            removed_by=removed_by,
        )
        for m, username, name, removed_by in reversed(rows)
    ]


@dataclass(frozen=True, slots=True)
class Removed:
    """A line just removed: what the table's live page needs to replace it."""

    id: int
    table_id: int
    name: str
    at: datetime


async def remove_line(session: AsyncSession, actor: User, message_id: int) -> Removed:
    message = await session.get(ChatMessage, message_id)
    if message is None:
        raise NotFound(
            "chat_line_not_found", _("No chat line with id %(message_id)s.", message_id=message_id)
        )
    if message.removed_at is not None:
        raise Conflict("chat_line_removed", _("That chat line was already removed."))
    author = await members.get_member(session, message.user_id)
    message.removed_at = utcnow()
    message.removed_by_id = actor.id
    await session.flush()
    await admin_log.record(
        session,
        actor_id=actor.id,
        action="chat.remove",
        target_kind="chat_message",
        target_id=message.id,
        target_label=f"{author.username} at table {message.table_id}",
        before={"text": message.text, "table_id": message.table_id, "author": author.username},
        after={"text": REMOVED_TEXT},
    )
    return Removed(message.id, message.table_id, author.display_name, message.created_at)


async def muted_until(session: AsyncSession, user_id: int) -> datetime | None:
    """When this member's mute ends, if they are muted now."""
    mute = await session.get(ChatMute, user_id)
    if mute is None or mute.muted_until <= utcnow():
        return None
    return mute.muted_until


def check_may_chat(until: datetime | None) -> None:
    """Refuse a muted member's chat line, saying for how long: the member's zone is not
    known here, and a time left reads the same in every zone (`until` has the instant)."""
    if until is not None:
        left = time_left_words(until, utcnow())
        raise Forbidden(
            "chat_muted",
            _("An admin muted you in the chat: you may chat again in %(left)s.", left=left),
            until=until.isoformat(),
        )


async def mute(session: AsyncSession, actor: User, user_id: int, minutes: int) -> datetime:
    """Mute a member in every table's chat for `minutes`; returns when it ends. Muting a
    muted member again sets the new end."""
    if not 1 <= minutes <= MAX_MUTE_MINUTES:
        raise InvalidInput(
            "invalid_mute_minutes",
            _(
                "A mute lasts 1 to %(max_mute_minutes)s minutes (30 days).",
                max_mute_minutes=MAX_MUTE_MINUTES,
            ),
        )
    target = await members.get_member(session, user_id)
    members.may_manage(actor, target)
    before = await muted_until(session, user_id)
    until = utcnow() + timedelta(minutes=minutes)
    mute_row = await session.get(ChatMute, user_id)
    if mute_row is None:
        session.add(ChatMute(user_id=user_id, muted_until=until, muted_by_id=actor.id))
    else:
        mute_row.muted_until = until
        mute_row.muted_by_id = actor.id
    await session.flush()
    await admin_log.record(
        session,
        actor_id=actor.id,
        action="chat.mute",
        target_kind="member",
        target_id=target.id,
        target_label=target.username,
        before={"muted_until": before.isoformat() if before else None},
        after={"muted_until": until.isoformat(), "minutes": minutes},
    )
    return until


async def unmute(session: AsyncSession, actor: User, user_id: int) -> None:
    target = await members.get_member(session, user_id)
    members.may_manage(actor, target)
    before = await muted_until(session, user_id)
    if before is None:
        raise Conflict("not_muted", _("%(username)s is not muted.", username=target.username))
    mute_row = await session.get(ChatMute, user_id)
    assert mute_row is not None
    await session.delete(mute_row)
    await session.flush()
    await admin_log.record(
        session,
        actor_id=actor.id,
        action="chat.unmute",
        target_kind="member",
        target_id=target.id,
        target_label=target.username,
        before={"muted_until": before.isoformat()},
        after={"muted_until": None},
    )
