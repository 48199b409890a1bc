"""Tables over REST: the lobby list, creating tables, seats, and the admins' controls.

Everything that changes a live table goes through its actor, so it is ordered with the play.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from app.api import idempotency
from app.api.deps import AdminCaller, CurrentCaller, DbDep, csrf_protect
from app.api.schemas import (
    BotCreate,
    BotFillPublic,
    BotFillUpdate,
    Id,
    PracticeCreate,
    SeatCreate,
    SeatPublic,
    SeatResult,
    StatusPublic,
    TableCreate,
    TablePublic,
    TableUpdate,
    TopUpCreate,
)
from app.db.models import GameTable, TableStatus, User
from app.errors import Forbidden
from app.i18n import _
from app.security.tokens import new_token
from app.services import bots as bot_service
from app.services import rule_words
from app.services import tables as table_service
from app.tables import replays
from app.tables.commands import (
    Command,
    Describe,
    EditTable,
    RemoveBot,
    SeatBot,
    SetBotFill,
    SetStatus,
    Sit,
    SitOut,
    Stand,
    TopUp,
)
from app.tables.manager import TableManager

router = APIRouter(prefix="/api/tables", tags=["tables"], dependencies=[Depends(csrf_protect)])


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.tables
    return manager


ManagerDep = Annotated[TableManager, Depends(_manager)]


async def _public(
    table: GameTable, seats: list[table_service.SeatInfo], live: dict[str, Any], caller: Any
) -> TablePublic:
    show_code = caller.is_admin or table.created_by_id == caller.user.id
    return TablePublic(
        id=table.id,
        name=table.name,
        game=table.game,
        status="closing" if live.get("closing") else table.status,
        rules=table.rules,
        seat_count=table.seat_count,
        buy_in_min=table.buy_in_min,
        buy_in_max=table.buy_in_max,
        turn_seconds=table.turn_seconds,
        gathering_seconds=table.gathering_seconds,
        private=table.private,
        allow_spectators=table.allow_spectators,
        seats=[
            SeatPublic(
                seat=s.seat_no,
                name=s.display_name,
                username=s.username,
                stack=s.stack,
                sitting_out=s.sitting_out,
                bot=s.bot_level,
            )
            for s in seats
        ],
        hand_in_progress=bool(live.get("hand_in_progress")),
        hands_played=table.hands_played,
        spectators=int(live.get("spectators", 0)),
        invite_code=table.invite_code if show_code else None,
        ruleset_id=table.ruleset_id,
        rules_summary=rule_words.summary(table.game, table.rules, with_stakes=False),
        practice=table.practice,
        bot_fill=table.bot_fill,
    )


async def _describe(manager: TableManager, table: GameTable) -> dict[str, Any]:
    if table.status == TableStatus.CLOSED:
        return {}
    actor = await manager.table(table.id)
    live: dict[str, Any] = await actor.call(Describe())
    return live


@router.get("")
async def lobby(caller: CurrentCaller, db: DbDep, manager: ManagerDep) -> list[TablePublic]:
    """Open and paused tables, with who sits where and whether a hand is being played."""
    async with db.transaction() as session:
        tables = await table_service.list_tables(session)
        seats = {t.id: await table_service.seats_of(session, t.id) for t in tables}
    out = []
    for table in tables:
        seated = {s.user_id for s in seats[table.id]}
        if table.practice and table.created_by_id != caller.user.id:
            continue  # someone else's practice is nobody's business in the lobby
        if table_service.may_see(table, caller.user, seated):
            out.append(
                await _public(table, seats[table.id], await _describe(manager, table), caller)
            )
    return out


@router.post("", status_code=201)
async def create_table(
    body: TableCreate, caller: CurrentCaller, db: DbDep, manager: ManagerDep
) -> TablePublic:
    spec = table_service.TableSpec(
        name=body.name,
        game=body.game,
        preset=body.preset,
        rules=dict(body.rules),
        seat_count=body.seat_count,
        buy_in_min=body.buy_in_min,
        buy_in_max=body.buy_in_max,
        turn_seconds=body.turn_seconds,
        gathering_seconds=body.gathering_seconds,
        private=body.private,
        allow_spectators=body.allow_spectators,
        ruleset_id=body.ruleset_id,
    )
    async with db.transaction() as session:
        user = await session.get(User, caller.user.id)
        assert user is not None
        table = await table_service.create_table(session, user, spec)
    return await _public(table, [], await _describe(manager, table), caller)


async def _visible_table(
    db: DbDep, table_id: int, caller: CurrentCaller, invite_code: str | None = None
) -> tuple[GameTable, list[table_service.SeatInfo]]:
    async with db.transaction() as session:
        table = await table_service.visible_table(session, table_id, caller.user, invite_code)
        seats = await table_service.seats_of(session, table_id)
    return table, seats


@router.get("/{table_id}")
async def table_details(
    table_id: Id,
    caller: CurrentCaller,
    db: DbDep,
    manager: ManagerDep,
    invite: str | None = None,
) -> TablePublic:
    table, seats = await _visible_table(db, table_id, caller, invite)
    return await _public(table, seats, await _describe(manager, table), caller)


@router.patch("/{table_id}")
async def edit_table(
    table_id: Id, body: TableUpdate, caller: CurrentCaller, db: DbDep, manager: ManagerDep
) -> TablePublic:
    """Change the name, the house-rule configuration or the stakes of a table before its
    first hand (`table_already_dealt` after; `table_has_players` for rules or stakes once
    someone has bought in). For its opener and the club's admins."""
    edit = table_service.TableEdit(
        name=body.name,
        ruleset_id=body.ruleset_id,
        stakes=body.stakes,
        buy_in_min=body.buy_in_min,
        buy_in_max=body.buy_in_max,
    )
    await _ask(db, manager, table_id, caller, EditTable(caller.user.id, edit))
    table, seats = await _visible_table(db, table_id, caller)
    return await _public(table, seats, await _describe(manager, table), caller)


