"""Pages of past hands: My hands (with statistics, and for admins the search of every
hand) and one hand's page, replayed on the felt.

Shells, like the lobby: the modules under static/js/hands fetch the hands from the REST API
(`/api/hands…`) and draw them. The server renders only what the scripts need to start and
the choices of the filter form (tables, and for admins the members).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import DbDep, OptionalCaller
from app.api.schemas import Id
from app.db.models import GameTable, Hand, User
from app.i18n import _
from app.services import club, members
from app.web.pages import redirect, render

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)

FAIR_SHUFFLE_DOC = Path(__file__).resolve().parents[2] / "docs" / "fair-shuffle.md"


async def _tables_with_hands(session: AsyncSession, viewer: User, admin: bool) -> list[GameTable]:
    """The tables a filter may name: those where hands were played; for a member, not the
    private tables of others (the API still answers only with the member's own hands)."""
    query = (
        select(GameTable)
        .where(GameTable.id.in_(select(Hand.table_id).distinct()))
        .order_by(GameTable.name, GameTable.id)
    )
    if not admin:
        query = query.where(~GameTable.private | (GameTable.created_by_id == viewer.id))
    return list((await session.scalars(query)).all())


@dataclass(frozen=True, slots=True)
class TableSession:
    """One sitting of a table (until it closed or its last player left), for the admins."""

    table: GameTable
    session: int
    hands: int
    first: datetime
    last: datetime | None


async def _sessions(session: AsyncSession) -> list[TableSession]:
    """Every table's sessions that dealt hands, closed tables included, newest first."""
    rows = (
        await session.execute(
            select(
                GameTable,
                Hand.session,
                func.count(Hand.id),
                func.min(Hand.started_at),
                func.max(Hand.ended_at),
            )
            .join(Hand, Hand.table_id == GameTable.id)
            .group_by(GameTable.id, Hand.session)
            .order_by(func.min(Hand.started_at).desc())
        )
    ).all()
    return [
        TableSession(table, number, count, first, last)
        for table, number, count, first, last in rows
    ]


@router.get("/hands")
async def hands_page(request: Request, db: DbDep, caller: OptionalCaller) -> Response:
    if caller is None:
        return redirect("/login")
    async with db.transaction() as session:
        the_club = await club.get_club(session)
        tables = await _tables_with_hands(session, caller.user, caller.is_admin)
        everyone = [user for user, _ in await members.list_members(session)]
        sessions = await _sessions(session) if caller.is_admin else []
    return await render(
        request,
        db,
        caller,
        "hands.html",
        chip_unit=the_club.chip_unit,
        tables=tables,
        members=everyone if caller.is_admin else [],
        sessions=sessions,
    )


@router.get("/hands/{hand_id}")
async def hand_page(request: Request, db: DbDep, caller: OptionalCaller, hand_id: Id) -> Response:
    if caller is None:
        return redirect("/login")
    async with db.transaction() as session:
        the_club = await club.get_club(session)
    return await render(
        request, db, caller, "hand.html", hand_id=hand_id, chip_unit=the_club.chip_unit
    )


@router.get("/docs/fair-shuffle")
async def fair_shuffle_page(request: Request, db: DbDep, caller: OptionalCaller) -> Response:
    """The fair-shuffle specification, as written, for whoever wants to check a hand."""
    text = FAIR_SHUFFLE_DOC.read_text(encoding="utf-8")
    return await render(request, db, caller, "doc.html", title=_("Fair shuffles"), text=text)
