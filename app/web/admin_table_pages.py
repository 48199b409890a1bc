"""A table as an admin runs it (/admin/tables/{id}): pause, resume or close it, read its
chat (even without sitting there), remove a line, mute or unmute its authors.

The forms call the same services as the REST API; each action is one transaction with its
audit row, then the table's live pages hear of it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import escape

from app.api.deps import Caller, DbDep, OptionalCaller
from app.api.schemas import Id
from app.bots.levels import LEVELS
from app.db.models import TableStatus, User
from app.errors import Conflict, SalonError
from app.i18n import _, ngettext
from app.security.tokens import new_token
from app.services import moderation
from app.services import tables as table_service
from app.tables import replays
from app.tables.commands import Command, RemoveBot, SeatBot, SetBotFill, SetStatus
from app.tables.manager import TableManager
from app.tables.moderation import announce_removal
from app.web.admin_guards import ADMIN_PAGE_GUARDS, PageAdmin
from app.web.admin_pages import FORM_KEY
from app.web.admin_words import said
from app.web.display import when
from app.web.pages import render

router = APIRouter(
    prefix="/admin",
    tags=["pages"],
    default_response_class=HTMLResponse,
    dependencies=ADMIN_PAGE_GUARDS,
)

STATUS_VERBS: dict[str, TableStatus] = {
    "pause": TableStatus.PAUSED,
    "resume": TableStatus.OPEN,
    "close": TableStatus.CLOSED,
}


def mute_choices() -> dict[int, str]:
    """The mute lengths the page offers, in minutes (the API takes any from 1 to 30 days),
    in the reader's words."""
    return {
        15: ngettext("%(num)d minute", "%(num)d minutes", 15),
        60: ngettext("%(num)d hour", "%(num)d hours", 1),
        24 * 60: ngettext("%(num)d day", "%(num)d days", 1),
        7 * 24 * 60: ngettext("%(num)d week", "%(num)d weeks", 1),
    }


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.tables
    return manager


async def _table_page(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    table_id: int,
    status_code: int = 200,
    **extra: Any,
) -> Response:
    async with db.transaction() as session:
        table = await table_service.get_table(session, table_id)
        lines = await moderation.table_chat(session, table_id)
        authors = {line.user_id: line.username for line in lines}
        muted = {
            user_id: until
            for user_id in authors
            if (until := await moderation.muted_until(session, user_id)) is not None
        }
        seats = await table_service.seats_of(session, table_id)
    context = {
        "table": table,
        "seats": seats,
        "bot_levels": LEVELS,
        "lines": lines,
        "authors": authors,
        "muted": muted,
        "mute_choices": mute_choices(),
        "said": said,
        # Each page's own: a form sent twice (a double click) seats one bot.
        "new_request_key": new_token(16),
    }
    return await render(request, db, caller, "admin_table.html", status_code, **context, **extra)


@router.get("/tables/{table_id}")
async def table_page(request: Request, db: DbDep, caller: PageAdmin, table_id: Id) -> Response:
    return await _table_page(request, db, caller, table_id)


async def _act(request: Request, db: DbDep, caller: Caller, table_id: int, action: Any) -> Response:
    """Run one action as the admin; redisplay the table's page with its outcome."""
    try:
        notice = await action(caller.user)
    except SalonError as error:
        return await _table_page(request, db, caller, table_id, error.status_code, error=error)
    return await _table_page(request, db, caller, table_id, notice=notice)


@router.post("/tables/{table_id}/status")
async def set_status(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    table_id: Id,
    verb: Annotated[Literal["pause", "resume", "close"], Form()],
) -> Response:
    async def action(admin: User) -> str:
        async with db.transaction() as session:
            table = await table_service.get_table(session, table_id)
        if table.status == TableStatus.CLOSED:
            raise Conflict("table_closed", _("This table is closed."))
        actor = await _manager(request).table(table_id)
        answer = await actor.call(SetStatus(STATUS_VERBS[verb], by_admin=admin.id))
        return _("The table is %(status)s.", status=said("table_status", answer["status"]))

    return await _act(request, db, caller, table_id, action)


async def _ask_table(request: Request, db: DbDep, table_id: int, command: Command) -> Any:
    async with db.transaction() as session:
        table = await table_service.get_table(session, table_id)
    return await replays.ask(db, _manager(request), table, command)


@router.post("/tables/{table_id}/bots")
async def seat_bot(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    table_id: Id,
    level: Annotated[str, Form(max_length=10)],
    # The page's own key (a form sent twice seats one bot).
    bot_key: Annotated[str, Form(min_length=8, max_length=64, pattern=FORM_KEY)],
) -> Response:
    """Seat a bot (chips from the club's bank, the table's largest buy-in)."""

    async def action(admin: User) -> str:
        answer = await _ask_table(
            request, db, table_id, SeatBot(level, None, None, bot_key, admin.id)
        )
        return _("A bot sits in seat %(number)s.", number=answer.answer["seat"] + 1)

    return await _act(request, db, caller, table_id, action)


@router.post("/tables/{table_id}/bots/{seat}/remove")
async def remove_bot(
    request: Request, db: DbDep, caller: PageAdmin, table_id: Id, seat: int
) -> Response:
    async def action(admin: User) -> str:
        answer = await _ask_table(request, db, table_id, RemoveBot(seat, admin.id))
        return _("The bot has left.") if answer["left"] else _("The bot leaves after this hand.")

    return await _act(request, db, caller, table_id, action)


@router.post("/tables/{table_id}/bot-fill")
async def set_bot_fill(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    table_id: Id,
    level: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    """Fill empty seats with bots of `level` while a person plays ("" stops)."""

    async def action(admin: User) -> str:
        await _ask_table(request, db, table_id, SetBotFill(level or None, admin.id))
        if not level:
            return _("Empty seats are no longer filled with bots.")
        return _("Empty seats are filled with bots while someone plays here.")

    return await _act(request, db, caller, table_id, action)


@router.post("/chat/{message_id}/remove")
async def remove_line(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    message_id: Id,
    table_id: Annotated[Id, Form()],
) -> Response:
    async def action(admin: User) -> str:
        async with db.transaction() as session:
            removed = await moderation.remove_line(session, admin, message_id)
        await announce_removal(_manager(request), removed)
        return _("The line was removed: everyone sees it as removed by an admin.")

    return await _act(request, db, caller, table_id, action)


@router.post("/chat/mute")
async def mute(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    member_id: Annotated[Id, Form()],
    minutes: Annotated[int, Form(ge=1, le=moderation.MAX_MUTE_MINUTES)],
    table_id: Annotated[Id, Form()],
) -> Response:
    async def action(admin: User) -> str:
        async with db.transaction() as session:
            until = await moderation.mute(session, admin, member_id, minutes)
        # A <time> the page shows in the admin's own zone, in the sentence read as text.
        return escape(_("Muted in the chat until %(when)s.")) % {"when": when(until)}

    return await _act(request, db, caller, table_id, action)


@router.post("/chat/unmute")
async def unmute(
    request: Request,
    db: DbDep,
    caller: PageAdmin,
    member_id: Annotated[Id, Form()],
    table_id: Annotated[Id, Form()],
) -> Response:
    async def action(admin: User) -> str:
        async with db.transaction() as session:
            await moderation.unmute(session, admin, member_id)
        return _("They may chat again.")

    return await _act(request, db, caller, table_id, action)
