"""The admins' audit log: who did what, to what, when, and what it was before and after.

`record` writes one row inside the caller's transaction, the same one as the change it
describes: the change and its row are committed together or not at all. Rows are never
changed or deleted (the database refuses it: migration 0008), so reading them is all that
is left — `entries`, with the filters the admin page and the CSV export share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AdminAction, User
from app.engine import registry
from app.engine.options import OptionInfo

# Every action name the log knows, with its words for the page. A new admin action adds
# its line here (and one line to the test that walks every admin action).
ACTIONS: dict[str, str] = {
    "member.approve": "approved a sign-up",
    "member.reject": "rejected a sign-up",
    "member.ban": "banned a member",
    "member.unban": "unbanned a member",
    "member.role": "changed a member's role",
    "member.password_reset": "made a password-reset link",
    "member.password_reset_used": "set a new password through a reset link",
    "member.password_set": "set a member's password from the server's shell",
    "invite.create": "created an invite",
    "invite.revoke": "revoked an invite",
    "chips.grant": "granted chips",
    "chips.deduct": "deducted chips",
    "chips.return_stranded": "returned stranded chips",
    "club.settings": "changed the club's settings",
    "table.open": "opened a table",
    "table.pause": "paused a table",
    "table.resume": "resumed a table",
    "table.close": "closed a table",
    "chat.remove": "removed a chat line",
    "chat.mute": "muted a member in the chat",
    "chat.unmute": "unmuted a member in the chat",
    "latency.reset": "reset the tables' latency figures",
    "rules.create": "created a house-rule configuration",
    "rules.edit": "edited a house-rule configuration",
    "rules.clone": "cloned a house-rule configuration",
    "rules.archive": "archived a house-rule configuration",
    "rules.restore": "restored a house-rule configuration",
    "table.edit": "edited a table before its first hand",
    "table.bot_seat": "seated a bot",
    "table.bot_remove": "sent a bot away",
    "table.bot_fill": "set a table to fill its seats with bots",
    "chip_request.approve": "approved a chip request",
    "chip_request.decline": "declined a chip request",
}


# What an action can be done to.
TARGET_KINDS: dict[str, str] = {
    "member": "a member",
    "invite": "an invite",
    "account": "a ledger account",
    "club": "the club",
    "table": "a table",
    "chat_message": "a chat line",
    "ruleset": "a house-rule configuration",
    "chip_request": "a chip request",
}


async def record(
    session: AsyncSession,
    *,
    actor_id: int | None,
    action: str,
    target_kind: str,
    target_id: int | str,
    target_label: str = "",
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> AdminAction:
    """Add one audit row to the caller's transaction (flushed, not committed)."""
    if action not in ACTIONS or target_kind not in TARGET_KINDS:
        raise ValueError(f"unknown admin action {action!r} on {target_kind!r}: name it here")
    row = AdminAction(
        actor_id=actor_id,
        action=action,
        target_kind=target_kind,
        target_id=str(target_id),
        target_label=target_label[:100],
        before=dict(before) if before is not None else None,
        after=dict(after) if after is not None else None,
    )
    session.add(row)
    await session.flush()
    return row


@dataclass(frozen=True, slots=True)
class LogFilter:
    """What the page, the listing and the CSV export narrow the log by (None: any)."""

    actor_id: int | None = None
    action: str | None = None
    target_kind: str | None = None
    target_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    id: int
    created_at: datetime
    actor_id: int | None
    actor: str
    action: str
    target_kind: str
    target_id: str
    target_label: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def _conditions(where: LogFilter) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if where.actor_id is not None:
        conditions.append(AdminAction.actor_id == where.actor_id)
    if where.action is not None:
        conditions.append(AdminAction.action == where.action)
    if where.target_kind is not None:
        conditions.append(AdminAction.target_kind == where.target_kind)
    if where.target_id is not None:
        conditions.append(AdminAction.target_id == where.target_id)
    if where.since is not None:
        conditions.append(AdminAction.created_at >= where.since)
    if where.until is not None:
        conditions.append(AdminAction.created_at < where.until)
    return conditions


async def entries(
    session: AsyncSession, where: LogFilter, *, limit: int | None = 100, offset: int = 0
) -> list[LogEntry]:
    """The log, newest first, with each actor's username."""
    query = (
        select(AdminAction, User.username)
        .outerjoin(User, User.id == AdminAction.actor_id)
        .where(*_conditions(where))
        .order_by(AdminAction.id.desc())
        .offset(offset)
    )
    if limit is not None:
        query = query.limit(limit)
    return [
        LogEntry(
            id=row.id,
            created_at=row.created_at,
            actor_id=row.actor_id,
            actor=username or "the salon command",
            action=row.action,
            target_kind=row.target_kind,
            target_id=row.target_id,
            target_label=row.target_label,
            before=row.before,
            after=row.after,
        )
        for row, username in (await session.execute(query)).all()
    ]


