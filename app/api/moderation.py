"""Chat moderation over REST: read a table's chat, remove a line, mute or unmute a member.

Admins only (checked here, for every route); each change writes its audit row in its own
transaction and a removed line is replaced at once on the pages watching its table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field, StrictInt

from app.api.deps import AdminCaller, DbDep, csrf_protect, require_admin
from app.api.schemas import Id, Input, Output
from app.services import moderation
from app.tables.manager import TableManager
from app.tables.moderation import announce_removal

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(csrf_protect), Depends(require_admin)],
)


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.tables
    return manager


ManagerDep = Annotated[TableManager, Depends(_manager)]


class ChatLinePublic(Output):
    id: int
    table_id: int
    user_id: int
    username: str
    name: str
    text: str
    at: datetime
    removed_at: datetime | None
    removed_by: str | None


class RemovedLinePublic(Output):
    id: int
    table_id: int
    removed: bool = True


class MuteCreate(Input):
    member_id: Id
    minutes: Annotated[StrictInt, Field(ge=1, le=moderation.MAX_MUTE_MINUTES)]


class UnmuteCreate(Input):
    member_id: Id


class MutePublic(Output):
    member_id: int
    muted_until: datetime | None


@router.get("/tables/{table_id}/chat")
async def table_chat(
    table_id: Id, db: DbDep, limit: Annotated[int, Query(ge=1, le=1000)] = 200
) -> list[ChatLinePublic]:
    """A table's chat as the admins see it (removed lines keep their text here), whether
    or not the admin sits at it."""
    async with db.transaction() as session:
        lines = await moderation.table_chat(session, table_id, limit)
    return [ChatLinePublic.model_validate(line) for line in lines]


@router.post("/chat/{message_id}/remove")
async def remove_chat_line(
    message_id: Id, caller: AdminCaller, db: DbDep, manager: ManagerDep
) -> RemovedLinePublic:
    """Remove a chat line: everyone sees "removed by an admin" in its place."""
    async with db.transaction() as session:
        removed = await moderation.remove_line(session, caller.user, message_id)
    await announce_removal(manager, removed)
    return RemovedLinePublic(id=removed.id, table_id=removed.table_id)


@router.post("/chat/mute")
async def mute(body: MuteCreate, caller: AdminCaller, db: DbDep) -> MutePublic:
    """Mute a member in every table's chat for a number of minutes."""
    async with db.transaction() as session:
        until = await moderation.mute(session, caller.user, body.member_id, body.minutes)
    return MutePublic(member_id=body.member_id, muted_until=until)


@router.post("/chat/unmute")
async def unmute(body: UnmuteCreate, caller: AdminCaller, db: DbDep) -> MutePublic:
    async with db.transaction() as session:
        await moderation.unmute(session, caller.user, body.member_id)
    return MutePublic(member_id=body.member_id, muted_until=None)
