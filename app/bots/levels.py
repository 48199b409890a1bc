"""The levels of play Salon's computer players have, for each game.

``random`` plays any legal move; ``club`` plays as a sound club player would. A game with
no brain of its own at a level falls back to ``random`` at that level.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.bots.base import Brain, random_decision
from app.bots.bouillotte import club_decision as bouillotte_club
from app.bots.bourre import club_decision as bourre_club

LEVELS: tuple[str, ...] = ("random", "club")
"""From the weakest; the first is what a bot plays when no level is given."""

# (game, level) -> its brain, where a game has one of its own.
_BRAINS: Mapping[tuple[str, str], Brain] = {
    ("bourre", "club"): bourre_club,
    ("bouillotte", "club"): bouillotte_club,
}


def brain(game: str, level: str) -> Brain:
    """The brain of `level` for `game` (a `KeyError` for a level that does not exist)."""
    if level not in LEVELS:
        raise KeyError(level)
    return _BRAINS.get((game, level), random_decision)