async def _ask(
    db: DbDep,
    manager: TableManager,
    table_id: int,
    caller: CurrentCaller,
    command: Command,
    invite_code: str | None = None,
) -> Any:
    """Send a command to a table the caller may see, and return the actor's answer."""
    table, _ = await _visible_table(db, table_id, caller, invite_code)
    return await replays.ask(db, manager, table, command)


@router.post("/{table_id}/seat", response_model_exclude_none=True)
async def take_seat(
    table_id: Id,
    body: SeatCreate,
    caller: CurrentCaller,
    db: DbDep,
    manager: ManagerDep,
    response: Response,
) -> SeatResult:
    """Sit down with a buy-in from your balance (the next free seat unless you pick one).
    Idempotent on `request_key` (app.api.idempotency)."""
    reply = await _ask(
        db,
        manager,
        table_id,
        caller,
        Sit(caller.user.id, body.seat, body.buy_in, body.request_key),
        invite_code=body.invite_code,
    )
    idempotency.mark(response, reply.replayed)
    return SeatResult(**reply.answer)


@router.post("/{table_id}/top-up", response_model_exclude_none=True)
async def top_up(
    table_id: Id,
    body: TopUpCreate,
    caller: CurrentCaller,
    db: DbDep,
    manager: ManagerDep,
    response: Response,
) -> SeatResult:
    """Add chips from your balance to your stack between hands. Idempotent on `request_key`
    (app.api.idempotency)."""
    reply = await _ask(
        db, manager, table_id, caller, TopUp(caller.user.id, body.amount, body.request_key)
    )
    idempotency.mark(response, reply.replayed)
    return SeatResult(**reply.answer)


@router.post("/{table_id}/sit-out", response_model_exclude_none=True)
async def sit_out(
    table_id: Id, caller: CurrentCaller, db: DbDep, manager: ManagerDep
) -> SeatResult:
    answer = await _ask(db, manager, table_id, caller, SitOut(caller.user.id, away=True))
    return SeatResult(**answer)


@router.post("/{table_id}/sit-in", response_model_exclude_none=True)
async def sit_in(table_id: Id, caller: CurrentCaller, db: DbDep, manager: ManagerDep) -> SeatResult:
    answer = await _ask(db, manager, table_id, caller, SitOut(caller.user.id, away=False))
    return SeatResult(**answer)


@router.post("/{table_id}/stand", response_model_exclude_none=True)
async def stand(table_id: Id, caller: CurrentCaller, db: DbDep, manager: ManagerDep) -> SeatResult:
    """Leave the table: the stack goes back to your balance now, or when your hand is over."""
    answer = await _ask(db, manager, table_id, caller, Stand(caller.user.id))
    return SeatResult(**answer)


