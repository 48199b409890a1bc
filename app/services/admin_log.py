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
from app.engine.options import N_, OptionInfo
from app.i18n import _, pgettext
from app.services.rule_words import describe

# Every action name the log knows, with its words for the page (in English, marked: the page
# reads them in its reader's language through `action_words`). A new admin action adds its
# line here (and one line to the test that walks every admin action).
ACTIONS: dict[str, str] = {
    "member.approve": N_("approved a sign-up"),
    "member.reject": N_("rejected a sign-up"),
    "member.ban": N_("banned a member"),
    "member.unban": N_("unbanned a member"),
    "member.role": N_("changed a member's role"),
    "member.password_reset": N_("made a password-reset link"),
    "member.password_reset_used": N_("set a new password through a reset link"),
    "member.password_set": N_("set a member's password from the server's shell"),
    "invite.create": N_("created an invite"),
    "invite.revoke": N_("revoked an invite"),
    "chips.grant": N_("granted chips"),
    "chips.deduct": N_("deducted chips"),
    "chips.return_stranded": N_("returned stranded chips"),
    "club.settings": N_("changed the club's settings"),
    "table.open": N_("opened a table"),
    "table.pause": N_("paused a table"),
    "table.resume": N_("resumed a table"),
    "table.close": N_("closed a table"),
    "chat.remove": N_("removed a chat line"),
    "chat.mute": N_("muted a member in the chat"),
    "chat.unmute": N_("unmuted a member in the chat"),
    "latency.reset": N_("reset the tables' latency figures"),
    "rules.create": N_("created a house-rule configuration"),
    "rules.edit": N_("edited a house-rule configuration"),
    "rules.clone": N_("cloned a house-rule configuration"),
    "rules.archive": N_("archived a house-rule configuration"),
    "rules.restore": N_("restored a house-rule configuration"),
    "table.edit": N_("edited a table before its first hand"),
    "table.bot_seat": N_("seated a bot"),
    "table.bot_remove": N_("sent a bot away"),
    "table.bot_fill": N_("set a table to fill its seats with bots"),
    "chip_request.approve": N_("approved a chip request"),
    "chip_request.decline": N_("declined a chip request"),
}


# What an action can be done to (translated by `target_words`).
TARGET_KINDS: dict[str, str] = {
    "member": N_("a member"),
    "invite": N_("an invite"),
    "account": N_("a ledger account"),
    "club": N_("the club"),
    "table": N_("a table"),
    "chat_message": N_("a chat line"),
    "ruleset": N_("a house-rule configuration"),
    "chip_request": N_("a chip request"),
}


def action_words() -> dict[str, str]:
    """Every action name's words in the request's language (the names stay in the data, the
    filter's form and the exports)."""
    return {action: _(words) for action, words in ACTIONS.items()}


def target_words() -> dict[str, str]:
    """Every kind of target's words in the request's language."""
    return {kind: _(words) for kind, words in TARGET_KINDS.items()}


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
# reads "Sign-up needs approval"), translated by `field_words`. A field missing here reads
# as the games' option of that name says it, or else as its own name in words.
FIELDS: dict[str, str] = {
    "signup_requires_approval": N_("Sign-up needs approval"),
    "members_may_create_tables": N_("Members may open tables"),
    "default_turn_seconds": N_("Default turn timer (s)"),
    "chip_unit": N_("Chip unit"),
    "seed_reveal": N_("Hand seeds published"),
    "name": N_("Name"),
    "status": N_("Status"),
    "role": N_("Role"),
    "username": N_("Username"),
    "display_name": N_("Display name"),
    "signed_up_at": N_("Signed up"),
    "balance": N_("Balance"),
    "amount": N_("Amount"),
    "reason": N_("Reason"),
    "operation_id": N_("Ledger operation"),
    "chips": N_("Chips"),
    "returned": N_("Returned"),
    "max_uses": N_("Uses allowed"),
    "uses": N_("Used"),
    "expires_at": N_("Expires"),
    "revoked": N_("Revoked"),
    "game": N_("Game"),
    "rules": N_("Rules"),
    "options": N_("Options"),
    "description": N_("Description"),
    "from": N_("Copied from"),
    "archived": N_("Archived"),
    "seat_count": N_("Seats"),
    "buy_in_min": N_("Smallest buy-in"),
    "buy_in_max": N_("Largest buy-in"),
    "turn_seconds": N_("Turn timer (s)"),
    "gathering_seconds": N_("Gathering before play (s)"),
    "private": N_("Private"),
    "allow_spectators": N_("Spectators may watch"),
    "text": N_("Text"),
    "table_id": N_("Table"),
    "author": N_("Author"),
    "muted_until": N_("Muted until"),
    "minutes": N_("Minutes"),
    "bot_fill": N_("Bots fill empty seats"),
    "seat": N_("Seat"),
    "level": N_("Level"),
    "answer": N_("Answer"),
    "link_expires_at": N_("Link expires"),
    "link_made_at": N_("Link made"),
    "link_made_by": N_("Link made by"),
    "sessions_ended": N_("Sessions ended"),
}

# Fields whose values are codes with words of their own.
_VALUE_WORDS: dict[str, dict[str, str]] = {
    "seed_reveal": {"hand": N_("as each hand ends"), "session": N_("when the session ends")},
    "game": {name: game.title for name, game in registry.GAMES.items()},
    # A link made from the server's shell, by no member.
    "link_made_by": {"the salon command": N_("the salon command")},
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
    """A field's name in the request's language: the log's own words, or the games' words
    for an option of their rules (an ante, a pot limit…)."""
    if field in FIELDS:
        return _(FIELDS[field])
    option = _OPTIONS.get(field)
    return _(option.label) if option else field.replace("_", " ").capitalize()


def shown(field: str, value: Any) -> Shown:
    """A stored value in words, in the request's language: on/off for a yes-or-no, the
    words of a code, an option's value as the rules' pages say it, a time."""
    if field in _OPTIONS and field not in FIELDS:
        return Shown(describe(_OPTIONS[field], value))
    if value is None or value == "":
        return Shown(_("none"))
    if isinstance(value, bool):
        return Shown(pgettext("setting", "on") if value else pgettext("setting", "off"))
    if field == "seat" and isinstance(value, int):
        return Shown(str(value + 1))  # seats are counted from 1 at the table, as people do
    if field in _TIMES and isinstance(value, str):
        try:
            return Shown(at=datetime.fromisoformat(value))
        except ValueError:
            return Shown(value)
    if isinstance(value, Mapping):
        parts = (f"{field_words(key)} {shown(key, item).words}" for key, item in value.items())
        return Shown(", ".join(parts) or _("none"))
    if isinstance(value, list | tuple):
        return Shown(", ".join(shown(field, item).words for item in value) or _("none"))
    words = _VALUE_WORDS.get(field, {}).get(str(value))
    return Shown(str(value) if words is None else _(words))


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
