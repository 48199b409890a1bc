"""Chat moderation reaching the live tables: a removed line is replaced on every page
watching its table, at once."""

from __future__ import annotations

import contextlib

from app.services.moderation import Removed
from app.tables.actor import ActorGone
from app.tables.commands import ChatRemoved
from app.tables.manager import TableManager


async def announce_removal(manager: TableManager, removed: Removed) -> None:
    """Tell the line's table, if it is running (a table nobody has open has nobody to
    tell: its pages read the line as removed when they open)."""
    actor = await manager.running(removed.table_id)
    if actor is None:
        return
    with contextlib.suppress(ActorGone):
        await actor.call(ChatRemoved(removed.id, removed.name, removed.at))
