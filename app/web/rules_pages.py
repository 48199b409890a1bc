"""House-rule pages: the admins' configurations under /admin/rules (a form generated from
the engine's option schema, errors beside their fields), opening a table from one, and
each table's rules in words at /tables/{id}/rules.

Forms post here and call the same services as the REST API, one transaction each.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote_plus

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import Caller, DbDep, OptionalCaller, csrf_protect
from app.api.schemas import Id
from app.db.models import GameTable, RuleSet, TableStatus, User
from app.engine.registry import DEFAULT_GAME, DRIVERS, GAME_NAMES
from app.errors import Conflict, InvalidInput, NotFound, SalonError
from app.i18n import _
from app.services import club, rule_words, rulesets
from app.services import tables as table_service
from app.tables.commands import EditTable
from app.tables.manager import TableManager
from app.web.admin_guards import ADMIN_PAGE_GUARDS, PageAdmin
from app.web.form_fields import whole_number
from app.web.pages import redirect, render

router = APIRouter(
    tags=["pages"], default_response_class=HTMLResponse, dependencies=[Depends(csrf_protect)]
)
admin_router = APIRouter(
    prefix="/admin",
    tags=["pages"],
    default_response_class=HTMLResponse,
    dependencies=ADMIN_PAGE_GUARDS,
)

GameParam = Annotated[str, Query(pattern=f"^({'|'.join(GAME_NAMES)})$")]
PresetKey = Annotated[str, Path(max_length=40)]


async def _actor(session: AsyncSession, caller: Caller) -> User:
    user = await session.get(User, caller.user.id)
    assert user is not None
    return user


@admin_router.get("/rules")
async def rules_list(
    request: Request, db: DbDep, caller: PageAdmin, notice: str | None = None
) -> Response:
    async with db.transaction() as session:
        saved = await rulesets.list_rulesets(session)
        the_club = await club.get_club(session)
    return await render(
        request,
        db,
        caller,
        "admin_rules.html",
        games=rule_words.GAMES,
        saved=saved,
        presets=rulesets.presets(),
        summary=rule_words.summary,
        default_turn_seconds=the_club.default_turn_seconds,
        notice=notice,
    )


async def _form_page(
    request: Request,
    db: DbDep,
    caller: Caller,
    *,
    game: str,
    options: dict[str, Any],
    ruleset: RuleSet | None = None,
    preset: rulesets.Preset | None = None,
    name: str = "",
    description: str = "",
    error: SalonError | None = None,
    stored_problem: SalonError | None = None,
    notice: str | None = None,
) -> Response:
    """The form; ``error`` is what was just refused, ``stored_problem`` why the saved
    options no longer validate (the page still opens, to fix them), each placed on the
    fields it concerns."""
    errors: dict[str, str] = {}
    placed = error or stored_problem
    if isinstance(placed, rule_words.InvalidRules):
        errors = {field: placed.message for field in placed.fields}
    elif placed is not None and isinstance(placed.details.get("field"), str):
        errors = {str(placed.details["field"]): placed.message}
    return await render(
        request,
        db,
        caller,
        "admin_rules_form.html",
        error.status_code if error else 200,
        game=game,
        game_title=rule_words.game_rules(game).title,
        fields=rule_words.option_fields(game, options),
        ruleset=ruleset,
        preset=preset,
        name=name,
        description=description,
        errors=errors,
        error=error if error is not None and not errors else None,
        not_saved=error is not None and bool(errors),
        stored_problem=stored_problem,
        notice=notice,
    )


@admin_router.get("/rules/new")
async def new_form(
    request: Request, db: DbDep, caller: PageAdmin, game: GameParam = DEFAULT_GAME
) -> Response:
    return await _form_page(request, db, caller, game=game, options={})


def _submitted(form: Any) -> dict[str, str]:
    return {key: value for key, value in form.items() if isinstance(value, str)}


@admin_router.post("/rules/new")
async def create(request: Request, db: DbDep, caller: PageAdmin) -> Response:
    form = _submitted(await request.form())
    game = form.get("game", "")
    if game not in rule_words.GAMES:
        titles = [entry.title for entry in DRIVERS]
        raise InvalidInput(
            "unknown_game",
            _("Choose %(first)s or %(second)s.", first=titles[0], second=titles[1])
            if len(titles) == 2
            else _("Choose one of: %(games)s.", games=", ".join(titles)),
            field="game",
        )
    name, description = form.get("name", ""), form.get("description", "")
    try:
        options = rule_words.parse_form(game, form)
    except rule_words.InvalidRules as error:
        return await _form_page(
            request,
            db,
            caller,
            game=game,
            options={},
            name=name,
            description=description,
            error=error,
        )
    try:
        async with db.transaction() as session:
            made = await rulesets.create_ruleset(
                session,
                await _actor(session, caller),
                rulesets.RuleSetDraft(
                    game=game, name=name, description=description, options=options
                ),
            )
    except SalonError as error:
        return await _form_page(
            request,
            db,
            caller,
            game=game,
            options=options,
            name=name,
            description=description,
            error=error,
        )
    return redirect(f"/admin/rules/{made.id}?saved=1")


@admin_router.get("/rules/presets/{game}/{key}")
async def preset_page(
    request: Request, db: DbDep, caller: PageAdmin, game: str, key: PresetKey
) -> Response:
    preset = rulesets.get_preset(rule_words.known_game(game), key)
    return await _form_page(
        request, db, caller, game=game, options=preset.options, preset=preset, name=preset.name
    )


@admin_router.post("/rules/presets/{game}/{key}/clone")
async def clone_preset(db: DbDep, caller: PageAdmin, game: str, key: PresetKey) -> Response:
    preset = rulesets.get_preset(rule_words.known_game(game), key)
    async with db.transaction() as session:
        made = await rulesets.clone_ruleset(session, await _actor(session, caller), preset)
    return redirect(f"/admin/rules/{made.id}")


@admin_router.get("/rules/{ruleset_id}")
async def edit_form(
    request: Request, db: DbDep, caller: PageAdmin, ruleset_id: Id, saved: str | None = None
) -> Response:
    async with db.transaction() as session:
        found = rulesets.checked(await rulesets.get_ruleset(session, ruleset_id))
    return await _form_page(
        request,
        db,
        caller,
        game=found.ruleset.game,
        options=found.stored_options or {},
        ruleset=found.ruleset,
        name=found.ruleset.name,
        description=found.ruleset.description,
        stored_problem=found.problem,
        notice=_("Saved.") if saved else None,
    )


@admin_router.post("/rules/{ruleset_id}")
async def edit(request: Request, db: DbDep, caller: PageAdmin, ruleset_id: Id) -> Response:
    form = _submitted(await request.form())
    name, description = form.get("name", ""), form.get("description", "")
    async with db.transaction() as session:
        found = await rulesets.get_ruleset(session, ruleset_id)
    options = rulesets.checked(found).stored_options or {}
    try:
        options = rule_words.parse_form(found.game, form)
        async with db.transaction() as session:
            await rulesets.edit_ruleset(
                session,
                await _actor(session, caller),
                ruleset_id,
                rulesets.RuleSetDraft(
                    game=found.game, name=name, description=description, options=options
                ),
            )
    except SalonError as error:
        return await _form_page(
            request,
            db,
            caller,
            game=found.game,
            options=options,
            ruleset=found,
            name=name,
            description=description,
            error=error,
        )
    return redirect(f"/admin/rules/{ruleset_id}?saved=1")


@admin_router.post("/rules/{ruleset_id}/clone")
async def clone(db: DbDep, caller: PageAdmin, ruleset_id: Id) -> Response:
    async with db.transaction() as session:
        source = await rulesets.get_ruleset(session, ruleset_id)
        made = await rulesets.clone_ruleset(session, await _actor(session, caller), source)
    return redirect(f"/admin/rules/{made.id}")


@admin_router.post("/rules/{ruleset_id}/archive")
async def archive(db: DbDep, caller: PageAdmin, ruleset_id: Id) -> Response:
    async with db.transaction() as session:
        found = await rulesets.archive_ruleset(session, await _actor(session, caller), ruleset_id)
    return redirect("/admin/rules?notice=" + quote_plus(_("%(name)s archived.", name=found.name)))


@admin_router.post("/rules/{ruleset_id}/restore")
async def restore(db: DbDep, caller: PageAdmin, ruleset_id: Id) -> Response:
    async with db.transaction() as session:
        found = await rulesets.restore_ruleset(session, await _actor(session, caller), ruleset_id)
    return redirect("/admin/rules?notice=" + quote_plus(_("%(name)s restored.", name=found.name)))


@admin_router.post("/rules/{ruleset_id}/open")
async def open_table(request: Request, db: DbDep, caller: PageAdmin, ruleset_id: Id) -> Response:
    """Open a table with this configuration and the stakes typed in the form."""
    form = _submitted(await request.form())
    try:
        async with db.transaction() as session:
            found = await rulesets.get_ruleset(session, ruleset_id)
            stakes = {
                key: whole_number(form[key], rule_words.game_rules(found.game).info[key].label)
                for key in rule_words.game_rules(found.game).stakes
                if form.get(key, "").strip()
            }
            cave = stakes.get("cave")
            spec = table_service.TableSpec(
                name=form.get("table_name", ""),
                game=found.game,
                rules=stakes,
                ruleset_id=found.id,
                seat_count=whole_number(form.get("seat_count", ""), _("Seats")),
                buy_in_min=cave or whole_number(form.get("buy_in_min", ""), _("Smallest buy-in")),
                buy_in_max=cave or whole_number(form.get("buy_in_max", ""), _("Largest buy-in")),
                turn_seconds=whole_number(form.get("turn_seconds", ""), _("Turn timer")),
            )
            table = await table_service.create_table(session, await _actor(session, caller), spec)
    except SalonError as error:
        return await render(request, db, caller, "error.html", error.status_code, error=error)
    return redirect(f"/tables/{table.id}")


@router.get("/tables/{table_id}/rules")
async def table_rules(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    table_id: Id,
    invite: Annotated[str | None, Query(max_length=64)] = None,
    edited: str | None = None,
) -> Response:
    """Every option of the table's house rules in words: the copy the table was opened
    with, whatever became of the configuration since."""
    if caller is None:
        return redirect("/login")
    return await _rules_page(
        request, db, caller, table_id, invite, notice=_("Table changed.") if edited else None
    )


async def _rules_page(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    table_id: int,
    invite: str | None = None,
    error: SalonError | None = None,
    notice: str | None = None,
) -> Response:
    assert caller is not None
    try:
        async with db.transaction() as session:
            table = await table_service.visible_table(session, table_id, caller.user, invite)
            source = await session.get(RuleSet, table.ruleset_id) if table.ruleset_id else None
            listed = await rulesets.list_rulesets(session, table.game, include_archived=False)
            choices = [entry.ruleset for entry in listed if entry.valid]
    except NotFound as not_found:
        return await render(request, db, caller, "error.html", 404, error=not_found)
    about = rule_words.game_rules(table.game)
    editable = (
        table_service.may_edit(table, caller.user)
        and table.hands_played == 0
        and table.status != TableStatus.CLOSED
    )
    return await render(
        request,
        db,
        caller,
        "rules.html",
        error.status_code if error else 200,
        table=table,
        game_title=about.title,
        source=source,
        summary=rule_words.summary(table.game, table.rules),
        lines=rule_words.listing(table.game, table.rules),
        editable=editable,
        choices=choices,
        stakes=[
            (key, about.info[key], value)
            for key, value in rule_words.stakes_of(table.game, table.rules).items()
        ],
        error=error,
        notice=notice,
    )


@router.post("/tables/{table_id}/edit")
async def edit_table(request: Request, db: DbDep, caller: OptionalCaller, table_id: Id) -> Response:
    """Change a table before its first hand, from its rules page (through the table's
    actor, so an edit and the first deal never cross)."""
    if caller is None:
        return redirect("/login")
    form = _submitted(await request.form())
    try:
        async with db.transaction() as session:
            table = await table_service.visible_table(session, table_id, caller.user)
        if table.status == TableStatus.CLOSED:
            raise Conflict("table_closed", _("This table is closed."))
        edit = _table_edit(table, form)
        manager: TableManager = request.app.state.tables
        actor = await manager.table(table_id)
        await actor.call(EditTable(caller.user.id, edit))
    except SalonError as error:
        return await _rules_page(request, db, caller, table_id, error=error)
    return redirect(f"/tables/{table_id}/rules?edited=1")


def _table_edit(table: GameTable, form: dict[str, str]) -> table_service.TableEdit:
    """Only what the form changes, so a table with players seated can still be renamed."""
    about = rule_words.game_rules(table.game)
    current = rule_words.stakes_of(table.game, table.rules)
    stakes: dict[str, Any] = {}
    for key in about.stakes:
        typed = form.get(key, "").strip()
        stakes[key] = whole_number(typed, _(about.info[key].label)) if typed else None
    chosen = form.get("ruleset_id", "").strip()
    ruleset_id = whole_number(chosen, _("Configuration")) if chosen else None
    buy_in = {
        key: whole_number(form[key], _("Buy-in")) if form.get(key, "").strip() else None
        for key in ("buy_in_min", "buy_in_max")
    }
    name = form.get("table_name", "").strip()
    return table_service.TableEdit(
        name=name if name and name != table.name else None,
        ruleset_id=ruleset_id if ruleset_id != table.ruleset_id else None,
        stakes=stakes if stakes != current else None,
        buy_in_min=buy_in["buy_in_min"] if buy_in["buy_in_min"] != table.buy_in_min else None,
        buy_in_max=buy_in["buy_in_max"] if buy_in["buy_in_max"] != table.buy_in_max else None,
    )
