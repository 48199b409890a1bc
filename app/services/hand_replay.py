"""A stored hand dealt again through the engine, as the table dealt it.

The hand's seed, its table-log header and what the table carried into it (button,
exemptions, who sat out) deal exactly the hand that was played; its stored actions then
replay it step by step (see `hand_steps`), each step seen by one viewer through the
engine's own `view(seat)` whitelist: a member sees what they saw at the table (their cards,
what was played face up, the showdown), an admin every seat's view merged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.engine.base import Action, Game
from app.engine.cards import CARD_NAMES
from app.engine.driver import LiveHand
from app.engine.registry import driver
from app.engine.rng import seed_from_hex
from app.i18n import _, ngettext


def deal_stored(header: Mapping[str, Any], players: Mapping[str, Any], seed_hex: str) -> LiveHand:
    """The stored hand, dealt and not yet played (as `TableActor._restore` deals it)."""
    game = driver(str(header["game"]))
    stacks = [int(s["stack"]) for s in header["seats"]]
    return game.deal(
        game.parse_rules(header.get("rules", {})),
        stacks,
        int(header.get("pot", 0)),
        players.get("state", {}),
        seed_from_hex(seed_hex),
        players.get("sitting_out", []),
    )


def dealt_deck(header: Mapping[str, Any], players: Mapping[str, Any], seed_hex: str) -> list[str]:
    """The pack the hand was dealt from, top first: shuffle 0 of its seed
    (docs/fair-shuffle.md), as the game makes it for as many players as were dealt in.
    What a hand page's Verify panel derives again from the seed and compares."""
    dealt = deal_stored(header, players, seed_hex).dealt_in
    cards = driver(str(header["game"])).dealt_deck(seed_from_hex(seed_hex), len(dealt))
    return [CARD_NAMES[card] for card in cards]


def action_from_log(data: Mapping[str, Any]) -> Action:
    """An action in its table-log form, as the engine takes it."""
    cards = data.get("cards")
    return Action(
        int(data["seat"]),
        str(data["action"]),
        card=data.get("card"),
        cards=tuple(cards) if cards is not None else None,
        amount=data.get("amount"),
    )


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(card: str) -> str:
    """A card as a person reads it: "AS" → "A♠", "TD" → "10♦"."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def cards_text(cards: list[str]) -> str:
    return " ".join(card_text(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who a replay is for: a seat (or None, a spectator's view), or everything (admins)."""

    seat: int | None
    full: bool = False


@dataclass(frozen=True, slots=True)
class ReplayContext:
    """What the live table showed around the hand: the table, who sat where."""

    table: dict[str, Any]
    number: int
    commitment: str
    # Seat → (display name, username) of the members seated when it was dealt.
    seated: dict[int, tuple[str, str]]
    result: dict[str, Any]
    stacks_after: dict[int, int]


def full_view(game: Game, dealt_in: frozenset[int]) -> dict[str, Any]:
    """An admin's view: the spectator's, plus what each seat dealt in sees privately (its
    cards, its discards…), merged from that seat's own view, never from the full state."""
    view = game.view(None)
    private: dict[str, dict[str, Any]] = {}
    for seat in sorted(dealt_in):
        own = game.view(seat)
        private[str(seat)] = {
            k: v for k, v in own.items() if k not in view and k not in ("legal_actions", "viewer")
        }
    view["full"] = True
    view["hands"] = {seat: mine.get("hand", []) for seat, mine in private.items()}
    view["private"] = private
    return view


