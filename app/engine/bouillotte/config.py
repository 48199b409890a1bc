"""House rules of a Bouillotte table: every option of rules/bouillotte.md, validated.

The config is a frozen value. ``BouillotteRules.from_dict`` accepts only known fields with
the right types, so a stored preset or a table log's ``rules`` can never smuggle in an option
the engine does not enforce; ``to_dict`` writes back only the fields that differ from the
defaults, as the table log requires.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from app.engine.options import (
    MAX_CHIPS,
    N_,
    ConfigError,
    OptionInfo,
    RefusedCombination,
    RuleOptions,
    check_maximums,
)

_CHOICES: dict[str, tuple[str, ...]] = {
    "direction": ("counter_clockwise", "clockwise"),
    "ante_mode": ("all_plus_dealer", "dealer_only"),
    "seating": ("draw", "as_joined"),
}
_BOOLS = ("buy_back", "mistigri", "brelans")
_INTS = ("cave", "bonus_carre", "bonus_brelan")


@dataclass(frozen=True, slots=True)
class BouillotteRules(RuleOptions):
    """Every option of rules/bouillotte.md with its default (the section is in the comment)."""

    GAME_NAME: ClassVar[str] = "Bouillotte"

    direction: str = "counter_clockwise"  # introduction: play goes "to the right"
    cave: int = 100  # §1
    seating: str = "draw"  # §1
    ante_mode: str = "all_plus_dealer"  # §2
    buy_back: bool = False  # §3
    mistigri: bool = False  # §6
    brelans: bool = True  # §6
    bonus_carre: int = 2  # §7
    bonus_brelan: int = 1  # §7

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def step(self) -> int:
        """Seat increment towards "the right": -1 counter-clockwise, +1 clockwise."""
        return -1 if self.direction == "counter_clockwise" else 1

    @classmethod
    def check_option(cls, key: str, value: object) -> None:
        _check_type(key, value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_type(key: str, value: object) -> None:
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise ConfigError("bad_option", f"Rule option {key!r} must be true or false.", key)
    elif key in _CHOICES:
        if value not in _CHOICES[key]:
            options = ", ".join(_CHOICES[key])
            raise ConfigError("bad_option", f"Rule option {key!r} must be one of: {options}.", key)
    elif key in _INTS and not _is_int(value):
        raise ConfigError("bad_option", f"Rule option {key!r} must be an integer.", key)


def _validate(rules: BouillotteRules) -> None:
    """Types and ranges. Every combination of valid values is a valid config
    (rules/bouillotte.md §8 "Rules config"): with ``brelans: false`` the ``mistigri`` and
    bonus options simply have no effect (§6, §7), and the two bonuses are independent
    integers in no required order (§7).
    """
    for f in fields(rules):
        _check_type(f.name, getattr(rules, f.name))
    if rules.cave < 1:
        raise ConfigError("bad_option", "The cave must be at least 1 chip.", "cave")
    for key in ("bonus_carre", "bonus_brelan"):
        if getattr(rules, key) < 0:
            raise ConfigError("bad_option", f"{key} cannot be negative.", key)
    check_maximums(rules, OPTION_INFO)


REFUSED_COMBINATIONS: tuple[RefusedCombination, ...] = ()
"""Every combination of valid values is valid (rules/bouillotte.md §8 "Rules config")."""

_YES_NO: dict[object, str] = {True: N_("yes"), False: N_("no")}

OPTION_INFO: dict[str, OptionInfo] = {
    "direction": OptionInfo(
        label=N_("Direction of play"),
        section="introduction",
        explanation=N_("Deal, bets and the deal itself pass to the right, or to the left."),
        kind="choice",
        words={
            "counter_clockwise": N_("to the right (counter-clockwise)"),
            "clockwise": N_("clockwise"),
        },
    ),
    "cave": OptionInfo(
        label=N_("Cave"),
        section="§1",
        explanation=N_("The chips every player sits down with, and buys again when all are lost."),
        kind="int",
        minimum=1,
        maximum=MAX_CHIPS,
        unit=" chips",
    ),
    "seating": OptionInfo(
        label=N_("Seating"),
        section="§1",
        explanation=N_("Seats are drawn by cards before the first hand, or kept as players join."),
        kind="choice",
        words={"draw": N_("drawn by cards"), "as_joined": N_("as the players joined")},
    ),
    "ante_mode": OptionInfo(
        label=N_("Antes"),
        section="§2",
        explanation=N_("Each player antes 1 and the dealer 1 more, or only the dealer antes 1."),
        kind="choice",
        words={
            "all_plus_dealer": N_("everyone, and the dealer twice"),
            "dealer_only": N_("the dealer only"),
        },
    ),
    "buy_back": OptionInfo(
        label=N_("Straddle buy-back"),
        section="§3",
        explanation=N_("A straddler may double again to win back the right to speak last."),
        kind="bool",
        words=_YES_NO,
    ),
    "mistigri": OptionInfo(
        label=N_("Brelan de mistigri"),
        section="§6",
        explanation=N_("The queen of clubs with a pair of one colour ranks just below a brelan."),
        kind="bool",
        words=_YES_NO,
    ),
    "brelans": OptionInfo(
        label=N_("Brelans count"),
        section="§6",
        explanation=N_("Three of a kind wins; without it (high stakes) points always decide."),
        kind="bool",
        words=_YES_NO,
    ),
    "bonus_carre": OptionInfo(
        label=N_("Brelan carré bonus"),
        section="§7",
        explanation=N_("Chips every other player pays the holder of four of a kind."),
        kind="int",
        minimum=0,
        maximum=MAX_CHIPS,
        unit=" chips",
    ),
    "bonus_brelan": OptionInfo(
        label=N_("Brelan bonus"),
        section="§7",
        explanation=N_("Chips every other player pays the holder of three of a kind."),
        kind="int",
        minimum=0,
        maximum=MAX_CHIPS,
        unit=" chips",
    ),
}
"""Every option in words, for the house-rules form and a table's rules listing."""


_PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {},
    "high_stakes": {"brelans": False},
    "mistigri": {"mistigri": True},
    "buy_back": {"buy_back": True},
    "dealer_antes": {"ante_mode": "dealer_only"},
    "clockwise": {"direction": "clockwise"},
}

PRESETS: dict[str, BouillotteRules] = {
    name: BouillotteRules.from_dict(options) for name, options in _PRESET_OPTIONS.items()
}
"""Named variants: the classic game (defaults), the high-stakes game without brelans (§6),
brelan de mistigri (§6), straddle buy-back (§3), dealer-only antes (§2), clockwise play."""


def preset(name: str, *, cave: int | None = None) -> BouillotteRules:
    """A named preset, optionally with another cave."""
    if name not in PRESETS:
        raise ConfigError("unknown_preset", f"There is no Bouillotte preset named {name!r}.")
    rules = PRESETS[name]
    return rules if cave is None else rules.with_options(cave=cave)
