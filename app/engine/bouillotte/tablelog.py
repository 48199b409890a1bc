"""Bouillotte hands in the table log (spec/table-log.md): parse, replay and write.

A hand entry has a ``deck`` (the pack of the hand, top first: 16, 20 or 24 cards) or a
``seed``, and its ``actions``: ``straddle``, ``decline``, ``buy_back``, ``pass``, ``open``
(``amount``: the total stake after the action), ``call``, ``raise`` (``amount``: the total),
``all_in`` and ``fold``. Whether a listed deck is the right pack depends on how many players
are dealt in, which only the replay knows: a wrong pack is reported then, with the deck's path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engine import logdoc
from app.engine.base import Action, EngineError
from app.engine.bouillotte.config import BouillotteRules
from app.engine.bouillotte.deck import PACK_MASKS, DeckError, DeckSource, ScriptedDeck, SeededDeck
from app.engine.bouillotte.ranking import hand_names
from app.engine.bouillotte.session import BouillotteSession
from app.engine.bouillotte.state import ACTION_KINDS, BouillotteHand, HandResult
from app.engine.cards import CARD_INDEX, CARD_NAMES
from app.engine.logdoc import (
    IllegalLogAction,
    MalformedLog,
    expect_int,
    expect_list,
    expect_object,
    expect_seats,
    expect_seed,
    is_int,
    play_logged_hand,
    quote,
    replay_result,
    require,
)
from app.engine.rng import seed_to_hex

GAME = "bouillotte"
ACTIONS = tuple(sorted(ACTION_KINDS))
_WITH_AMOUNT = ("open", "raise")


@dataclass(frozen=True, slots=True)
class LoggedHand:
    """One parsed hand: its cards (a deck or a seed) and its actions."""

    deck: tuple[int, ...] | None
    seed: bytes | None
    actions: tuple[Action, ...]
    # Seats at the table but not dealt in this hand (an added field of the format).
    sitting_out: tuple[int, ...] = ()

    def source(self) -> DeckSource:
        if self.seed is not None:
            return SeededDeck(self.seed)
        assert self.deck is not None
        return ScriptedDeck(list(self.deck))


def parse_rules(value: object, path: str) -> BouillotteRules:
    return logdoc.parse_rules(BouillotteRules, value, path)


def _parse_deck(value: object, path: str) -> tuple[int, ...]:
    items = expect_list(value, path, "deck")
    cards: list[int] = []
    mask = 0
    for i, item in enumerate(items):
        card = CARD_INDEX.get(item) if isinstance(item, str) else None
        if card is None:
            raise MalformedLog(f"{path}[{i}]", f"{quote(item)} is not a card")
        if mask >> card & 1:
            raise MalformedLog(f"{path}[{i}]", f"{item} is listed twice")
        if not PACK_MASKS[5] >> card & 1:
            raise MalformedLog(f"{path}[{i}]", f"{item} is not in a Bouillotte pack (A K Q J 9 8)")
        mask |= 1 << card
        cards.append(card)
    if mask not in PACK_MASKS.values():
        raise MalformedLog(
            path,
            "a Bouillotte deck is a whole pack: 16 cards (A K 9 8), 20 (A K Q 9 8) "
            f"or 24 (A K Q J 9 8), not these {len(cards)} cards",
        )
    return tuple(cards)


def parse_action(value: object, path: str) -> Action:
    """One action in its canonical form, or `MalformedLog` naming the field that is wrong
    or that this kind of action does not take (the live table checks actions with it too,
    so that every stored action replays)."""
    obj = expect_object(value, path, {"seat", "action", "amount"}, "an action")
    seat = expect_int(require(obj, "seat", path), f"{path}.seat", "seat")
    kind = require(obj, "action", path)
    if kind not in ACTION_KINDS:
        raise MalformedLog(f"{path}.action", f"{quote(kind)} is not a Bouillotte action")
    if kind in _WITH_AMOUNT:
        amount = require(obj, "amount", path)
        if not is_int(amount):
            raise MalformedLog(f"{path}.amount", "amount must be an integer (the total stake)")
        return Action(seat, kind, amount=amount)
    if "amount" in obj:
        raise MalformedLog(f"{path}.amount", f"a {quote(kind)} action has no amount")
    return Action(seat, kind)


def parse_hand(value: object, path: str) -> LoggedHand:
    obj = expect_object(value, path, {"deck", "seed", "actions", "sitting_out"}, "a hand")
    if ("deck" in obj) == ("seed" in obj):
        raise MalformedLog(path, "a hand has either 'deck' or 'seed' (exactly one)")
    deck: tuple[int, ...] | None = None
    seed: bytes | None = None
    if "deck" in obj:
        deck = _parse_deck(obj["deck"], f"{path}.deck")
    else:
        seed = expect_seed(obj["seed"], f"{path}.seed")
    actions = expect_list(require(obj, "actions", path), f"{path}.actions", "actions")
    sitting_out = expect_seats(obj.get("sitting_out", []), f"{path}.sitting_out")
    return LoggedHand(
        sitting_out=sitting_out,
        deck=deck,
        seed=seed,
        actions=tuple(parse_action(a, f"{path}.actions[{i}]") for i, a in enumerate(actions)),
    )


def hand_report(result: HandResult, names: Sequence[str]) -> dict[str, Any]:
    """One hand of the replay output (spec/table-log.md "Replay", Bouillotte hands)."""
    return {
        "dealer": result.dealer,
        "upcard": CARD_NAMES[result.upcard],
        "players": [names[p] for p in result.players],
        "pots": [{"amount": amount, "winner": names[winner]} for amount, winner in result.pots],
        "showdown": {
            names[seat]: {"rank": rank, "cards": hand_names(cards)}
            for seat, (rank, cards) in sorted(result.showdown.items())
        },
        "suit_points": dict(result.suit_points),
        "bonuses": [
            {"from": names[payer], "to": names[collector], "amount": amount}
            for payer, collector, amount in result.bonuses
        ],
        "carry": result.carry,
        "stacks": {names[s]: stack for s, stack in enumerate(result.stacks)},
    }


def replay(
    rules: BouillotteRules,
    names: Sequence[str],
    stacks: Sequence[int],
    dealer: int,
    pot: int,
    exempt: Sequence[int],
    hands: Sequence[LoggedHand],
) -> dict[str, Any]:
    """Run every hand through the engine and report them as spec/table-log.md "Replay".

    A ``pot`` in the document is a carried pot (dead money of a thrown-in hand): the first
    hand has no antes and its dealer adds 1 (rules/bouillotte.md §8). Bouillotte has no ante
    exemptions, so ``exempt`` must be empty.
    """
    if exempt:
        raise MalformedLog("$.exempt", "Bouillotte has no ante exemptions")
    session = BouillotteSession(rules, stacks, button=dealer, pot=pot)
    reports = []
    for h, logged in enumerate(hands):
        number = h + 1
        try:
            hand = session.start_hand(source=logged.source(), sitting_out=logged.sitting_out)
        except DeckError as err:
            raise MalformedLog(f"$.hands[{h}].deck", err.message) from None
        except EngineError as err:
            raise IllegalLogAction(number, 1, err.reason, err.code) from None
        play_logged_hand(number, hand, logged.actions)
        reports.append(hand_report(session.close_hand(), names))
    return replay_result(reports, names, session.stacks, session.pot)


def hand_entry(hand: BouillotteHand, *, as_deck: bool = False) -> dict[str, Any]:
    """The table-log entry of a dealt hand: its seed (or its deck) and its actions.

    A seeded hand is written with its ``seed`` unless ``as_deck`` asks for the explicit deck
    (both forms replay identically).
    """
    entry: dict[str, Any] = {}
    source = hand.source
    if isinstance(source, SeededDeck) and not as_deck:
        entry["seed"] = seed_to_hex(source.seed)
    else:
        entry["deck"] = [CARD_NAMES[c] for c in hand.deck]
    if hand.sitting_out:
        entry["sitting_out"] = sorted(hand.sitting_out)
    entry["actions"] = [a.to_dict() for a in hand.actions]
    return entry


def new_document(
    rules: BouillotteRules,
    seats: Sequence[tuple[str, int]],
    dealer: int,
    *,
    pot: int = 0,
) -> dict[str, Any]:
    """The head of a Bouillotte table log; append hand entries (``hand_entry``) to ``hands``."""
    doc: dict[str, Any] = {
        "format": "salon.table-log/1",
        "game": GAME,
        "rules": rules.to_dict(),
        "seats": [{"name": name, "stack": stack} for name, stack in seats],
        "dealer": dealer,
    }
    if pot:
        doc["pot"] = pot
    doc["hands"] = []
    return doc
