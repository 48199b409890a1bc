"""What the two games' house rules share: one error for a bad config, and the mapping of a
frozen rules dataclass to and from the table log's ``rules`` object.

``from_dict`` accepts only the game's own options, each checked by the game, so a stored
preset or a table log can never smuggle in an option the engine does not enforce;
``to_dict`` writes back only the fields that differ from the defaults, as the table log
requires (spec/table-log.md).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

from app.engine.base import EngineError


def N_(text: str) -> str:
    """Marks an option's words for translation (`make messages` extracts them) and returns
    them unchanged: the engine keeps its English, which the app translates where it shows
    the words to a person (app/services/rule_words.py)."""
    return text


class ConfigError(EngineError):
    """A rules config that is malformed or asks for an impossible combination.

    ``field`` names the offending option (None when several options conflict).
    """

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(code, message)
        self.field = field


MAX_CHIPS = 1_000_000_000
"""The most chips one option may name (an ante, a pot limit, a cave, a bonus). A table's
buy-in is at most this many chips and the ledger moves at most this many at once, so no
table could play a larger value; refusing it keeps numbers like 2**62 out of saved
configurations and table logs."""


class RuleOptions:
    """Base of a game's ``@dataclass(frozen=True, slots=True)`` rules: every field is an
    option with its default. A game names itself and checks the type of each option."""

    __slots__ = ()
    GAME_NAME: ClassVar[str]

    if TYPE_CHECKING:  # what the dataclass decorator gives every game's rules
        __dataclass_fields__: ClassVar[dict[str, Any]]

        def __init__(self, **options: Any) -> None: ...

    @classmethod
    def check_option(cls, key: str, value: object) -> None:
        """Raise ``ConfigError("bad_option", …)`` when ``value`` does not suit ``key``."""
        raise NotImplementedError

    @classmethod
    def _known(cls, key: object) -> str:
        if key not in {f.name for f in fields(cls)}:
            raise ConfigError(
                "unknown_option", f"Unknown {cls.GAME_NAME} rule option {key!r}.", field=str(key)
            )
        return str(key)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Build rules from a mapping of the fields that differ from the defaults."""
        if not isinstance(data, Mapping):
            raise ConfigError("bad_rules", "The rules must be an object of option: value.")
        for key in data:  # every name first: an unknown option is the clearer answer
            cls._known(key)
        for key, value in data.items():
            cls.check_option(key, value)
        return cls(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        """The fields that differ from the defaults (the table log's ``rules``)."""
        default = type(self)()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    def with_options(self, **changes: Any) -> Self:
        """These rules with some options changed, each checked."""
        for key, value in changes.items():
            self.check_option(self._known(key), value)
        return replace(self, **changes)


OptionKind = Literal["bool", "choice", "int"]


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionInfo:
    """What a person needs to know about one option to choose it: the words beside a
    form field, and the words that describe a table's rules. Pure data, kept next to the
    options so a new option cannot be added without them (a test checks it).

    ``section`` is where the option is defined in the game's rules page (``"§4"``);
    ``words`` says each allowed value in words (choices and booleans); an ``int`` option
    allows ``minimum``..``maximum``, and None too when ``none_words`` says what None means.
    """

    label: str
    section: str
    explanation: str
    kind: OptionKind
    words: Mapping[object, str] = field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None
    none_words: str | None = None
    unit: str = ""

    def describe(self, value: object) -> str:
        """The value in words, as the rules listing of a table says it."""
        if value is None:
            return self.none_words or "none"
        if self.kind in ("bool", "choice"):
            # A stored value the engine refuses (a list, an object) is said as it is.
            return self.words.get(value, str(value)) if isinstance(value, Hashable) else str(value)
        if value == 1 and self.unit.endswith("s"):  # "1 chip", not "1 chips"
            return f"{value}{self.unit[:-1]}"
        return f"{value}{self.unit}"


def check_maximums(rules: RuleOptions, info: Mapping[str, OptionInfo]) -> None:
    """Refuse a whole-number option above the ``maximum`` its ``OptionInfo`` states, so the
    form, the option schema and the validator share one bound."""
    for key, entry in info.items():
        value = getattr(rules, key)
        if entry.maximum is not None and isinstance(value, int) and value > entry.maximum:
            raise ConfigError(
                "bad_option",
                f"{entry.label} can be at most {entry.describe(entry.maximum)}.",
                key,
            )


@dataclass(frozen=True, slots=True)
class RefusedCombination:
    """Two option values the engine refuses together, and why (rules pages, "Invalid
    pair")."""

    first: tuple[str, object]
    second: tuple[str, object]
    section: str
    why: str

    def matches(self, rules: object) -> bool:
        return all(
            getattr(rules, key, object()) == value for key, value in (self.first, self.second)
        )

    @property
    def message(self) -> str:
        (a, va), (b, vb) = self.first, self.second
        return f"{a}: {_json_word(va)} cannot be combined with {b}: {_json_word(vb)} ({self.why})."


def _json_word(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