async def _set_status(
    table_id: int, status: TableStatus, caller: AdminCaller, db: DbDep, manager: ManagerDep
) -> StatusPublic:
    answer = await _ask(db, manager, table_id, caller, SetStatus(status, by_admin=caller.user.id))
    return StatusPublic(**answer)


@router.post("/{table_id}/pause")
async def pause(table_id: Id, caller: AdminCaller, db: DbDep, manager: ManagerDep) -> StatusPublic:
    """No new hand starts; the current one is played out."""
    return await _set_status(table_id, TableStatus.PAUSED, caller, db, manager)


@router.post("/{table_id}/resume")
async def resume(table_id: Id, caller: AdminCaller, db: DbDep, manager: ManagerDep) -> StatusPublic:
    return await _set_status(table_id, TableStatus.OPEN, caller, db, manager)


@router.post("/{table_id}/close")
async def close(
    table_id: Id, caller: CurrentCaller, db: DbDep, manager: ManagerDep
) -> StatusPublic:
    """Close after the current hand: every stack goes back to its owner, and a pot left on
    the table to those who paid into it, in proportion. For the club's admins, and for the
    member who opened a practice table (their own business: not in the admins' log)."""
    if not caller.is_admin:
        table, _seats = await _visible_table(db, table_id, caller)
        if not (table.practice and table.created_by_id == caller.user.id):
            raise Forbidden("admin_only", _("Only the club's admins can close tables."))
        answer = await _ask(db, manager, table_id, caller, SetStatus(TableStatus.CLOSED))
        return StatusPublic(**answer)
    return await _set_status(table_id, TableStatus.CLOSED, caller, db, manager)


@router.post("/practice", status_code=201)
async def open_practice_table(
    body: PracticeCreate, caller: CurrentCaller, db: DbDep, manager: ManagerDep
) -> TablePublic:
    """A practice table for you alone: play money (never your balance, never the club's
    chips), bots of `level` in every other seat, and a "suggest" button at the table. You
    are seated with the most the table allows; the bots sit down with you."""
    low, high = bot_service.practice_stakes(body.game, body.preset)
    bot_service.check_level(body.level)
    async with db.transaction() as session:
        user = await session.get(User, caller.user.id)
        assert user is not None
        spec = table_service.TableSpec(
            name=f"Practice: {user.display_name}"[:60],
            game=body.game,
            preset=body.preset,
            rules={},
            seat_count=body.seat_count,
            buy_in_min=low,
            buy_in_max=high,
            private=True,
            allow_spectators=False,
            practice=True,
            bot_fill=body.level,
        )
        table = await table_service.create_table(session, user, spec)
    actor = await manager.table(table.id)
    await actor.call(Sit(caller.user.id, 0, high, new_token(16)))
    async with db.transaction() as session:
        seats = await table_service.seats_of(session, table.id)
    return await _public(table, seats, await _describe(manager, table), caller)


@router.post("/{table_id}/bots", response_model_exclude_none=True)
async def seat_bot(
    table_id: Id,
    body: BotCreate,
    caller: AdminCaller,
    db: DbDep,
    manager: ManagerDep,
    response: Response,
) -> SeatResult:
    """Seat a bot (admins): it buys in from the club's bank (the table's maximum unless
    `buy_in` says) and gives its stack back to the bank when it leaves. Idempotent on
    `request_key` (app.api.idempotency)."""
    command = SeatBot(body.level, body.seat, body.buy_in, body.request_key, caller.user.id)
    reply = await _ask(db, manager, table_id, caller, command)
    idempotency.mark(response, reply.replayed)
    return SeatResult(**reply.answer)


@router.delete("/{table_id}/bots/{seat}", response_model_exclude_none=True)
async def remove_bot(
    table_id: Id, seat: int, caller: AdminCaller, db: DbDep, manager: ManagerDep
) -> SeatResult:
    """Send the bot in `seat` away (admins): now, or when its hand is over."""
    return SeatResult(**await _ask(db, manager, table_id, caller, RemoveBot(seat, caller.user.id)))


@router.put("/{table_id}/bot-fill")
async def set_bot_fill(
    table_id: Id, body: BotFillUpdate, caller: AdminCaller, db: DbDep, manager: ManagerDep
) -> BotFillPublic:
    """Fill the empty seats with bots of `level` while a person plays here (admins); a bot
    gives its seat to a person who asks for it, between hands. `null` stops the filling."""
    answer = await _ask(db, manager, table_id, caller, SetBotFill(body.level, caller.user.id))
    return BotFillPublic(**answer)
