"""The lobby's create-table form, as far as it depends on the game: the stakes each game
asks for and which games take a buy-in range. Read from the registry, so a new game's
fields appear without a line here or in the template."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.driver import GameDriver
from app.engine.registry import DEFAULT_GAME, DRIVERS


@dataclass(frozen=True, slots=True)
class StakeInput:
    """One number field of the form. ``game`` and ``preset`` become the ``data-game`` and
    ``data-preset`` attributes by which static/js/lobby.js shows only the chosen game's
    fields (and a preset's only with that preset); ``hidden`` is how the page first shows
    it, before the script runs: the default game with its standard rules."""

    game: str
    name: str
    label: str
    minimum: int
    value: int
    preset: str | None
    hidden: bool


def stake_inputs(game: GameDriver) -> list[StakeInput]:
    """A field per stake, in the driver's order, worded as the option is (`OptionInfo`)."""
    defaults = game.parse_rules({})
    inputs = []
    for stake in game.stake_fields:
        info = game.option_info[stake.option]
        value = getattr(defaults, stake.option) if stake.value is None else stake.value
        if not isinstance(value, int):
            raise ValueError(f"{game.name}: the stake {stake.option} needs a value to start from")
        inputs.append(
            StakeInput(
                game=game.name,
                name=stake.option,
                label=info.label,
                minimum=1 if info.minimum is None else info.minimum,
                value=value,
                preset=stake.preset,
                hidden=game.name != DEFAULT_GAME or stake.preset is not None,
            )
        )
    return inputs


# The registry does not change while the process runs: the form's fields are worked out once.
STAKE_INPUTS: tuple[StakeInput, ...] = tuple(
    field for game in DRIVERS for field in stake_inputs(game)
)
# The games whose tables set a smallest and a largest buy-in; the others' buy-in is one of
# their stakes (Bouillotte's cave, `GameDriver.buy_in_option`).
BUY_IN_RANGE_GAMES: tuple[str, ...] = tuple(
    game.name for game in DRIVERS if game.buy_in_option is None
)
