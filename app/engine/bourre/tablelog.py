"""Bourré hands in the table log (spec/table-log.md): parse, replay and write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from app.engine import logdoc
from app.engine.base import Action, EngineError
from app.engine.bourre.config import BourreRules
from app.engine.bourre.deck import DeckSource, ReshuffleError, ScriptedDeck, SeededDeck
from app.engine.bourre.session import BourreSession
from app.engine.bourre.state import BourreHand, HandResult
from app.engine.cards import CARD_INDEX, CARD_NAMES, DECK_SIZE
from app.engine.logdoc import (
    IllegalLogAction,
    MalformedLog,
    expect_int,
    expect_list,
    expect_object,
    expect_seats,
    expect_seed,
    play_logged_hand,
    quote,
    replay_result,
    require,
)
from app.engine.rng import seed_to_hex

GAME = "bourre"
ACTIONS = ("play", "pass", "discard", "take_trump", "card", "take_back")


@dataclass(frozen=True, slots=True)
class LoggedHand:
    """One parsed hand: its cards (a deck with reshuffles, or a seed) and its actions."""

    deck: tuple[int, ...] | None
    reshuffles: tuple[tuple[int, ...], ...]
    seed: bytes | None
    actions: tuple[Action, ...]
    # Seats at the table but not dealt in this hand (an added field of the format).
    sitting_out: tuple[int, ...] = ()

    def source(self) -> DeckSource:
        if self.seed is not None:
            return SeededDeck(self.seed)
        assert self.deck is not None
        return ScriptedDeck(list(self.deck), [list(r) for r in self.reshuffles])


def parse_rules(value: object, path: str) -> BourreRules:
    return logdoc.parse_rules(BourreRules, value, path)


def _parse_cards(value: object, path: str, what: str) -> list[int]:
    items = expect_list(value, path, what)
    cards: list[int] = []
    seen: set[int] = set()
    for i, item in enumerate(items):
        card = CARD_INDEX.get(item) if isinstance(item, str) else None
        if card is None:
            raise MalformedLog(f"{path}[{i}]", f"{quote(item)} is not a card")
        if card in seen:
            raise MalformedLog(f"{path}[{i}]", f"{item} is listed twice")
        seen.add(card)
        cards.append(card)
    return cards


def parse_action(value: object, path: str) -> Action:
    """One action in its canonical form, or `MalformedLog` naming the field that is wrong
    or that this kind of action does not take (the live table checks actions with it too,
    so that every stored action replays)."""
    obj = expect_object(value, path, {"seat", "action", "card", "cards"}, "an action")
    seat = expect_int(require(obj, "seat", path), f"{path}.seat", "seat")
    kind = require(obj, "action", path)
    if kind not in ACTIONS:
        raise MalformedLog(f"{path}.action", f"{quote(kind)} is not a Bourré action")
    if kind == "card":
        name = require(obj, "card", path)
        if not isinstance(name, str) or name not in CARD_INDEX:
            raise MalformedLog(f"{path}.card", f"{quote(name)} is not a card")
    elif "card" in obj:
        raise MalformedLog(f"{path}.card", f"a {quote(kind)} action has no card")
    if kind == "discard":
        cards = _parse_cards(require(obj, "cards", path), f"{path}.cards", "cards")
        return Action(seat, kind, cards=tuple(CARD_NAMES[c] for c in cards))
    if "cards" in obj:
        raise MalformedLog(f"{path}.cards", f"a {quote(kind)} action has no cards")
    return Action(seat, kind, card=obj.get("card"))


def parse_hand(value: object, path: str) -> LoggedHand:
    obj = expect_object(
        value, path, {"deck", "seed", "reshuffles", "actions", "sitting_out"}, "a hand"
    )
    if ("deck" in obj) == ("seed" in obj):
        raise MalformedLog(path, "a hand has either 'deck' or 'seed' (exactly one)")
    deck: tuple[int, ...] | None = None
    seed: bytes | None = None
    reshuffles: list[tuple[int, ...]] = []
    if "deck" in obj:
        cards = _parse_cards(obj["deck"], f"{path}.deck", "deck")
        if len(cards) != DECK_SIZE:
            raise MalformedLog(f"{path}.deck", f"a deck lists all 52 cards, not {len(cards)}")
        deck = tuple(cards)
        listed = expect_list(obj.get("reshuffles", []), f"{path}.reshuffles", "reshuffles")
        for i, item in enumerate(listed):
            reshuffles.append(tuple(_parse_cards(item, f"{path}.reshuffles[{i}]", "a reshuffle")))
    else:
        if "reshuffles" in obj:
            raise MalformedLog(
                f"{path}.reshuffles", "a seeded hand derives its reshuffles from the seed"
            )
        seed = expect_seed(obj["seed"], f"{path}.seed")
    actions = expect_list(require(obj, "actions", path), f"{path}.actions", "actions")
    sitting_out = expect_seats(obj.get("sitting_out", []), f"{path}.sitting_out")
    return LoggedHand(
        sitting_out=sitting_out,
        deck=deck,
        reshuffles=tuple(reshuffles),
        seed=seed,
        actions=tuple(parse_action(a, f"{path}.actions[{i}]") for i, a in enumerate(actions)),
    )


def hand_report(result: HandResult, names: Sequence[str]) -> dict[str, Any]:
    return {
        "dealer": result.dealer,
        "trump": result.trump,
        "pot": result.pot,
        "players": [names[p] for p in sorted(result.players)],
        "tricks": {names[p]: result.tricks[p] for p in sorted(result.players)},
        "winner": None if result.winner is None else names[result.winner],
        "bourre": [names[p] for p in sorted(result.bourre)],
        "carry": result.carry,
        "stacks": {names[s]: stack for s, stack in enumerate(result.stacks)},
    }


def replay(
    rules: BourreRules,
    names: Sequence[str],
    stacks: Sequence[int],
    dealer: int,
    pot: int,
    exempt: Sequence[int],
    hands: Sequence[LoggedHand],
) -> dict[str, Any]:
    """Run every hand through the engine and report them as spec/table-log.md "Replay"."""
    session = BourreSession(rules, stacks, button=dealer, pot=pot, exempt=exempt)
    reports = []
    for h, logged in enumerate(hands):
        number = h + 1
        try:
            hand = session.start_hand(source=logged.source(), sitting_out=logged.sitting_out)
        except EngineError as err:
            raise IllegalLogAction(number, 1, err.reason, err.code) from None
        play_logged_hand(number, hand, logged.actions, partial(_bad_reshuffle, h, logged))
        if len(hand.reshuffles) < len(logged.reshuffles):
            raise MalformedLog(
                f"$.hands[{h}].reshuffles[{len(hand.reshuffles)}]",
                "this reshuffle is listed but never needed",
            )
        reports.append(hand_report(session.close_hand(), names))
    return replay_result(reports, names, session.stacks, session.pot)


def _bad_reshuffle(h: int, logged: LoggedHand, err: EngineError) -> EngineError | None:
    """A reshuffle the log lists wrongly is a malformed log, not an illegal action."""
    if not isinstance(err, ReshuffleError):
        return None
    where = f"$.hands[{h}].reshuffles"
    if err.index <= len(logged.reshuffles):
        where += f"[{err.index - 1}]"
    return MalformedLog(where, err.message)


def hand_entry(hand: BourreHand, *, as_deck: bool = False) -> dict[str, Any]:
    """The table-log entry of a dealt hand: its seed (or deck and reshuffles) and actions.

    A seeded hand is written with its ``seed`` unless ``as_deck`` asks for the explicit deck
    and reshuffles (both forms replay identically).
    """
    entry: dict[str, Any] = {}
    source = hand.source
    if isinstance(source, SeededDeck) and not as_deck:
        entry["seed"] = seed_to_hex(source.seed)
    else:
        entry["deck"] = [CARD_NAMES[c] for c in source.deck()]
        if hand.reshuffles:
            entry["reshuffles"] = [[CARD_NAMES[c] for c in r] for r in hand.reshuffles]
    if hand.sitting_out:
        entry["sitting_out"] = sorted(hand.sitting_out)
    entry["actions"] = [a.to_dict() for a in hand.actions]
    return entry
