"""Table logs (spec/table-log.md): parse and validate, replay, and write.

A table log is the replayable record of a sequence of hands at one table. ``parse`` checks
the whole document before anything runs (a malformed document raises :class:`MalformedLog`
with the JSON path of the problem); ``replay`` runs every hand through the game's engine (an
action the engine refuses raises :class:`IllegalLogAction` with the hand and action numbers,
both from 1). Each game plugs in through :data:`GAMES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.engine import registry
from app.engine.base import Game
from app.engine.driver import GameLog
from app.engine.logdoc import (
    IllegalLogAction,
    MalformedLog,
    expect_int,
    expect_list,
    expect_object,
    quote,
    require,
)
from app.engine.options import RuleOptions

FORMAT = "salon.table-log/1"
MAX_SEATS = 8
_TOP_FIELDS = {"format", "game", "rules", "seats", "dealer", "pot", "exempt", "hands"}

__all__ = [
    "FORMAT",
    "GAMES",
    "GameLog",
    "IllegalLogAction",
    "MalformedLog",
    "TableLog",
    "hand_entry",
    "new_document",
    "parse",
    "replay",
]


GAMES: dict[str, GameLog] = {name: game.log for name, game in registry.GAMES.items()}
"""Games a table log may name, each with its plug-in (from the registry)."""


@dataclass(frozen=True, slots=True)
class TableLog:
    game: str
    rules: Any
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    dealer: int
    pot: int
    exempt: tuple[int, ...]
    hands: tuple[Any, ...]


def parse(document: object) -> TableLog:
    """Validate a whole table log; raises :class:`MalformedLog` with the path of a problem."""
    doc = expect_object(document, "$", _TOP_FIELDS, "a table log")
    fmt = require(doc, "format", "$")
    if fmt != FORMAT:
        raise MalformedLog(
            "$.format", f"unsupported format {quote(fmt)} (expected {quote(FORMAT)})"
        )
    game = require(doc, "game", "$")
    if not isinstance(game, str) or game not in GAMES:
        raise MalformedLog("$.game", f"unsupported game {quote(game)}")
    plugin = GAMES[game]
    rules = plugin.parse_rules(doc.get("rules", {}), "$.rules")
    seats = expect_list(require(doc, "seats", "$"), "$.seats", "seats")
    if not 2 <= len(seats) <= MAX_SEATS:
        raise MalformedLog("$.seats", f"a table has 2 to {MAX_SEATS} seats, not {len(seats)}")
    names: list[str] = []
    stacks: list[int] = []
    for i, seat in enumerate(seats):
        path = f"$.seats[{i}]"
        obj = expect_object(seat, path, {"name", "stack"}, "a seat")
        name = require(obj, "name", path)
        if not isinstance(name, str) or not name:
            raise MalformedLog(f"{path}.name", "a seat's name must be a non-empty string")
        if name in names:
            raise MalformedLog(f"{path}.name", f"the name {quote(name)} is used twice")
        names.append(name)
        stacks.append(expect_int(require(obj, "stack", path), f"{path}.stack", "stack", 0))
    dealer = expect_int(require(doc, "dealer", "$"), "$.dealer", "dealer", 0)
    if dealer >= len(seats):
        raise MalformedLog("$.dealer", f"there is no seat {dealer}")
    pot = expect_int(doc.get("pot", 0), "$.pot", "pot", 0)
    exempt: list[int] = []
    for i, seat in enumerate(expect_list(doc.get("exempt", []), "$.exempt", "exempt")):
        number = expect_int(seat, f"$.exempt[{i}]", "an exempt seat", 0)
        if number >= len(seats) or number in exempt:
            raise MalformedLog(f"$.exempt[{i}]", f"seat {number} is not a seat or is repeated")
        exempt.append(number)
    hands = expect_list(require(doc, "hands", "$"), "$.hands", "hands")
    parsed = tuple(plugin.parse_hand(hand, f"$.hands[{i}]") for i, hand in enumerate(hands))
    return TableLog(game, rules, tuple(names), tuple(stacks), dealer, pot, tuple(exempt), parsed)


def replay(document: object) -> dict[str, Any]:
    """Replay a table log: the JSON-ready result of spec/table-log.md "Replay"."""
    log = parse(document)
    return GAMES[log.game].replay(
        log.rules, log.names, log.stacks, log.dealer, log.pot, log.exempt, log.hands
    )


def new_document(
    game: str,
    rules: RuleOptions | Mapping[str, Any],
    seats: Sequence[tuple[str, int]],
    dealer: int,
    *,
    pot: int = 0,
    exempt: Iterable[int] = (),
) -> dict[str, Any]:
    """The head of a table log; append hand entries (``hand_entry``) to its ``hands``."""
    if game not in GAMES:
        raise ValueError(f"unsupported game {quote(game)}")
    rules_dict = rules.to_dict() if isinstance(rules, RuleOptions) else dict(rules)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "rules": rules_dict,
        "seats": [{"name": name, "stack": stack} for name, stack in seats],
        "dealer": dealer,
    }
    if pot:
        doc["pot"] = pot
    exempt_list = sorted(exempt)
    if exempt_list:
        doc["exempt"] = exempt_list
    doc["hands"] = []
    return doc


def hand_entry(hand: Game, *, as_deck: bool = False) -> dict[str, Any]:
    """The table-log entry of a played hand (its seed or deck, and its actions)."""
    for game in registry.DRIVERS:
        if isinstance(hand, game.hand_type):
            return game.hand_entry(hand, as_deck=as_deck)
    raise ValueError(f"no game deals a {type(hand).__name__}")
