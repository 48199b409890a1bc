"""Fencing: the database refuses the writes of a table's former owner.

When several processes serve a club, a table is owned by one of them at a time through a
lease (app/cluster/leases.py). A lease alone cannot stop a process that was paused past it
(a long collection, a frozen VM, a cut network) from waking up and writing as if it still
owned the table. So taking a table raises its fencing token here, in the record itself,
and every transaction that writes for the table first checks — with the row locked for
share, so a new owner's raise waits for it to end — that the token is still its own.

The token is also the table's epoch: every start of a table's actor raises it, in a single
process too, and the versions of that run's events carry it (app/tables/events.py), so that
a version shown before a restart or a takeover never names another event after it. A single
process never checks it (it owns every table).
"""

from __future__ import annotations

import logging

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.db.models import GameTable
from app.errors import SalonError
from app.i18n import _

log = logging.getLogger(__name__)

_RAISE = (
    update(GameTable)
    .where(GameTable.id == bindparam("table_id"))
    .values(fence=GameTable.fence + 1)
    .returning(GameTable.fence)
)
_HELD = (
    select(GameTable.id, GameTable.fence)
    .where(GameTable.id.in_(bindparam("table_ids", expanding=True)))
    .with_for_update(read=True)
)


class TableMoved(SalonError):
    """This process no longer owns the table: another one took it over."""

    status_code = 503

    def __init__(self, table_id: int) -> None:
        super().__init__(
            "table_moved", _("This table has moved to another server; reconnecting to it.")
        )
        self.table_id = table_id


async def take(session: AsyncSession, table_id: int) -> int:
    """Raise the table's token and return it: from this commit on, only writes carrying
    it are accepted (a former owner's are refused)."""
    token = (await session.execute(_RAISE, {"table_id": table_id})).scalar_one_or_none()
    if token is None:
        raise SalonError("not_found", _("There is no table %(table_id)s.", table_id=table_id))
    return int(token)


async def current(session: AsyncSession, table_id: int) -> int:
    """The table's token now (0: no process has ever taken it)."""
    token = await session.scalar(select(GameTable.fence).where(GameTable.id == table_id))
    return int(token or 0)


async def tokens(
    connection: AsyncSession | AsyncConnection, table_ids: list[int]
) -> dict[int, int]:
    """The tokens of these tables, their rows locked for share until the transaction ends."""
    rows = await connection.execute(_HELD, {"table_ids": table_ids})
    return {int(table_id): int(fence) for table_id, fence in rows}


async def check(session: AsyncSession, table_id: int, token: int) -> None:
    """Go on only if `token` is still the table's; raise TableMoved otherwise."""
    if (await tokens(session, [table_id])).get(table_id) != token:
        log.warning("table %s: a write was refused: another process owns the table now", table_id)
        raise TableMoved(table_id)
