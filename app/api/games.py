"""The games the club deals, described from the registry for the browser's scripts: what
the lobby offers and how the table page loads each game's front end."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.schemas import GamePublic
from app.engine.driver import GameDriver
from app.engine.registry import DRIVERS

router = APIRouter(prefix="/api", tags=["tables"])


def describe(game: GameDriver) -> GamePublic:
    return GamePublic(
        name=game.name,
        title=game.title,
        min_seats=game.min_seats,
        max_seats=game.max_seats,
        default_seats=game.default_seats,
        presets=game.preset_names(),
        stakes=list(game.stakes),
        buy_in_option=game.buy_in_option,
    )


def games_described() -> list[GamePublic]:
    return [describe(game) for game in DRIVERS]


@router.get("/games")
async def list_games() -> list[GamePublic]:
    """Every game, in the order the lobby offers them (the first is the default)."""
    return games_described()
