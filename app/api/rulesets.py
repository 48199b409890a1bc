"""The club's house-rule configurations over REST: the admins manage them under
``/api/admin/rulesets``; members read the active ones (to open a table) at
``/api/rulesets``.

A stored configuration that no longer validates is listed to the admins with
``"valid": false`` and the engine's refusal as ``error`` (the shape of every error body),
so that they can fix or archive it; the members' list leaves it out, since no table can be
opened with it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path
from pydantic import Field, StrictStr

from app.api.deps import AdminCaller, CurrentCaller, DbDep, csrf_protect
from app.api.schemas import ErrorBody, GameKey, Id, Input, Output, RuleOptionValues
from app.db.models import RuleSet, User
from app.errors import Conflict
from app.i18n import _
from app.security.text import plain_text
from app.services import rule_words, rulesets

admin_router = APIRouter(
    prefix="/api/admin/rulesets", tags=["admin"], dependencies=[Depends(csrf_protect)]
)
router = APIRouter(prefix="/api/rulesets", tags=["tables"], dependencies=[Depends(csrf_protect)])

Game = GameKey
Name = Annotated[StrictStr, Field(min_length=1, max_length=60), plain_text(60)]
PresetKey = Annotated[str, Path(max_length=40)]
Description = Annotated[StrictStr, Field(max_length=300)]


class RuleSetCreate(Input):
    game: Game
    name: Name
    description: Description = ""
    # Every option or only some: the others take the game's defaults.
    options: RuleOptionValues = Field(default_factory=dict)


class RuleSetUpdate(Input):
    name: Name | None = None
    description: Description | None = None
    # Replaces the options as a whole (those left out take the defaults).
    options: RuleOptionValues | None = None


class RuleSetClone(Input):
    name: Name | None = None


class RuleLinePublic(Output):
    label: str
    words: str
    section: str
    changed: bool


class RuleSetPublic(Output):
    id: int | None  # None for a built-in preset
    preset: str | None = None
    game: str
    name: str
    description: str = ""
    # As the engine reads them; as stored when invalid (None: not an object at all).
    options: dict[str, Any] | None
    archived: bool = False
    read_only: bool
    summary: str
    rules: list[RuleLinePublic]
    # False for a stored configuration the engine refuses now (`error` says why, on which
    # option): it can be fixed or archived, and opens no table.
    valid: bool = True
    error: ErrorBody | None = None


class RuleSetList(Output):
    rulesets: list[RuleSetPublic]
    presets: list[RuleSetPublic]


class OptionFieldPublic(Output):
    name: str
    label: str
    section: str
    explanation: str
    kind: str
    choices: list[tuple[str, str]]
    minimum: int | None
    maximum: int | None
    none_words: str | None
    default: object


class RuleSetSummary(Output):
    id: int
    game: str
    name: str
    summary: str
    # The configuration's stakes (ante, pot limit / cave): a table's opener starts from them.
    stakes: dict[str, Any]


def public(found: RuleSet | rulesets.CheckedRuleSet | rulesets.Preset) -> RuleSetPublic:
    if isinstance(found, RuleSet):
        found = rulesets.checked(found)
    if isinstance(found, rulesets.Preset):
        return RuleSetPublic(
            id=None,
            preset=found.key,
            read_only=True,
            game=found.game,
            name=found.name,
            options=dict(found.options),
            summary=rule_words.summary(found.game, found.options),
            rules=_rule_lines(found.game, found.options),
        )
    saved = found.ruleset
    return RuleSetPublic(
        id=saved.id,
        game=saved.game,
        name=saved.name,
        description=saved.description,
        archived=saved.archived,
        read_only=False,
        options=found.options if found.options is not None else found.stored_options,
        summary=found.summary,
        rules=[] if found.options is None else _rule_lines(saved.game, found.options),
        valid=found.valid,
        error=ErrorBody(**found.problem.to_dict()) if found.problem is not None else None,
    )


def _rule_lines(game: str, options: dict[str, Any]) -> list[RuleLinePublic]:
    return [
        RuleLinePublic(
            label=line.label, words=line.words, section=line.section, changed=line.changed
        )
        for line in rule_words.listing(game, options)
    ]


@admin_router.get("")
async def list_rulesets(
    caller: AdminCaller, db: DbDep, game: Game | None = None, archived: bool = True
) -> RuleSetList:
    """The club's configurations (archived ones too unless `archived=false`) and the
    engine's built-in presets, read-only starting points to clone."""
    async with db.transaction() as session:
        found = await rulesets.list_rulesets(session, game, include_archived=archived)
    saved = [public(r) for r in found]
    return RuleSetList(rulesets=saved, presets=[public(p) for p in rulesets.presets(game)])


