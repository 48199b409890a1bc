"""Liveness and the club's public face."""

from __future__ import annotations

from fastapi import APIRouter, Response
from sqlalchemy import text

from app.api.deps import ClusterDep, DbDep
from app.api.schemas import ClubPublic, HealthPublic
from app.services import club

router = APIRouter(prefix="/api", tags=["health"])

REDIS_DOWN = (
    "Redis cannot be reached: this process keeps dealing its own tables to the browsers"
    " connected to it, but cannot reach the other processes' tables or accept new table"
    " sockets."
)


@router.get(
    "/health",
    response_model_exclude_none=True,
    responses={503: {"model": HealthPublic, "description": "Degraded: send players elsewhere"}},
)
async def health(db: DbDep, cluster: ClusterDep, response: Response) -> HealthPublic:
    """Answers "ok" (200) when this process can serve its tables; "degraded" (503, so that a load
    balancer's health check sends players to another process) when Redis, which the
    processes of a club share, cannot be reached. A database that does not answer fails
    the request itself."""
    async with db.transaction() as session:
        await session.execute(text("SELECT 1"))
    if cluster is None:
        return HealthPublic(status="ok", database=db.kind)
    if cluster.redis_state == "down":
        response.status_code = 503
        return HealthPublic(status="degraded", database=db.kind, redis="down", reason=REDIS_DOWN)
    return HealthPublic(status="ok", database=db.kind, redis="up")


@router.get("/club", responses={404: {"description": "No club yet"}})
async def club_info(db: DbDep) -> ClubPublic:
    async with db.transaction() as session:
        return ClubPublic.model_validate(await club.get_club(session))
