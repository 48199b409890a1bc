"""House rules in words: the form's fields generated from the engine's option schema, a
table's rules listed and summed up in one line, and a submitted configuration checked by
the engine's own validator with each error placed on the field it concerns.

Nothing here knows an option by name: every label, allowed value and explanation comes from
the engine's ``OPTION_INFO`` and ``REFUSED_COMBINATIONS`` (rules/*.md), through each game's
driver in the registry. The engine keeps them in English (marked for the catalogs); they are
translated here, into the reader's language, when they are handed to a person.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from app.engine import registry
from app.engine.options import ConfigError, OptionInfo, RefusedCombination, RuleOptions
from app.errors import InvalidInput
from app.i18n import _, ngettext


@dataclass(frozen=True, slots=True)
class GameRules:
    """What the engine says about one game's house rules."""

    title: str
    rules_type: type[RuleOptions]
    info: Mapping[str, OptionInfo]
    refused: tuple[RefusedCombination, ...]
    presets: Mapping[str, RuleOptions]
    # The options a table's opener sets as its stakes, over the configuration's values.
    stakes: tuple[str, ...]


GAMES: dict[str, GameRules] = {
    name: GameRules(
        game.title,
        game.rules_type,
        game.option_info,
        game.refused_combinations,
        game.presets,
        game.stakes,
    )
    for name, game in registry.GAMES.items()
}


def game_rules(game: str) -> GameRules:
    if game not in GAMES:
        raise InvalidInput(
            "unknown_game", _("Salon does not deal '%(game)s'.", game=game), field="game"
        )
    return GAMES[game]


def known_game(game: str) -> str:
    """``game`` if Salon deals it; ``unknown_game`` otherwise."""
    game_rules(game)
    return game


def preset_title(name: str) -> str:
    """``"indiana_four_card"`` → ``"Indiana four card"``."""
    return name.replace("_", " ").capitalize()


@dataclass(frozen=True, slots=True)
class OptionField:
    """One field of the house-rules form."""

    name: str
    info: OptionInfo
    default: object
    value: object

    @property
    def label(self) -> str:
        return _(self.info.label)

    @property
    def explanation(self) -> str:
        return _(self.info.explanation)

    @property
    def none_words(self) -> str | None:
        return None if self.info.none_words is None else _(self.info.none_words)

    @property
    def choices(self) -> list[tuple[str, str]]:
        """(form value, words) of every allowed value of a choice or yes/no option."""
        return [(form_value(v), _(words)) for v, words in self.info.words.items()]

    @property
    def form_value(self) -> str:
        return form_value(self.value)

    @property
    def default_words(self) -> str:
        return describe(self.info, self.default)


def describe(info: OptionInfo, value: object) -> str:
    """The value in words in the reader's language, as ``OptionInfo.describe`` says it in
    English (whole numbers of chips or pots by the language's plural rules)."""
    if value is None and info.none_words is not None:
        return _(info.none_words)
    if value is None:
        return _("none")
    if info.kind in ("bool", "choice"):
        return _(info.describe(value))
    if isinstance(value, int) and not isinstance(value, bool):
        if info.unit == " chips":
            return ngettext("%(num)d chip", "%(num)d chips", value)
        if info.unit == " pots":
            return ngettext("%(num)d pot", "%(num)d pots", value)
    return info.describe(value)


def form_value(value: object) -> str:
    """How a value is written in a form field (booleans as "true"/"false", None empty)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_fields(game: str, options: Mapping[str, Any]) -> list[OptionField]:
    """The form's fields, in the engine's order, holding ``options`` (or the defaults)."""
    rules = game_rules(game)
    default = rules.rules_type()
    return [
        OptionField(
            f.name,
            rules.info[f.name],
            getattr(default, f.name),
            options.get(f.name, getattr(default, f.name)),
        )
        for f in fields(rules.rules_type)
    ]


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One option of a table's rules, in words."""

    label: str
    words: str
    section: str
    explanation: str
    changed: bool  # differs from the game's default


def listing(game: str, options: Mapping[str, Any]) -> list[RuleLine]:
    """Every option of these rules in words, in the engine's order."""
    effective = normalised(game, options)
    return [
        RuleLine(
            f.label,
            describe(f.info, effective.get(f.name, f.default)),
            f.info.section,
            f.explanation,
            f.name in effective,
        )
        for f in option_fields(game, effective)
    ]


def summary(game: str, options: Mapping[str, Any], *, with_stakes: bool = True) -> str:
    """One line: the game's stakes (unless shown beside it already; a stake left unset,
    like no pot limit, is not said), then each option that differs from the defaults."""
    rules = game_rules(game)
    effective = normalised(game, options)
    stakes = rules.stakes
    parts = [
        f"{_(rules.info[key].label)} {describe(rules.info[key], value)}"
        for key, value in stakes_of(game, effective).items()
        if with_stakes and value is not None
    ]
    changed = [
        f"{line.label.lower()}: {line.words}"
        for f, line in zip(option_fields(game, effective), listing(game, effective), strict=True)
        if line.changed and f.name not in stakes
    ]
    return " · ".join(parts + (changed or [_("standard rules")]))