async def count(session: AsyncSession, where: LogFilter) -> int:
    total = await session.scalar(select(func.count(AdminAction.id)).where(*_conditions(where)))
    return int(total or 0)


async def actors(session: AsyncSession) -> list[tuple[int, str]]:
    """Everyone who has an action in the log (admins past and present), by name."""
    query = (
        select(User.id, User.username)
        .where(User.id.in_(select(AdminAction.actor_id).distinct()))
        .order_by(User.username)
    )
    return [(user_id, username) for user_id, username in (await session.execute(query)).all()]


# What the rows' before/after fields are called on the page ("signup_requires_approval"
# reads "Sign-up needs approval"). A field missing here still reads as words.
FIELDS: dict[str, str] = {
    "signup_requires_approval": "Sign-up needs approval",
    "members_may_create_tables": "Members may open tables",
    "default_turn_seconds": "Default turn timer (s)",
    "chip_unit": "Chip unit",
    "seed_reveal": "Hand seeds published",
    "name": "Name",
    "status": "Status",
    "role": "Role",
    "username": "Username",
    "display_name": "Display name",
    "signed_up_at": "Signed up",
    "balance": "Balance",
    "amount": "Amount",
    "reason": "Reason",
    "operation_id": "Ledger operation",
    "chips": "Chips",
    "returned": "Returned",
    "max_uses": "Uses allowed",
    "uses": "Used",
    "expires_at": "Expires",
    "revoked": "Revoked",
    "game": "Game",
    "rules": "Rules",
    "options": "Options",
    "description": "Description",
    "from": "Copied from",
    "archived": "Archived",
    "seat_count": "Seats",
    "buy_in_min": "Smallest buy-in",
    "buy_in_max": "Largest buy-in",
    "turn_seconds": "Turn timer (s)",
    "gathering_seconds": "Gathering before play (s)",
    "private": "Private",
    "allow_spectators": "Spectators may watch",
    "text": "Text",
    "table_id": "Table",
    "author": "Author",
    "muted_until": "Muted until",
    "minutes": "Minutes",
    "bot_fill": "Bots fill empty seats",
    "seat": "Seat",
    "level": "Level",
    "answer": "Answer",
    "link_expires_at": "Link expires",
    "link_made_at": "Link made",
    "link_made_by": "Link made by",
    "sessions_ended": "Sessions ended",
}

# Fields whose values are codes with words of their own.
_VALUE_WORDS: dict[str, dict[str, str]] = {
    "seed_reveal": {"hand": "as each hand ends", "session": "when the session ends"},
    "game": {name: game.title for name, game in registry.GAMES.items()},
}
# Fields that hold a time (stored as ISO text); the page shows them in the viewer's zone.
_TIMES = frozenset({"expires_at", "muted_until", "signed_up_at", "link_expires_at", "link_made_at"})
# The games' own words for their options, for a table's or a configuration's rules.
_OPTIONS: dict[str, OptionInfo] = {
    key: info for game in registry.GAMES.values() for key, info in game.option_info.items()
}


@dataclass(frozen=True, slots=True)
class Shown:
    """One value as the page shows it: words, or a time for the page to localise."""

    words: str = ""
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """One field of an audit row: its name in words and its value before and after (None:
    the row has no such side)."""

    label: str
    before: Shown | None
    after: Shown | None


def field_words(field: str) -> str:
    option = _OPTIONS.get(field)
    return FIELDS.get(field) or (option.label if option else field.replace("_", " ").capitalize())


def shown(field: str, value: Any) -> Shown:
    """A stored value in words: on/off for a yes-or-no, the words of a code, a time."""
    if field in _OPTIONS and field not in FIELDS:
        return Shown(_OPTIONS[field].describe(value))
    if value is None or value == "":
        return Shown("none")
    if isinstance(value, bool):
        return Shown("on" if value else "off")
    if field == "seat" and isinstance(value, int):
        return Shown(str(value + 1))  # seats are counted from 1 at the table, as people do
    if field in _TIMES and isinstance(value, str):
        try:
            return Shown(at=datetime.fromisoformat(value))
        except ValueError:
            return Shown(value)
    if isinstance(value, Mapping):
        parts = (f"{field_words(key)} {shown(key, item).words}" for key, item in value.items())
        return Shown(", ".join(parts) or "none")
    if isinstance(value, list | tuple):
        return Shown(", ".join(shown(field, item).words for item in value) or "none")
    return Shown(_VALUE_WORDS.get(field, {}).get(str(value), str(value)))


def changes(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[Change]:
    """An audit row's fields in words, in the order it recorded them: one line per field,
    "Sign-up needs approval: off → on" when both sides hold it."""
    was, now = before or {}, after or {}
    order = list(was) + [field for field in now if field not in was]
    return [
        Change(
            field_words(field),
            shown(field, was[field]) if field in was else None,
            shown(field, now[field]) if field in now else None,
        )
        for field in order
    ]
