"""A table command sent with a client's key (sitting down, topping up, seating a bot)
answers from its stored reply before anything else is looked at.

The client whose first answer was lost retries with the same key: it must hear what was
done, not be refused by a check that the state reached since would fail (a hand under
way after a top-up, the table closed after a sitting-down, the seat taken by then). So
the stored reply is looked for first: before the table's status, on the way to the table
(`ask`, for every route that sends a command), and again in the actor, first of all, for a
retry that was queued while the first request was being carried out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.errors import Conflict
from app.i18n import _
from app.services import bots as bot_service
from app.services import replies
from app.services import tables as table_service
from app.tables.commands import Command, SeatBot, Sit, TopUp
from app.tables.table import CLOSED

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from app.db.models import GameTable
    from app.db.session import Database
    from app.tables.manager import TableManager


def keyed(table_id: int, command: Command) -> replies.Keyed | None:
    """The stored reply `command` would answer from, if it carries a client's key."""
    match command:
        case Sit():
            return table_service.sit_request(
                table_id, command.user_id, command.seat_no, command.buy_in, command.request_key
            )
        case TopUp():
            return table_service.top_up_request(
                table_id, command.user_id, command.amount, command.request_key
            )
        case SeatBot():
            return bot_service.seat_bot_request(
                table_id, command.level, command.seat_no, command.buy_in, command.request_key
            )
    return None


async def stored_reply(
    session: AsyncSession, table_id: int, command: Command
) -> table_service.Reply | None:
    """The answer `command`'s key was given before, or None (a new key, or no key).
    The same key with other content is refused (409 `idempotency_conflict`)."""
    request = keyed(table_id, command)
    if request is None:
        return None
    earlier = await replies.earlier(session, request)
    if earlier is None:
        return None
    # A bot's seating keeps which bot sat too; its caller is told the seat.
    answer = {"seat": earlier["seat"]} if isinstance(command, SeatBot) else earlier
    return table_service.Reply(answer, replayed=True)


async def ask(db: Database, manager: TableManager, table: GameTable, command: Command) -> Any:
    """Send `command` to `table` (which must not be closed) and return its answer; a keyed
    command answered before gets that answer again, whatever the table's state now."""
    if keyed(table.id, command) is not None:
        async with db.transaction() as session:
            replay = await stored_reply(session, table.id, command)
        if replay is not None:
            return replay
    if table.status == CLOSED:
        raise Conflict("table_closed", _("This table is closed."))
    handle = await manager.table(table.id)
    return await handle.call(command)
