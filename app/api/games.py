"""The games the club deals, described from the registry for the browser's scripts: what
the lobby offers and how the table page loads each game's front end."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter

from app.api.schemas import GamePublic
from app.engine.cards import RANKS, SUITS, make_card, rank_of
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
        packs={players: pack_ranks(cards) for players, cards in game.packs.items()},
    )


def pack_ranks(pack: Sequence[int]) -> list[str]:
    """A pack as the ranks it holds, low to high: a shorter description than its cards,
    which the verifier expands again. Only a pack of whole ranks (every suit of each) can
    be described so; a game with another kind of pack needs a richer description."""
    ranks = sorted({rank_of(card) for card in pack})
    if sorted(pack) != sorted(
        make_card(rank, suit) for rank in ranks for suit in range(len(SUITS))
    ):
        raise ValueError("a pack that is not every suit of its ranks")
    return [RANKS[rank] for rank in ranks]


# The registry does not change while the process runs: its description is built once.
GAMES_DESCRIBED: tuple[GamePublic, ...] = tuple(describe(game) for game in DRIVERS)


@router.get("/games")
async def list_games() -> list[GamePublic]:
    """Every game, in the order the lobby offers them (the first is the default)."""
    return list(GAMES_DESCRIBED)