@admin_router.get("/schema/{game}")
async def option_schema(game: Game, caller: AdminCaller) -> list[OptionFieldPublic]:
    """Every option of the game: label, allowed values, default, rules section and one
    sentence; the house-rules form is generated from it."""
    return [
        OptionFieldPublic(
            name=f.name,
            label=f.label,
            section=f.info.section,
            explanation=f.explanation,
            kind=f.info.kind,
            choices=f.choices,
            minimum=f.info.minimum,
            maximum=f.info.maximum,
            none_words=f.none_words,
            default=f.default,
        )
        for f in rule_words.option_fields(game, {})
    ]


@admin_router.post("", status_code=201)
async def create_ruleset(body: RuleSetCreate, caller: AdminCaller, db: DbDep) -> RuleSetPublic:
    draft = rulesets.RuleSetDraft(
        game=body.game, name=body.name, description=body.description, options=body.options
    )
    async with db.transaction() as session:
        actor = await session.get(User, caller.user.id)
        assert actor is not None
        return public(await rulesets.create_ruleset(session, actor, draft))


@admin_router.get("/presets/{game}/{key}")
async def get_preset(game: Game, key: PresetKey, caller: AdminCaller) -> RuleSetPublic:
    return public(rulesets.get_preset(game, key))


@admin_router.patch("/presets/{game}/{key}")
async def edit_preset(game: Game, key: PresetKey, caller: AdminCaller) -> RuleSetPublic:
    """Always refused: a built-in preset is a read-only starting point (clone it)."""
    rulesets.get_preset(game, key)
    raise Conflict("preset_read_only", _("A built-in preset cannot be changed: clone it first."))


@admin_router.post("/presets/{game}/{key}/clone", status_code=201)
async def clone_preset(
    game: Game,
    key: PresetKey,
    body: RuleSetClone,
    caller: AdminCaller,
    db: DbDep,
) -> RuleSetPublic:
    source = rulesets.get_preset(game, key)
    async with db.transaction() as session:
        actor = await session.get(User, caller.user.id)
        assert actor is not None
        return public(await rulesets.clone_ruleset(session, actor, source, body.name))


@admin_router.get("/{ruleset_id}")
async def get_ruleset(ruleset_id: Id, caller: AdminCaller, db: DbDep) -> RuleSetPublic:
    async with db.transaction() as session:
        return public(await rulesets.get_ruleset(session, ruleset_id))


@admin_router.patch("/{ruleset_id}")
async def edit_ruleset(
    ruleset_id: Id, body: RuleSetUpdate, caller: AdminCaller, db: DbDep
) -> RuleSetPublic:
    """Tables already opened from this configuration keep the rules they were opened with."""
    async with db.transaction() as session:
        actor = await session.get(User, caller.user.id)
        assert actor is not None
        current = await rulesets.get_ruleset(session, ruleset_id)
        draft = rulesets.RuleSetDraft(
            game=current.game,
            name=body.name if body.name is not None else current.name,
            description=body.description if body.description is not None else current.description,
            options=body.options if body.options is not None else current.options,
        )
        return public(await rulesets.edit_ruleset(session, actor, ruleset_id, draft))


@admin_router.post("/{ruleset_id}/clone", status_code=201)
async def clone_ruleset(
    ruleset_id: Id, body: RuleSetClone, caller: AdminCaller, db: DbDep
) -> RuleSetPublic:
    async with db.transaction() as session:
        actor = await session.get(User, caller.user.id)
        assert actor is not None
        source = await rulesets.get_ruleset(session, ruleset_id)
        return public(await rulesets.clone_ruleset(session, actor, source, body.name))


@admin_router.post("/{ruleset_id}/archive")
async def archive_ruleset(ruleset_id: Id, caller: AdminCaller, db: DbDep) -> RuleSetPublic:
    """No longer offered for new tables; never deleted (tables refer to it)."""
    async with db.transaction() as session:
        actor = await session.get(User, caller.user.id)
        assert actor is not None
        return public(await rulesets.archive_ruleset(session, actor, ruleset_id))


@admin_router.post("/{ruleset_id}/restore")
async def restore_ruleset(ruleset_id: Id, caller: AdminCaller, db: DbDep) -> RuleSetPublic:
    async with db.transaction() as session:
        actor = await session.get(User, caller.user.id)
        assert actor is not None
        return public(await rulesets.restore_ruleset(session, actor, ruleset_id))


@router.get("")
async def active_rulesets(
    caller: CurrentCaller, db: DbDep, game: Game | None = None
) -> list[RuleSetSummary]:
    """The club's configurations a table can be opened with, each in one line. One whose
    stored rules no longer validate is left out: it opens no table until an admin fixes it."""
    async with db.transaction() as session:
        found = await rulesets.list_rulesets(session, game, include_archived=False)
    return [
        RuleSetSummary(
            id=r.ruleset.id,
            game=r.ruleset.game,
            name=r.ruleset.name,
            summary=r.summary,
            stakes=rule_words.stakes_of(r.ruleset.game, r.options),
        )
        for r in found
        if r.options is not None
    ]
