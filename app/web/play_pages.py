"""Pages where members play: the lobby and a table.

Both are shells drawn by the ES modules under static/js from the REST API and the table
WebSocket; the server renders only what the scripts need to start (the table's id and game,
who is looking, the create-table choices) and a `<noscript>` note.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import DbDep, OptionalCaller, SettingsDep
from app.api.schemas import Id
from app.bots.levels import LEVELS
from app.engine.registry import GAMES
from app.errors import NotFound
from app.i18n import _
from app.services import club, rule_words
from app.services import tables as table_service
from app.web.lobby_form import BUY_IN_RANGE_GAMES, STAKE_INPUTS
from app.web.pages import redirect, render

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)


@router.get("/lobby")
async def lobby_page(
    request: Request, db: DbDep, caller: OptionalCaller, settings: SettingsDep
) -> Response:
    if caller is None:
        return redirect("/login")
    async with db.transaction() as session:
        the_club = await club.get_club(session)
    return await render(
        request,
        db,
        caller,
        "lobby.html",
        can_create=caller.is_admin or the_club.members_may_create_tables,
        chip_unit=the_club.chip_unit,
        default_turn_seconds=the_club.default_turn_seconds,
        # A table left blank gathers for the club's setting (SALON_GATHERING_SECONDS).
        default_gathering_seconds=round(settings.gathering_seconds),
        presets={name: game.preset_names() for name, game in GAMES.items()},
        stake_inputs=STAKE_INPUTS,
        buy_in_range_games=BUY_IN_RANGE_GAMES,
        bot_levels=bot_level_words(),
    )


def bot_level_words() -> tuple[tuple[str, str], ...]:
    """How the lobby offers each level of play (app/bots/levels.py), in the reader's words."""
    words = {"random": _("Beginners (any legal move)"), "club": _("Club players")}
    return tuple((level, words.get(level, level)) for level in LEVELS)


@router.get("/tables/{table_id}")
async def table_page(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    table_id: Id,
    invite: Annotated[str | None, Query(max_length=64)] = None,
) -> Response:
    if caller is None:
        return redirect("/login")
    try:
        async with db.transaction() as session:
            table = await table_service.visible_table(session, table_id, caller.user, invite)
            the_club = await club.get_club(session)
    except NotFound as error:
        return await render(request, db, caller, "error.html", 404, error=error)
    return await render(
        request,
        db,
        caller,
        "table.html",
        table=table,
        chip_unit=the_club.chip_unit,
        rules_summary=rule_words.summary(table.game, table.rules),
    )
