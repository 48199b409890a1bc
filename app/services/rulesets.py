"""The club's named house-rule configurations: list, create, edit, clone, archive.

Each admin action is one function taking the acting admin, run in the caller's
transaction, so each can be recorded (in the audit log) in one place. A configuration is
never deleted: tables opened from it refer to it. The engine's built-in presets are
read-only starting points, offered to be cloned.

A stored configuration is checked by the engine each time it is read (``checked``): one
that no longer validates (an option a later version dropped, a value out of range, a row
written by hand) is still listed, marked invalid with the engine's reason, and can be
archived or fixed; it opens no table and is not cloned (``ruleset_invalid``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import RuleSet, User
from app.db.types import utcnow
from app.errors import Conflict, InvalidInput, NotFound
from app.i18n import _
from app.security.text import clean_text
from app.services import admin_log, rule_words

NAME_LENGTH = 60
DESCRIPTION_LENGTH = 300


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSetDraft:
    """What an admin submits: the game, a name, a note, and the options (as the engine
    reads them; options equal to the defaults may be included)."""

    game: str
    name: str
    description: str = ""
    options: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Preset:
    """A built-in preset of the engine, shown as a read-only configuration."""

    game: str
    key: str
    options: dict[str, Any]

    @property
    def name(self) -> str:
        return rule_words.preset_title(self.key)


def presets(game: str | None = None) -> list[Preset]:
    return [
        Preset(name, key, rules.to_dict())
        for name, game_rules in rule_words.GAMES.items()
        if game in (None, name)
        for key, rules in game_rules.presets.items()
    ]


def get_preset(game: str, key: str) -> Preset:
    for found in presets(rule_words.known_game(game)):
        if found.key == key:
            return found
    raise NotFound(
        "preset_not_found",
        _("There is no built-in %(game)s preset named '%(key)s'.", game=game, key=key),
    )


@dataclass(frozen=True, slots=True)
class CheckedRuleSet:
    """A stored configuration as the engine reads it now: its ``options`` normalised, or
    (None and) the ``problem``, the engine's refusal naming the option at fault."""

    ruleset: RuleSet
    options: dict[str, Any] | None
    problem: InvalidInput | None

    @property
    def valid(self) -> bool:
        return self.options is not None

    @property
    def summary(self) -> str:
        """The rules in one line, or why they are invalid."""
        if self.options is not None:
            return rule_words.summary(self.ruleset.game, self.options)
        return f"Invalid: {self._reason}"

    @property
    def _reason(self) -> str:
        return self.problem.message if self.problem is not None else "no options."

    @property
    def stored_options(self) -> dict[str, Any] | None:
        """The options as stored, shown to the admin who fixes them (None when what is
        stored is not an object of option: value at all)."""
        stored = self.ruleset.options
        return dict(stored) if isinstance(stored, Mapping) else None

    def usable_options(self) -> dict[str, Any]:
        """The options, for a table or a copy; ``ruleset_invalid`` when they are not valid."""
        if self.options is not None:
            return self.options
        raise Conflict(
            "ruleset_invalid",
            _(
                "'%(name)s' holds rules Salon no longer accepts: %(reason)s "
                "An admin must fix or archive it first.",
                name=self.ruleset.name,
                reason=self._reason,
            ),
            field="ruleset_id",
            problem=self.problem.to_dict() if self.problem is not None else None,
        )


def checked(ruleset: RuleSet) -> CheckedRuleSet:
    """The one reading of a stored configuration: never raises on what is stored."""
    try:
        # unknown_game (a game no longer dealt) or the engine's refusal (invalid_rules).
        options = rule_words.check(ruleset.game, ruleset.options)
    except InvalidInput as problem:
        return CheckedRuleSet(ruleset, None, problem)
    return CheckedRuleSet(ruleset, options, None)


async def list_rulesets(
    session: AsyncSession, game: str | None = None, *, include_archived: bool = True
) -> list[CheckedRuleSet]:
    query = select(RuleSet).order_by(RuleSet.game, RuleSet.archived, RuleSet.name)
    if game is not None:
        query = query.where(RuleSet.game == rule_words.known_game(game))
    if not include_archived:
        query = query.where(RuleSet.archived.is_(False))
    return [checked(found) for found in (await session.scalars(query)).all()]


