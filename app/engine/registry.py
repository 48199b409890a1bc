"""The games Salon deals: one line each. Everything that names a game reads it here.

A new game brings its engine folder with a ``driver.py`` (`app.engine.driver.GameDriver`)
and one line below; the tables, table logs, CLI, API, pages and scripts pick it up.
"""

from __future__ import annotations

from app.engine.base import EngineError
from app.engine.bouillotte.driver import BouillotteDriver
from app.engine.bourre.driver import BourreDriver
from app.engine.driver import GameDriver

# In the order the lobby offers them; the first is the default where one is needed.
DRIVERS: tuple[GameDriver, ...] = (BourreDriver(), BouillotteDriver())

GAMES: dict[str, GameDriver] = {game.name: game for game in DRIVERS}
"""Each game's driver by its key ("bourre")."""

GAME_NAMES: tuple[str, ...] = tuple(GAMES)
DEFAULT_GAME: str = GAME_NAMES[0]

__all__ = ["DEFAULT_GAME", "DRIVERS", "GAMES", "GAME_NAMES", "driver", "titles_said"]


def titles_said() -> str:
    """The games as a sentence says them: "Bourré and Bouillotte"."""
    titles = [game.title for game in DRIVERS]
    return " and ".join(filter(None, (", ".join(titles[:-1]), titles[-1])))


def driver(game: str) -> GameDriver:
    try:
        return GAMES[game]
    except KeyError:
        raise EngineError("unknown_game", f"Salon does not deal {game!r}.") from None
