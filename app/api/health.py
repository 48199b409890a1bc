"""Liveness and the club's public face."""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import text

from app.api.deps import DbDep
from app.api.schemas import ClubPublic, HealthPublic
from app.services import club

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health")
async def health(db: DbDep) -> HealthPublic:
    async with db.transaction() as session:
        await session.execute(text("SELECT 1"))
    return HealthPublic(status="ok", database=db.kind)


@router.get("/club", responses={404: {"description": "No club yet"}})
async def club_info(db: DbDep) -> ClubPublic:
    async with db.transaction() as session:
        return ClubPublic.model_validate(await club.get_club(session))