async def get_ruleset(session: AsyncSession, ruleset_id: int) -> RuleSet:
    found = await session.get(RuleSet, ruleset_id)
    if found is None:
        raise NotFound(
            "ruleset_not_found",
            _("No house-rule configuration with id %(ruleset_id)s.", ruleset_id=ruleset_id),
        )
    return found


def _name(name: str) -> str:
    cleaned = clean_text(name, NAME_LENGTH)
    if cleaned is None:
        raise InvalidInput(
            "invalid_name",
            _(
                "A configuration's name has 1 to %(name_length)s characters of plain text.",
                name_length=NAME_LENGTH,
            ),
            field="name",
        )
    return cleaned


def _description(text: str) -> str:
    if not text.strip():
        return ""
    cleaned = clean_text(text, DESCRIPTION_LENGTH)
    if cleaned is None:
        raise InvalidInput(
            "invalid_description",
            _(
                "A description has at most %(description_length)s characters of plain text.",
                description_length=DESCRIPTION_LENGTH,
            ),
            field="description",
        )
    return cleaned


async def _check_name_free(
    session: AsyncSession, game: str, name: str, except_id: int | None = None
) -> None:
    query = select(RuleSet.id).where(RuleSet.game == game, RuleSet.name == name)
    if except_id is not None:
        query = query.where(RuleSet.id != except_id)
    if await session.scalar(query) is not None:
        raise Conflict(
            "ruleset_name_taken",
            _(
                "The club already has a %(title)s configuration named '%(name)s' "
                "(archived ones keep their names).",
                title=rule_words.game_rules(game).title,
                name=name,
            ),
            field="name",
        )


async def create_ruleset(session: AsyncSession, actor: User, draft: RuleSetDraft) -> RuleSet:
    ruleset = await _create(session, actor, draft)
    await _log(session, actor, "rules.create", ruleset, after=_settings(ruleset))
    return ruleset


async def _create(session: AsyncSession, actor: User, draft: RuleSetDraft) -> RuleSet:
    game = rule_words.known_game(draft.game)
    name = _name(draft.name)
    description = _description(draft.description)
    options = rule_words.check(game, draft.options)
    await _check_name_free(session, game, name)
    ruleset = RuleSet(
        game=game,
        name=name,
        description=description,
        options=options,
        archived=False,
        created_by_id=actor.id,
    )
    session.add(ruleset)
    await session.flush()
    return ruleset


def _settings(ruleset: RuleSet) -> dict[str, Any]:
    """A configuration as its audit rows show it (its options as stored, even invalid)."""
    stored = ruleset.options
    return {
        "game": ruleset.game,
        "name": ruleset.name,
        "description": ruleset.description,
        "options": dict(stored) if isinstance(stored, Mapping) else stored,
    }