def action_label(action: Action, name: str, viewer: Viewer, phase: str = "") -> str:
    """The action as a sentence, in the rules' words and the reader's language (the table's
    hand log's own sentences, static/js/table: ``{name}``-style placeholders); a Bourré
    discard names its cards only to whom saw them. `phase`: the hand's phase when it was
    taken (rules/bouillotte.md §8: a "decline" turns down a straddle or a buy-back before
    the opening, and is the continuation's *stay* after it)."""
    match action.kind:
        case "card":
            return _("{name} plays {card}.").format(name=name, card=card_text(action.card or ""))
        case "play":
            return _("{name} plays.").format(name=name)
        case "pass":
            return _("{name} passes.").format(name=name)
        case "discard":
            cards = list(action.cards or ())
            if not cards:
                return _("{name} keeps all cards.").format(name=name)
            if viewer.full or viewer.seat == action.seat:
                return _("{name} discards {cards}.").format(name=name, cards=cards_text(cards))
            return ngettext(
                "{name} exchanges {n} card.", "{name} exchanges {n} cards.", len(cards)
            ).format(name=name, n=len(cards))
        case "take_trump":
            return _("{name} takes the turned card.").format(name=name)
        case "take_back":
            return _("{name} takes back a card.").format(name=name)
        case "straddle":
            return _("{name} straddles.").format(name=name)
        case "decline":
            if phase == "continuation":
                return _("{name} stays.").format(name=name)
            if phase == "buy_back":
                return _("{name} declines to buy back.").format(name=name)
            return _("{name} declines to straddle.").format(name=name)
        case "buy_back":
            return _("{name} buys back.").format(name=name)
        case "open":
            return _("{name} opens to {stake}.").format(name=name, stake=action.amount)
        case "call":
            return _("{name} calls.").format(name=name)
        case "raise":
            return _("{name} raises to {stake}.").format(name=name, stake=action.amount)
        case "all_in":
            return _("{name} goes va tout.").format(name=name)
        case "fold":
            return _("{name} folds.").format(name=name)
    return f"{name}: {action.kind}"  # an action no game of today's has: its machine word


def result_label(game: str, result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The hand's end in sentences (`names`: table-log name → display name), the engine's
    marked words in the reader's language."""
    clauses = driver(game).result_said(result, lambda name: names.get(name, name))
    return " ".join(_(words).format(**values) for words, values in clauses)


def hand_steps(
    header: Mapping[str, Any],
    players: Mapping[str, Any],
    seed_hex: str,
    actions: list[dict[str, Any]],
    context: ReplayContext,
    viewer: Viewer,
) -> list[dict[str, Any]]:
    """The hand replayed for one viewer: after the deal, after each action, at the end.
    Each step's `view` has the live table view's shape, so the felt draws it unchanged."""
    live = deal_stored(header, players, seed_hex)
    game = live.game
    dealt_in = live.dealt_in
    game_name = str(header["game"])
    played = driver(game_name)
    seat = viewer.seat if viewer.seat in dealt_in else None
    stacks = {n: int(s["stack"]) for n, s in enumerate(header["seats"])}
    away = set(players.get("sitting_out", []))

    def table_view(hand: dict[str, Any], after: bool) -> dict[str, Any]:
        return {
            "table": context.table,
            "seats": [
                {
                    "seat": n,
                    "name": name,
                    "username": username,
                    "stack": (context.stacks_after if after else stacks).get(n, 0),
                    "sitting_out": n in away,
                    "leaving": False,
                    "connected": False,
                }
                for n, (name, username) in sorted(context.seated.items())
            ],
            "you": {"seat": seat},
            "pot": int(context.result.get("carry", 0)) if after else int(header.get("pot", 0)),
            "hand": hand,
            "turn_ends_in": None,
            "next_hand_in": None,
            "last_result": context.result if after else None,
        }

    def hand_view() -> dict[str, Any]:
        engine = full_view(game, dealt_in) if viewer.full else game.view(seat)
        return {"number": context.number, "commitment": context.commitment, **engine}

    def name_of(n: int) -> str:
        return context.seated.get(n, (_("Seat {n}").format(n=n + 1), ""))[0]

    steps: list[dict[str, Any]] = [
        {
            "label": _("Hand {number} is dealt.").format(number=context.number),
            "kind": "deal",
            "trick": None,
            "round": None,
            "view": table_view(hand_view(), after=False),
        }
    ]
    for data in actions:
        action = action_from_log(data)
        public = game.view(None)
        trick = len(public.get("tricks", [])) + 1 if action.kind == "card" else None
        round_name = str(public["phase"]) if played.betting_rounds else None
        game.apply(action)
        steps.append(
            {
                "label": action_label(action, name_of(action.seat), viewer, str(public["phase"])),
                "kind": "action",
                "trick": trick,
                "round": round_name,
                "view": table_view(hand_view(), after=False),
            }
        )
    log_names = list(context.result.get("stacks", {}))
    display = {log_names[n]: name_of(n) for n in context.seated if n < len(log_names)}
    steps.append(
        {
            "label": result_label(game_name, context.result, display),
            "kind": "end",
            "trick": None,
            "round": None,
            "view": table_view(hand_view(), after=True),
        }
    )
    return steps
