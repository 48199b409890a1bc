"""House rules of a Bourré table: every option of rules/bourre.md, validated.

The config is a frozen value. ``BourreRules.from_dict`` accepts only known fields with the
right types, so a stored preset or a table log's ``rules`` can never smuggle in an option the
engine does not enforce; ``to_dict`` writes back only the fields that differ from defaults,
as the table log requires.
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
    "ante_mode": ("each", "dealer_for_all"),
    "trump_card": ("dealer_keeps", "dead", "dealer_may_take"),
    "declare": ("in_turn", "simultaneous"),
    "entry_requirement": ("none", "trump_or_club"),
    "must_trump": ("to_win", "always"),
    "renege": ("prevented", "penalized"),
}
_BOOLS = (
    "double_ante",
    "ace_trump_dealer_must_play",
    "draw_with_declare",
    "second_chance",
    "must_beat",
    "allow_throw_off",
    "cinch_rule",
)


@dataclass(frozen=True, slots=True)
class BourreRules(RuleOptions):
    """Every house-rule option of rules/bourre.md with its default.

    ``max_discard`` None means "``hand_size``, no cap" (rules/bourre.md §4); an explicit value
    equal to ``hand_size`` is normalised to None so that it is not written as a difference.
    """

    GAME_NAME: ClassVar[str] = "Bourré"

    ante: int = 1  # §1
    pot_limit: int | None = None  # §1, §7
    ante_mode: str = "each"  # §2
    double_ante: bool = False  # §2
    hand_size: int = 5  # §3 (4 for the Indiana variant)
    trump_card: str = "dealer_keeps"  # §3
    ace_trump_dealer_must_play: bool = True  # §3
    declare: str = "in_turn"  # §4
    draw_with_declare: bool = False  # §4
    entry_requirement: str = "none"  # §4
    second_chance: bool = False  # §4
    max_discard: int | None = None  # §4
    must_beat: bool = True  # §5
    must_trump: str = "to_win"  # §5
    allow_throw_off: bool = False  # §5
    cinch_rule: bool = True  # §6
    renege: str = "prevented"  # §8
    renege_penalty: int = 1  # §8

    def __post_init__(self) -> None:
        _validate(self)
        if self.max_discard == self.hand_size:
            object.__setattr__(self, "max_discard", None)

    @property
    def discard_cap(self) -> int:
        """The effective ``max_discard`` (rules/bourre.md §4)."""
        return self.hand_size if self.max_discard is None else self.max_discard

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
    elif key == "pot_limit" or key == "max_discard":
        if value is not None and not _is_int(value):
            raise ConfigError("bad_option", f"Rule option {key!r} must be an integer or null.", key)
    elif not _is_int(value):
        raise ConfigError("bad_option", f"Rule option {key!r} must be an integer.", key)


def _validate(rules: BourreRules) -> None:
    for f in fields(rules):
        _check_type(f.name, getattr(rules, f.name))
    if rules.ante < 1:
        raise ConfigError("bad_option", "The ante must be at least 1 chip.", "ante")
    if rules.pot_limit is not None and rules.pot_limit < 1:
        raise ConfigError("bad_option", "A pot limit must be at least 1 chip.", "pot_limit")
    if rules.hand_size not in (4, 5):
        raise ConfigError(
            "bad_option", "The hand size must be 5, or 4 for the Indiana variant.", "hand_size"
        )
    if rules.max_discard is not None and not 0 <= rules.max_discard <= rules.hand_size:
        raise ConfigError(
            "bad_option",
            f"max_discard must be between 0 and the hand size ({rules.hand_size}).",
            "max_discard",
        )
    if rules.renege_penalty < 1:
        raise ConfigError("bad_option", "renege_penalty must be at least 1.", "renege_penalty")
    if rules.renege == "penalized":
        raise ConfigError(
            "not_supported_yet",
            "renege: penalized is not supported yet; illegal cards can only be prevented.",
            "renege",
        )
    check_maximums(rules, OPTION_INFO)
    # The two invalid pairs of rules/bourre.md (§4, §5): a config error as a whole, named
    # by both options (no single field is at fault).
    for refused in REFUSED_COMBINATIONS:
        if refused.matches(rules):
            raise ConfigError("conflicting_options", refused.message)


REFUSED_COMBINATIONS: tuple[RefusedCombination, ...] = (
    RefusedCombination(
        ("declare", "simultaneous"),
        ("draw_with_declare", True),
        "§4",
        N_(
            "an exchange made in the declaring turn would reveal a commitment that must stay "
            "secret until the last one is in"
        ),
    ),
    RefusedCombination(
        ("must_trump", "always"),
        ("allow_throw_off", True),
        "§5",
        N_(
            "one forces a player who cannot follow suit to play a trump, the other lets that "
            "player play any card"
        ),
    ),
)
"""The invalid pairs of rules/bourre.md: every other combination of valid values is valid."""

# A renege costing more than ten pots is no house rule anyone plays (Indiana's is 2).
MAX_RENEGE_PENALTY = 10

_YES_NO: dict[object, str] = {True: N_("yes"), False: N_("no")}

OPTION_INFO: dict[str, OptionInfo] = {
    "ante": OptionInfo(
        label=N_("Ante"),
        section="§1",
        explanation=N_("The chips each player puts in the pot before the deal."),
        kind="int",
        minimum=1,
        maximum=MAX_CHIPS,
        unit=" chips",
    ),
    "pot_limit": OptionInfo(
        label=N_("Pot limit"),
        section="§7",
        explanation=N_("The most a winner takes and a bourré costs; any excess stays in the pot."),
        kind="int",
        minimum=1,
        maximum=MAX_CHIPS,
        none_words=N_("no limit"),
        unit=" chips",
    ),
    "ante_mode": OptionInfo(
        label=N_("Who antes"),
        section="§2",
        explanation=N_(
            "Every player dealt in antes, except a player who went bourré or tied for most"
            " tricks in the last hand: they skip this one ante. Or the dealer alone antes for"
            " all of them (no one skips)."
        ),
        kind="choice",
        words={"each": N_("every player"), "dealer_for_all": N_("the dealer, for everyone")},
    ),
    "double_ante": OptionInfo(
        label=N_("Double ante"),
        section="§2",
        explanation=N_(
            "Everyone antes before the deal, even a player who went bourré last hand, and each"
            " player who plays antes again."
        ),
        kind="bool",
        words=_YES_NO,
    ),
    "hand_size": OptionInfo(
        label=N_("Cards per hand"),
        section="§3",
        explanation=N_("Five cards, or four in the Indiana variant (four tricks)."),
        kind="int",
        minimum=4,
        maximum=5,
    ),
    "trump_card": OptionInfo(
        label=N_("Trump card"),
        section="§3",
        explanation=N_("Which card turned face up fixes trump, and who may hold it."),
        kind="choice",
        words={
            "dealer_keeps": N_("the dealer's last card, kept by the dealer"),
            "dead": N_("an extra card that belongs to no one"),
            "dealer_may_take": N_("an extra card the dealer may take"),
        },
    ),
    "ace_trump_dealer_must_play": OptionInfo(
        label=N_("Dealer plays on a turned ace"),
        section="§3",
        explanation=N_("When the dealer keeps a turned ace, the dealer may not pass."),
        kind="bool",
        words=_YES_NO,
    ),
    "declare": OptionInfo(
        label=N_("Play or pass"),
        section="§4",
        explanation=N_("Players declare one after another, or all commit in secret at once."),
        kind="choice",
        words={
            "in_turn": N_("declared in turn"),
            "simultaneous": N_("committed secretly, all at once"),
        },
    ),
    "draw_with_declare": OptionInfo(
        label=N_("Draw when declaring"),
        section="§4",
        explanation=N_("A player who plays exchanges cards at once, with no separate draw round."),
        kind="bool",
        words=_YES_NO,
    ),
    "entry_requirement": OptionInfo(
        label=N_("To play, hold"),
        section="§4",
        explanation=N_("What a player must hold at the first declaration to be allowed to play."),
        kind="choice",
        words={"none": N_("anything"), "trump_or_club": N_("a trump or a club")},
    ),
    "second_chance": OptionInfo(
        label=N_("Second declaration"),
        section="§4",
        explanation=N_("After the draw, players still in declare again, paying one more ante."),
        kind="bool",
        words=_YES_NO,
    ),
    "max_discard": OptionInfo(
        label=N_("Most cards exchanged"),
        section="§4",
        explanation=N_("The most cards a player may discard and replace in the draw."),
        kind="int",
        minimum=0,
        maximum=5,
        none_words=N_("the whole hand"),
    ),
    "must_beat": OptionInfo(
        label=N_("Must beat"),
        section="§5",
        explanation=N_("A player following suit must play higher than the trick's best, if able."),
        kind="bool",
        words=_YES_NO,
    ),
    "must_trump": OptionInfo(
        label=N_("Must trump"),
        section="§5",
        explanation=N_("Unable to follow suit: trump only when a trump can win, or always."),
        kind="choice",
        words={"to_win": N_("only with a trump that can win"), "always": N_("always")},
    ),
    "allow_throw_off": OptionInfo(
        label=N_("Free throw-off"),
        section="§5",
        explanation=N_("Unable to follow suit, a player may play any card even holding trumps."),
        kind="bool",
        words=_YES_NO,
    ),
    "cinch_rule": OptionInfo(
        label=N_("Cinch rule"),
        section="§6",
        explanation=N_("A player sure of three tricks must play the highest trump to win them."),
        kind="bool",
        words=_YES_NO,
    ),
    "renege": OptionInfo(
        label=N_("Illegal cards"),
        section="§8",
        explanation=N_(
            "The server refuses an illegal card; penalised reneges are not available yet."
        ),
        kind="choice",
        words={"prevented": N_("refused by the server"), "penalized": N_("accepted and penalised")},
    ),
    "renege_penalty": OptionInfo(
        label=N_("Renege penalty"),
        section="§8",
        explanation=N_("How many times the pot a renege costs (only with penalised reneges)."),
        kind="int",
        minimum=1,
        maximum=MAX_RENEGE_PENALTY,
        unit=" pots",
    ),
}
"""Every option in words, for the house-rules form and a table's rules listing."""


_PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "classic_cajun": {},
    "strict_trumping": {"must_trump": "always"},
    "friendly": {"allow_throw_off": True, "cinch_rule": False},
    "dealer_antes": {"ante_mode": "dealer_for_all"},
    "double_ante": {"double_ante": True},
    "simultaneous_declaration": {"declare": "simultaneous"},
    "separate_trump": {"trump_card": "dead"},
    "seven_handed_cap": {"max_discard": 3},
    "indiana_four_card": {
        "hand_size": 4,
        "trump_card": "dead",
        "max_discard": 3,
        "double_ante": True,
        "renege_penalty": 2,
        "entry_requirement": "trump_or_club",
        "second_chance": True,
    },
}

PRESETS: dict[str, BourreRules] = {
    name: BourreRules.from_dict(options) for name, options in _PRESET_OPTIONS.items()
}
"""The named variants of rules/bourre.md §9 (``pot_limit`` needs a limit: see ``preset``)."""


def preset(name: str, *, pot_limit: int | None = None) -> BourreRules:
    """A §9 preset by name; ``"pot_limit"`` takes the limit as ``pot_limit=N``."""
    if name == "pot_limit":
        if pot_limit is None:
            raise ConfigError("bad_option", "The pot-limit preset needs a limit.", "pot_limit")
        return BourreRules(pot_limit=pot_limit)
    if name not in PRESETS:
        raise ConfigError("unknown_preset", f"There is no Bourré preset named {name!r}.")
    rules = PRESETS[name]
    return rules if pot_limit is None else rules.with_options(pot_limit=pot_limit)
