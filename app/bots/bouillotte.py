"""The ``club`` level of Bouillotte: a sound player who straddles, opens, raises and folds on
the chance of winning the showdown against the pot odds.

It decides only from its seat's view (app/bots/base.py). The chance to win is a quick
Monte-Carlo estimate: the cards it cannot see (the hand's pack, rules/bouillotte.md §1, less
its own three and the upcard) are dealt at random to every other player dealt in, folded
players too, because every hand shown counts in the suit totals (§6, §8 "Showdown"); the
winner among the players still in is then found with the engine's own ranking: brelan carré,
brelan and mistigri when the rules have them (§6), else the suit with the most points and its
owner, ties going to the first owner in the order (§8). Only the unseen cards are ever dealt,
never the real ones, which the view does not hold.

Against that chance it weighs the price of staying in: a call needs a chance of at least
``to_call / (pot + to_call)``, a little more for the raises still to come, and for a call
that takes the whole cave only the main pot it can win counts (§5). A strong hand opens or
raises for value, sized on the pot; a weak one passes when passing is free (§5) and folds
when it is not. It never folds a free call or a free decline. Straddles (§3) are blind,
before the deal, so they are taken only now and then, only when the pot is small against
its cave and never by the dealer, who speaks last without one; buy-backs more rarely still.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.bots.base import Decision, legal_choices
from app.engine.bouillotte.config import BouillotteRules
from app.engine.bouillotte.deck import PACKS
from app.engine.bouillotte.ranking import (
    BRELAN,
    CARRE,
    MISTIGRI,
    POINTS,
    QUEEN_OF_CLUBS,
    card_points,
    classify,
    points_winner,
    suit_groups,
    suit_totals,
)
from app.engine.cards import RANKS, SUIT_NAMES, SUIT_SINGULAR, parse_card

__all__ = ["SAMPLES", "club_decision", "win_chance"]

SAMPLES = 200
"""Deals sampled per estimate: a chance within a few points, in a millisecond or two."""

CALL_MARGIN = 0.04
"""Extra chance demanded above the pot odds before calling: later raises by the players
still to speak can make a call cost more than its price now."""

VALUE_AT = 0.55
VALUE_OVER_FAIR = 1.6
"""A hand bets for value (opens big, raises) when its chance is at least ``VALUE_AT`` and
``VALUE_OVER_FAIR`` times a fair share (one in the number of players still in)."""

OPEN_AT = 0.4
OPEN_OVER_FAIR = 1.25
"""A hand short of that but at least this good opens at the minimum."""

STRADDLE_CHANCE = 0.2
"""How often a blind straddle is taken when it is cheap (§3): a straddle is a bet on cards
not yet seen, worth taking only for the last word it buys and the bigger pot."""

BUY_BACK_CHANCE = 0.1

_RANK_WORDS = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "9": "nines", "8": "eights"}
_CARD_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "9": "nine", "8": "eight"}


@dataclass(frozen=True, slots=True)
class _Table:
    """What the brain reads of the view, in card numbers and seat numbers."""

    rules: BouillotteRules
    seat: int
    phase: str
    own: int  # a mask of the seat's three cards (0 before the deal)
    upcard: int  # -1 before the deal
    order: tuple[int, ...]  # the players dealt in, dealer last (§8)
    contenders: tuple[int, ...]  # those still in (all in included), in the order
    seats: int
    pot: int
    winnable: int  # the chips a call would play for, the call included (§5 side pots)
    to_call: int
    stake: int
    stack: int
    highest: int


def _read(view: Mapping[str, Any]) -> _Table:
    hand = view["hand"]
    seat = int(view["you"]["seat"])
    rules = BouillotteRules.from_dict(dict(view["table"].get("rules") or {}))
    seats = hand["seats"]
    own = 0
    for name in hand.get("hand") or ():
        own |= 1 << parse_card(name)
    upcard = parse_card(hand["upcard"]) if hand.get("upcard") else -1
    order = tuple(int(s) for s in hand["order"])
    still_in = {int(s["seat"]) for s in seats if s["status"] in ("in", "all_in")}
    mine = next(s for s in seats if int(s["seat"]) == seat)
    to_call = int(hand.get("to_call") or 0)
    # §5, §8 "Pots": a call that takes the whole cave plays only for the main pot, which
    # holds from every player at most what this seat will have put in, and the dead money.
    reach = int(mine["stake"]) + to_call
    winnable = int(hand.get("dead_money") or 0) + sum(
        min(int(s["stake"]), reach) for s in seats if int(s["seat"]) != seat
    )
    return _Table(
        rules=rules,
        seat=seat,
        phase=str(hand["phase"]),
        own=own,
        upcard=upcard,
        order=order,
        contenders=tuple(s for s in order if s in still_in),
        seats=len(seats),
        pot=int(hand["pot"]),
        winnable=winnable + reach,
        to_call=to_call,
        stake=int(mine["stake"]),
        stack=int(mine["stack"]),
        highest=int(hand["highest_stake"]),
    )


_PERMUTATIONS = 1024
"""Orders of the unseen cards kept per pack size: a sample is one of them, from a random
start, so a decision draws two random numbers rather than a dozen per sample."""

_ORDERS: dict[int, list[tuple[int, ...]]] = {}


def _orders(size: int) -> list[tuple[int, ...]]:
    """Fixed random permutations of ``range(size)``, made once (the same in every process,
    so a decision depends only on the view and the caller's random source)."""
    orders = _ORDERS.get(size)
    if orders is None:
        maker = random.Random(size)
        orders = []
        for _ in range(_PERMUTATIONS):
            order = list(range(size))
            maker.shuffle(order)
            orders.append(tuple(order))
        _ORDERS[size] = orders
    return orders


def win_chance(
    own: int,
    upcard: int,
    seat: int,
    order: Sequence[int],
    contenders: Sequence[int],
    seats: int,
    rules: BouillotteRules,
    rng: random.Random,
    samples: int = SAMPLES,
) -> float:
    """The share of random deals of the unseen cards in which ``seat`` wins the main pot
    (§6, §8 "Showdown"): brelans first when the rules count them, else points."""
    rivals = [s for s in contenders if s != seat]
    if not rivals:
        return 1.0
    others = [s for s in order if s != seat]
    known = own | 1 << upcard
    unseen = [c for c in PACKS[len(order)] if not known >> c & 1]
    brelans = rules.brelans
    mistigri = rules.mistigri
    up_rank = upcard % 13
    mine = classify(own, upcard, brelans, mistigri)
    hands = [0] * seats
    hands[seat] = own
    orders = _orders(len(unseen))
    start = rng.randrange(_PERMUTATIONS)
    # An odd stride visits every permutation once before repeating.
    stride = 2 * rng.randrange(_PERMUTATIONS // 2) + 1
    seats_of = [(other, 3 * i) for i, other in enumerate(others)]
    is_rival = [False] * seats
    for rival in rivals:
        is_rival[rival] = True
    wins = 0
    for k in range(samples):
        perm = orders[(start + k * stride) % _PERMUTATIONS]
        table = known
        best = mine  # the best brelan-like category seen, and who holds it
        holder = seat if mine[0] != POINTS else -1
        for other, at in seats_of:
            a, b, c = unseen[perm[at]], unseen[perm[at + 1]], unseen[perm[at + 2]]
            mask = 1 << a | 1 << b | 1 << c
            hands[other] = mask
            table |= mask
            if brelans and is_rival[other]:
                rank = a % 13
                if rank == b % 13 == c % 13:
                    category = (CARRE if rank == up_rank else BRELAN, rank)
                elif mistigri and mask >> QUEEN_OF_CLUBS & 1:
                    category = classify(mask, upcard, True, True)
                else:
                    continue
                if category > best:
                    best, holder = category, other
        if holder >= 0:
            wins += holder == seat
        else:
            wins += points_winner(suit_groups(suit_totals(table)), contenders, hands)[0] == seat
    return wins / samples


def _players(count: int) -> str:
    return "one other player" if count == 1 else f"{count} other players"


def _how_often(chance: float) -> str:
    percent = round(100 * chance)
    if percent < 1:
        return "almost never"
    if percent > 99:
        return "almost always"
    return f"about {percent}% of the time"


def _hand_words(table: _Table) -> str:
    """The seat's hand as a player would name it: its brelan, else its best suit (§6)."""
    rules = table.rules
    category, rank = classify(table.own, table.upcard, rules.brelans, rules.mistigri)
    if category == CARRE:
        return f"a brelan carré of {_RANK_WORDS[RANKS[rank]]} with the upcard"
    if category == BRELAN:
        return f"a brelan of {_RANK_WORDS[RANKS[rank]]}"
    if category == MISTIGRI:
        return f"a brelan de mistigri with the {_RANK_WORDS[RANKS[rank]]}"
    # The suit with the most of the points it can see (its cards and the upcard).
    cards = [c for c in range(52) if table.own >> c & 1]
    seen = suit_totals(table.own | 1 << table.upcard)
    suit = max({c // 13 for c in cards}, key=lambda s: (seen[s], s == table.upcard // 13))
    held = sorted((c for c in cards if c // 13 == suit), key=card_points, reverse=True)
    names = [_CARD_WORDS[RANKS[c % 13]] for c in held]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    words = f"the {listed} of {SUIT_NAMES[suit]}"
    if table.upcard // 13 == suit:
        words += f" with the upcard's {SUIT_SINGULAR[suit]}"
    return words


def _pick(legal: list[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    for choice in legal:
        if choice["action"] == kind:
            return choice
    return None


def _bet(choice: dict[str, Any], total: int) -> dict[str, Any]:
    """An open or raise of ``total``, kept within the offered range."""
    return {"action": choice["action"], "amount": max(choice["min"], min(total, choice["max"]))}


def _value_total(table: _Table, chance: float, low: int) -> int:
    """The total stake a value bet aims at: the larger the chance, the more of the pot on
    top of the call, up to the whole cave for a near-certain winner. Random opponents call
    whatever the size, so a strong hand is paid most by a big bet."""
    base = table.pot + table.to_call
    if chance >= 0.85:
        return table.stake + table.stack  # the whole cave
    factor = 2.0 if chance >= 0.7 else 1.0 if chance >= 0.55 else 0.5
    return max(low, table.highest + round(factor * base))


def _straddle(table: _Table, legal: list[dict[str, Any]], rng: random.Random) -> Decision:
    """§3: a straddle is blind and doubles the pot; the last straddler speaks last. Taken
    now and then, only when the pot is small against the cave."""
    if table.phase == "buy_back":
        cheap = table.pot * 10 <= table.stack
        if cheap and _pick(legal, "buy_back") and rng.random() < BUY_BACK_CHANCE:
            return Decision(
                {"action": "buy_back"},
                f"Buy back: the pot of {table.pot} is small against your {table.stack} chips, "
                "and speaking last is worth it.",
            )
        return Decision(
            {"action": "decline"},
            f"Decline: doubling the pot of {table.pot} again on cards you have not seen "
            "costs more than the last word is worth.",
        )
    # The last word is worth most to the first in the order, who would otherwise speak
    # first; the dealer speaks last anyway, so a straddle buys him nothing but a bigger pot.
    behind = len(table.order) - 1 - table.order.index(table.seat)
    cheap = table.pot * 8 <= table.stack
    if behind and cheap and _pick(legal, "straddle") and rng.random() < STRADDLE_CHANCE:
        return Decision(
            {"action": "straddle"},
            f"Straddle: the pot of {table.pot} is small against your {table.stack} chips, "
            "and the last straddler speaks last in the first round.",
        )
    if not behind:
        return Decision(
            {"action": "decline"},
            "Decline: as the dealer you speak last already, so a straddle would buy you "
            "nothing but a bigger pot on cards you have not seen.",
        )
    return Decision(
        {"action": "decline"},
        f"Decline: a straddle puts {table.pot} chips on cards you have not seen yet.",
    )


def club_decision(view: Mapping[str, Any], rng: random.Random) -> Decision:
    """A sound club player's decision from a seat's view (rules/bouillotte.md §3 to §8)."""
    legal = legal_choices(view)
    decision = _decide(_read(view), legal, rng)
    if _is_offered(decision.action, legal):
        return decision
    return _safest(legal)


def _is_offered(action: Mapping[str, Any], legal: list[dict[str, Any]]) -> bool:
    choice = _pick(legal, action["action"])
    if choice is None:
        return False
    if "min" in choice:
        return bool(choice["min"] <= action.get("amount", -1) <= choice["max"])
    return "amount" not in action


def _safest(legal: list[dict[str, Any]]) -> Decision:
    """The cheapest offered action, for a view whose offer the reasoning above did not
    foresee (the engine offers none today): never a chip more than needed."""
    for kind in ("pass", "decline", "call", "fold"):
        if _pick(legal, kind):
            return Decision({"action": kind}, f"{kind.capitalize()}: it costs the least.")
    choice = legal[0]
    if "min" in choice:
        return Decision(
            {"action": choice["action"], "amount": choice["min"]},
            f"{choice['action'].capitalize()} at {choice['min']}: it costs the least.",
        )
    return Decision({"action": choice["action"]}, "It is the only move left.")


def _decide(table: _Table, legal: list[dict[str, Any]], rng: random.Random) -> Decision:
    """Straddles by the pot against the cave (§3); bets by the chance to win (§5, §6)."""
    if table.phase in ("straddle", "buy_back"):
        return _straddle(table, legal, rng)
    rivals = len(table.contenders) - 1
    chance = win_chance(
        table.own,
        table.upcard,
        table.seat,
        table.order,
        table.contenders,
        table.seats,
        table.rules,
        rng,
    )
    fair = 1 / (rivals + 1)  # the chance of a hand like any other
    strong = chance >= max(VALUE_AT, VALUE_OVER_FAIR * fair)
    worth_opening = chance >= max(OPEN_AT, OPEN_OVER_FAIR * fair)
    hand = _hand_words(table)
    odds = f"your hand wins {_how_often(chance)} against {_players(rivals)}"

    if table.phase == "opening":
        opening = _pick(legal, "open")
        if opening is not None and (strong or worth_opening):
            total = _value_total(table, chance, opening["min"]) if strong else opening["min"]
            action = _bet(opening, total)
            return Decision(
                action,
                f"Open at {action['amount']}: you hold {hand}, and {odds}.",
            )
        return Decision(
            {"action": "pass"},
            f"Pass: you hold {hand}, and {odds}, too seldom to open while passing is free.",
        )

    raising = _pick(legal, "raise")
    if strong and raising is not None:
        action = _bet(raising, _value_total(table, chance, raising["min"]))
        return Decision(
            action,
            f"Raise to {action['amount']}: you hold {hand}, and {odds}.",
        )
    free = "decline" if _pick(legal, "decline") else "call"
    if table.to_call == 0:
        return Decision(
            {"action": free},
            f"{free.capitalize()}: staying in costs nothing, and you hold {hand}.",
        )
    # The pot odds, and a little more for the raises still to come.
    needed = table.to_call / table.winnable + CALL_MARGIN
    percent = round(100 * needed)
    at_stake = table.winnable - table.to_call
    into = (
        f"the pot of {at_stake}"
        if at_stake == table.pot
        else f"the main pot of {at_stake} (all you can win)"
    )
    if chance >= needed and _pick(legal, "call"):
        return Decision(
            {"action": "call"},
            f"Call {table.to_call}: you hold {hand}, and {odds}, at least the {percent}% "
            f"a call into {into} needs.",
        )
    return Decision(
        {"action": "fold"},
        f"Fold: you hold {hand}, and {odds}, less than the {percent}% a call "
        f"of {table.to_call} into {into} needs.",
    )
