"""The club: one per installation, with its settings and its bank account."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AccountKind, Club, MemberStatus, Role, User
from app.errors import Conflict, InvalidInput, NotFound
from app.i18n import _, language_named
from app.security.text import clean_text
from app.services import admin_log, ledger, members


async def get_club(session: AsyncSession) -> Club:
    club = await session.get(Club, 1)
    if club is None:
        raise NotFound(
            "club_not_set_up",
            _("This installation has no club yet: run `salon demo` or `salon create-admin`."),
        )
    return club


async def club_exists(session: AsyncSession) -> bool:
    return await session.get(Club, 1) is not None


# When a hand's seed is published (club.seed_reveal): "hand", as each hand ends (everything
# becomes checkable at once), or "session", when the table's session ends.
SEED_REVEALS = ("hand", "session")


@dataclass(frozen=True, slots=True)
class ClubChanges:
    name: str | None = None
    chip_unit: str | None = None
    signup_requires_approval: bool | None = None
    default_turn_seconds: int | None = None
    members_may_create_tables: bool | None = None
    seed_reveal: str | None = None
    # The language of whoever neither chose one nor asks for one Salon speaks: a language's
    # code, or "" for none (English, the code's own); None leaves it as it is.
    default_language: str | None = None


def _checked(changes: ClubChanges) -> ClubChanges:
    """The changes with their texts as they are stored, or the first refusal."""
    texts: dict[str, str | None] = {}
    for field, limit in (("name", 80), ("chip_unit", 20)):
        value = getattr(changes, field)
        texts[field] = None if value is None else clean_text(value, limit)
        if value is not None and texts[field] is None:
            raise InvalidInput(
                f"invalid_{field}",
                _(
                    "The %(value)s must have 1 to %(limit)s characters of plain text.",
                    value=field.replace("_", " "),
                    limit=limit,
                ),
            )
    seconds = changes.default_turn_seconds
    if seconds is not None and not 5 <= seconds <= 600:
        raise InvalidInput("invalid_turn_seconds", _("The turn timer must be 5 to 600 seconds."))
    if changes.seed_reveal not in (None, *SEED_REVEALS):
        raise InvalidInput(
            "invalid_seed_reveal",
            _("Seeds are revealed at the end of each hand or of the session."),
        )
    language = changes.default_language
    if language:
        named = language_named(language)
        if named is None:
            raise InvalidInput(
                "unknown_language",
                _("Salon does not speak a language called '%(language)s'.", language=language[:16]),
            )
        language = named.code  # as the catalogs spell it ("pt-BR", not "pt-br")
    return replace(
        changes, name=texts["name"], chip_unit=texts["chip_unit"], default_language=language
    )


SETTINGS = (
    "name",
    "chip_unit",
    "signup_requires_approval",
    "default_turn_seconds",
    "members_may_create_tables",
    "seed_reveal",
    "default_language",
)


async def update_club(session: AsyncSession, changes: ClubChanges, actor: User) -> Club:
    """Change the club's settings; the audit row holds the settings that changed, before
    and after (a save that changes nothing still leaves its row: the admin did save)."""
    changes = _checked(changes)
    club = await get_club(session)
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    for field in SETTINGS:
        value = getattr(changes, field)
        if value is None:
            continue  # not asked to change
        if field == "default_language":
            value = value or None  # no default language is stored as NULL
        if value != getattr(club, field):
            before[field] = getattr(club, field)
            after[field] = value
            setattr(club, field, value)
    await session.flush()
    await admin_log.record(
        session,
        actor_id=actor.id,
        action="club.settings",
        target_kind="club",
        target_id=club.id,
        target_label=club.name,
        before=before,
        after=after,
    )
    return club


async def create_club(
    session: AsyncSession,
    *,
    name: str,
    owner_username: str,
    owner_password: str,
    owner_display_name: str | None = None,
) -> tuple[Club, User]:
    """Found the club: its row, its bank, and its owner (an active member with an account)."""
    if await club_exists(session):
        raise Conflict("club_exists", _("This installation already has a club."))
    club = Club(id=1, name=name)
    session.add(club)
    await ledger.open_account(session, ledger.BANK_KEY, AccountKind.BANK)
    owner = await members.create_user(
        session,
        username=owner_username,
        password=owner_password,
        display_name=owner_display_name or owner_username,
        role=Role.OWNER,
        status=MemberStatus.ACTIVE,
    )
    await session.flush()
    return club, owner


async def owner(session: AsyncSession) -> User | None:
    found: User | None = await session.scalar(select(User).where(User.role == Role.OWNER))
    return found