def stakes_of(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The stake options' values in these rules (defaults included)."""
    rules = game_rules(game).rules_type.from_dict(options)
    return {key: getattr(rules, key) for key in game_rules(game).stakes}


def normalised(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as the engine stores them (only what differs from the defaults)."""
    return dict(game_rules(game).rules_type.from_dict(options).to_dict())


class InvalidRules(InvalidInput):
    """A configuration the engine refuses. ``field`` names the option at fault (the
    second of a refused pair), ``fields`` every option concerned, ``reason`` the engine's
    own code (``bad_option``, ``conflicting_options``…)."""

    def __init__(self, message: str, fields: list[str], reason: str) -> None:
        super().__init__(
            "invalid_rules",
            message,
            field=fields[-1] if fields else None,
            fields=fields,
            reason=reason,
        )
        self.fields = fields
        self.reason = reason


def check(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's validator on a submitted configuration; returns it normalised."""
    rules = game_rules(game)
    try:
        return normalised(game, options)
    except ConfigError as error:
        if error.code == "conflicting_options":
            for refused in rules.refused:
                pair = dict([refused.first, refused.second])
                if all(options.get(key, _MISSING) == value for key, value in pair.items()):
                    message = _(
                        "%(first)s cannot be combined with %(second)s (rules %(section)s):"
                        " %(why)s.",
                        first=_said(rules, refused.first),
                        second=_said(rules, refused.second),
                        section=refused.section,
                        why=_(refused.why),
                    )
                    raise InvalidRules(message, list(pair), error.code) from None
        fields_ = [error.field] if error.field else []
        raise InvalidRules(config_refusal(game, error), fields_, error.code) from None


def config_refusal(game: str, error: ConfigError) -> str:
    """The engine's refusal of a configuration, in the reader's language: what the option
    at fault allows, from its ``OptionInfo`` (the engine's own sentence for a refusal
    this does not know)."""
    info = GAMES[game].info.get(error.field or "") if game in GAMES else None
    if error.code == "unknown_option":
        return _("There is no rule option '%(key)s'.", key=error.field or "")
    if error.code == "bad_rules":
        return _("The rules must be an object of option: value.")
    if error.code == "unknown_preset":
        return _("There is no built-in preset by that name.")
    if info is None:
        return error.message
    label = _(info.label)
    if error.code == "not_supported_yet":
        return _("%(label)s: this choice is not supported yet.", label=label)
    if error.code != "bad_option":
        return error.message
    if info.kind == "bool":
        return _("%(label)s: choose yes or no.", label=label)
    if info.kind == "choice":
        choices = ", ".join(_(words) for words in info.words.values())
        return _("%(label)s: choose one of: %(choices)s.", label=label, choices=choices)
    if info.minimum is not None and info.maximum is not None:
        return _(
            "%(label)s must be a whole number from %(low)s to %(high)s.",
            label=label,
            low=describe(info, info.minimum),
            high=describe(info, info.maximum),
        )
    return _("%(label)s must be a whole number.", label=label)


_MISSING = object()


def _said(rules: GameRules, option: tuple[str, object]) -> str:
    """``("declare", "simultaneous")`` → ``"“Play or pass: committed secretly…”"``."""
    info = rules.info[option[0]]
    return _("“%(label)s: %(value)s”", label=_(info.label), value=describe(info, option[1]))


# Digits 0-9 only: int() would also read other scripts' digits.
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,12}")


def parse_form(game: str, form: Mapping[str, str]) -> dict[str, Any]:
    """Typed option values from a form's strings, by the schema's kinds; a value that is
    not of its kind is refused on its field (the engine then checks the rest)."""
    options: dict[str, Any] = {}
    for f in option_fields(game, {}):
        raw = form.get(f.name)
        if raw is None:
            continue
        raw = raw.strip()
        if f.info.kind == "bool":
            if raw not in ("true", "false"):
                raise InvalidRules(
                    _("%(label)s: choose yes or no.", label=f.label), [f.name], "bad_option"
                )
            options[f.name] = raw == "true"
        elif f.info.kind == "choice":
            options[f.name] = raw
        elif raw == "" and f.info.none_words is not None:
            options[f.name] = None
        elif _WHOLE_NUMBER.fullmatch(raw):
            options[f.name] = int(raw)
        else:
            raise InvalidRules(
                _("%(label)s must be a whole number.", label=f.label), [f.name], "bad_option"
            )
    return options