async def _log(
    session: AsyncSession,
    actor: User,
    action: str,
    ruleset: RuleSet,
    *,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> None:
    await admin_log.record(
        session,
        actor_id=actor.id,
        action=action,
        target_kind="ruleset",
        target_id=ruleset.id,
        target_label=ruleset.name,
        before=before,
        after=after,
    )


async def edit_ruleset(
    session: AsyncSession, actor: User, ruleset_id: int, draft: RuleSetDraft
) -> RuleSet:
    """Change a configuration's name, note and options. Tables already opened from it keep
    the copy of the rules they were opened with."""
    ruleset = await get_ruleset(session, ruleset_id)
    if ruleset.archived:
        raise Conflict("ruleset_archived", _("Restore this configuration before editing it."))
    if draft.game != ruleset.game:
        raise InvalidInput(
            "game_mismatch", _("A configuration's game cannot be changed."), field="game"
        )
    name = _name(draft.name)
    description = _description(draft.description)
    options = rule_words.check(ruleset.game, draft.options)
    await _check_name_free(session, ruleset.game, name, except_id=ruleset.id)
    before = _settings(ruleset)
    ruleset.name = name
    ruleset.description = description
    ruleset.options = options
    ruleset.updated_at = utcnow()
    await session.flush()
    if _settings(ruleset) != before:  # saving the form unchanged is no change
        await _log(session, actor, "rules.edit", ruleset, before=before, after=_settings(ruleset))
    return ruleset


async def clone_ruleset(
    session: AsyncSession, actor: User, source: RuleSet | Preset, name: str | None = None
) -> RuleSet:
    """A new configuration holding the same options as a saved one or a built-in preset,
    named ``name`` or "<source> (copy)" (then "(copy 2)"… while the name is taken). A
    saved one that no longer validates is not copied (``ruleset_invalid``): fix it first."""
    options = checked(source).usable_options() if isinstance(source, RuleSet) else source.options
    if name is None:
        name = await _free_copy_name(session, source.game, source.name)
    ruleset = await _create(
        session,
        actor,
        RuleSetDraft(
            game=source.game,
            name=name,
            description=source.description if isinstance(source, RuleSet) else "",
            options=options,
        ),
    )
    origin: dict[str, Any] = (
        {"ruleset_id": source.id, "name": source.name}
        if isinstance(source, RuleSet)
        else {"preset": source.key, "name": source.name}
    )
    await _log(
        session, actor, "rules.clone", ruleset, before={"from": origin}, after=_settings(ruleset)
    )
    return ruleset


async def _free_copy_name(session: AsyncSession, game: str, base: str) -> str:
    for n in range(1, 100):
        suffix = " (copy)" if n == 1 else f" (copy {n})"
        candidate = base[: NAME_LENGTH - len(suffix)] + suffix
        taken = await session.scalar(
            select(RuleSet.id).where(RuleSet.game == game, RuleSet.name == candidate)
        )
        if taken is None:
            return candidate
    raise Conflict("ruleset_name_taken", _("Give the copy a name of its own."), field="name")


async def archive_ruleset(session: AsyncSession, actor: User, ruleset_id: int) -> RuleSet:
    """Hide a configuration from the choices for new tables; tables keep their rules."""
    return await _set_archived(session, actor, ruleset_id, archived=True)


async def restore_ruleset(session: AsyncSession, actor: User, ruleset_id: int) -> RuleSet:
    return await _set_archived(session, actor, ruleset_id, archived=False)


async def _set_archived(
    session: AsyncSession, actor: User, ruleset_id: int, *, archived: bool
) -> RuleSet:
    """Archiving an archived configuration (or restoring a live one) changes nothing and
    writes no audit row."""
    ruleset = await get_ruleset(session, ruleset_id)
    if ruleset.archived == archived:
        return ruleset
    ruleset.archived = archived
    ruleset.updated_at = utcnow()
    await session.flush()
    await _log(
        session,
        actor,
        "rules.archive" if archived else "rules.restore",
        ruleset,
        before={"archived": not archived},
        after={"archived": archived},
    )
    return ruleset


async def rules_for_table(
    session: AsyncSession, game: str, ruleset_id: int, stakes: Mapping[str, Any]
) -> dict[str, Any]:
    """A copy of a configuration's rules for a table being opened (or edited before its
    first hand), with the opener's stakes (Bourré's ante and pot limit, Bouillotte's cave)
    over the configuration's own. A configuration that no longer validates opens no table
    (``ruleset_invalid``)."""
    ruleset = await get_ruleset(session, ruleset_id)
    if ruleset.game != game:
        raise InvalidInput(
            "ruleset_game_mismatch",
            _(
                "'%(name)s' is a %(title)s configuration.",
                name=ruleset.name,
                title=rule_words.game_rules(ruleset.game).title,
            ),
            field="ruleset_id",
        )
    if ruleset.archived:
        raise Conflict(
            "ruleset_archived", _("'%(name)s' is archived.", name=ruleset.name), field="ruleset_id"
        )
    allowed = rule_words.game_rules(game).stakes
    for key in stakes:
        if key not in allowed:
            raise InvalidInput(
                "not_a_stake",
                _(
                    "'%(key)s' is a house rule of the configuration, not a stake "
                    "(the stakes are: %(stakes)s).",
                    key=key,
                    stakes=", ".join(allowed),
                ),
                field=key,
            )
    return {**checked(ruleset).usable_options(), **stakes}
