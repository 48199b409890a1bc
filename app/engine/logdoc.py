"""Errors and small validators for table logs (spec/table-log.md), shared by every game."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from app.engine.base import Action, EngineError, Game
from app.engine.options import ConfigError, RuleOptions
from app.engine.rng import SeedError, seed_from_hex

RulesT = TypeVar("RulesT", bound=RuleOptions)


class MalformedLog(EngineError):
    """A table log that breaks the format; ``path`` is the JSON path of the problem."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__("malformed_log", message)
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class IllegalLogAction(EngineError):
    """An action the engine refused while replaying; hand and action numbered from 1."""

    def __init__(self, hand: int, action: int, text: str, code: str = "illegal_action") -> None:
        super().__init__(code, text)
        self.hand = hand
        self.action = action

    def __str__(self) -> str:
        return f"hand {self.hand}, action {self.action}: {self.message}"


def quote(value: object) -> str:
    """A value as it is written in JSON, for messages about a document."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def expect_object(value: object, path: str, allowed: set[str], what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise MalformedLog(path, f"{what} must be a JSON object")
    for key in value:
        if key not in allowed:
            raise MalformedLog(f"{path}.{key}", f"unknown field {quote(key)}")
    return value


def expect_list(value: object, path: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedLog(path, f"{what} must be a JSON array")
    return value


def require(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise MalformedLog(f"{path}.{key}", f"missing required field {quote(key)}")
    return obj[key]


def expect_int(value: object, path: str, what: str, minimum: int | None = None) -> int:
    if not is_int(value):
        raise MalformedLog(path, f"{what} must be an integer")
    assert isinstance(value, int)
    if minimum is not None and value < minimum:
        raise MalformedLog(path, f"{what} must be at least {minimum}")
    return value


def expect_seed(value: object, path: str) -> bytes:
    """A hand's ``seed``: a hex string (spec/table-log.md)."""
    if not isinstance(value, str):
        raise MalformedLog(path, "the seed must be a hex string")
    try:
        return seed_from_hex(value)
    except SeedError as err:
        raise MalformedLog(path, str(err)) from None


def expect_seats(value: object, path: str) -> tuple[int, ...]:
    """A list of seat numbers, such as a hand's ``sitting_out``."""
    items = expect_list(value, path, path.rsplit(".", 1)[-1])
    return tuple(expect_int(seat, f"{path}[{i}]", "a seat", 0) for i, seat in enumerate(items))


def play_logged_hand(
    number: int,
    hand: Game,
    actions: Sequence[Action],
    refusal: Callable[[EngineError], EngineError | None] = lambda _: None,
) -> None:
    """Apply hand ``number``'s logged actions in order; the hand must then be over.

    An action the engine refuses is an ``IllegalLogAction`` naming the hand and the action
    (both counted from 1), unless ``refusal`` turns that error into another one (a game's
    own "the log itself is wrong" cases).
    """
    for a, action in enumerate(actions):
        try:
            hand.apply(action)
        except EngineError as err:
            raise refusal(err) or IllegalLogAction(
                number, a + 1, f"seat {action.seat} {err.reason}", err.code
            ) from None
    if not hand.is_over:
        waiting = ", ".join(str(s) for s in hand.to_act())
        raise IllegalLogAction(
            number,
            len(actions) + 1,
            f"the hand is not finished (seat {waiting} to act)",
            "hand_not_finished",
        )


def replay_result(
    reports: list[dict[str, Any]], names: Sequence[str], stacks: Sequence[int], pot: int
) -> dict[str, Any]:
    """The spec's replay output once every hand is played: each hand's report, the final
    stacks by name, and the pot left on the table."""
    return {
        "hands": reports,
        "stacks": {names[s]: stack for s, stack in enumerate(stacks)},
        "pot": pot,
    }


def parse_rules(rules_type: type[RulesT], value: object, path: str) -> RulesT:
    """A document's ``rules`` object as the game's rules; a bad option is a malformed log
    pointing at that option."""
    if not isinstance(value, Mapping):
        raise MalformedLog(path, "rules must be a JSON object")
    try:
        return rules_type.from_dict(value)
    except ConfigError as err:
        raise MalformedLog(f"{path}.{err.field}" if err.field else path, err.message) from None
