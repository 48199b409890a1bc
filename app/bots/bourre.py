"""The ``club`` level of Bourré: how a sound club player decides, from the seat's view only.

Every estimate here is built from what the seat may see (DESIGN.md, bots use only the public
view): its own cards and discards, the turned card, cards played to tricks, cards discarded
face up, how many cards each seat holds, stacks, pot and statuses. Hidden cards are treated
as *unseen*: each is as likely as any other unseen card to sit in an opponent's hand.

The brain is a few hand-tuned estimates, not a search, so a decision takes well under a
millisecond:
- a card's chance of taking a trick (``_trick_chance``): a trump by how many live trumps
  outrank it, an off-suit card by the live cards above it and the risk of being trumped;
- play or pass (rules/bourre.md §4, §7) compares the pot won by taking most tricks with
  the pot paid for going bourré, from those chances and the players still in;
- the draw (§4) keeps trumps and off-suit cards worth more than a fresh card, and the
  dealer takes the turned card when the rules allow it (§3 ``dealer_may_take``);
- in the tricks (§5, §6) it wins cheaply when it can, ducks with its lowest card when it
  cannot, and leads its top trumps to pull the others.
The engine's ``legal_actions`` already enforce follow suit, must-beat, must-trump and the
cinch, so the brain only ever chooses among them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from app.bots.base import Decision, legal_choices
from app.engine.bourre.cinch import CINCH_TRICKS, live_trumps, sure_tricks
from app.engine.bourre.config import BourreRules
from app.engine.cards import (
    ACE,
    CARD_INDEX,
    CARD_NAMES,
    FULL_DECK_MASK,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    cards_in,
    mask_of,
)

__all__ = ["club_decision"]

# Chance that an opponent still to declare will play: a random player plays half the time,
# and club players at the bot bench played a little more often than that (57 %).
OPPONENT_PLAYS = 0.5
# What a fresh card from the stock is worth in tricks: a quarter of them are trumps and a
# few are side aces. The card odds alone suggest about 0.13; 0.2 played better at the bot
# bench (salon bench bots), one variant against the other.
DRAW_VALUE = 0.2
# A side card is kept at the draw only when it is likely enough to take a trick: a fresh
# card may be a trump, which is worth more than a side card that will likely be beaten.
KEEP_ABOVE = 0.4
# With this many trumps and no sure winner, lead a low trump to draw out the higher ones.
LEAD_LOW_TRUMP_WITH = 3
# Even a trump that live trumps outrank often takes a trick by trumping a side suit.
LOW_TRUMP_FLOOR = 0.25
# Chance per opponent that a side-suit lead is not trumped (they still hold that suit).
NOT_TRUMPED = 0.8
# A follower's winning card is good enough when it holds the trick this often.
SAFE_WIN = 0.75
# Below this, a winning card is not worth spending unless the seat still needs a trick.
WORTH_TRYING = 0.35
# Play only for an expected gain above this share of the pot: the estimates are rough.
PLAY_MARGIN = 0.05
WIN_CHANCE_CAP = 0.95
# Measured over club-against-club hands (with DRAW_VALUE at 0.13, before it was tuned): the
# estimates were a little hopeful (a predicted 0.15 of going bourré came out near 0.19, and
# predicted wins ran 5 % high).
BOURRE_CALIBRATION = 1.3
WIN_CALIBRATION = 0.93

_RANK_WORDS = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six")
_RULES_CACHE: dict[tuple[tuple[str, Any], ...], BourreRules] = {}


def _rules(stored: Mapping[str, Any]) -> BourreRules:
    """The table's house rules; parsed once per distinct rules dict (decisions stay cheap)."""
    key = tuple(sorted(stored.items()))
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = _RULES_CACHE[key] = BourreRules.from_dict(stored)
    return rules


def _card_words(card: int) -> str:
    return f"the {_RANK_WORDS[card % 13]} of {SUIT_NAMES[card // 13]}"


def _count(n: int) -> str:
    return _COUNT_WORDS[n] if 0 <= n < len(_COUNT_WORDS) else str(n)


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the seat knows, as card masks and counts (all from the view)."""

    seat: int
    rules: BourreRules
    trump: int  # suit number
    mine: int  # cards in hand
    played: int  # cards played to tricks (finished and current)
    unseen: int  # cards that may be in another hand, the stock or the folded hands
    known_out: int  # out of play as far as this seat knows (for the cinch count)
    pot: int
    won: int  # tricks this seat has taken
    tricks_left: int
    others_playing: int  # other seats who declared play
    others_undecided: int  # other seats still to declare (or whose commitment is secret)

    @property
    def trump_mask(self) -> int:
        return SUIT_MASKS[self.trump]

    @property
    def trumps(self) -> int:
        return self.mine & self.trump_mask


def _seen(view: Mapping[str, Any]) -> _Seen:
    hand = view["hand"]
    seat = int(view["you"]["seat"])
    rules = _rules(view["table"].get("rules") or {})
    mine = mask_of(CARD_INDEX[c] for c in hand.get("hand", ()))
    played = mask_of(CARD_INDEX[c["card"]] for t in hand.get("tricks", ()) for c in t["cards"])
    played |= mask_of(CARD_INDEX[c["card"]] for c in hand.get("trick", ()))
    # §6: a dead turned card, a turned card discarded face up and one's own discards are
    # known to be out of play (own discards may come back after a reshuffle: a small risk).
    face_up = mask_of(CARD_INDEX[c] for c in hand.get("face_up_discards", ()))
    own_discards = mask_of(CARD_INDEX[c] for c in hand.get("my_discards", ()))
    turned = CARD_INDEX[hand["turned_card"]]
    dead = (1 << turned) if hand.get("turned_card_dead") else 0
    known_out = face_up | own_discards | dead
    unseen = FULL_DECK_MASK & ~mine & ~played & ~known_out
    others_playing = others_undecided = 0
    won = 0
    for other in hand.get("seats", ()):
        if other["seat"] == seat:
            won = int(other.get("tricks", 0))
            continue
        status = other.get("status")
        if status == "playing":
            others_playing += 1
        elif status in ("to_declare", "deciding", "committed"):
            others_undecided += 1
    return _Seen(
        seat=seat,
        rules=rules,
        trump=SUITS.index(hand["trump"]),
        mine=mine,
        played=played,
        unseen=unseen,
        known_out=known_out,
        pot=int(hand.get("pot", 0)),
        won=won,
        tricks_left=int(hand.get("hand_size", rules.hand_size)) - len(hand.get("tricks", ())),
        others_playing=others_playing,
        others_undecided=others_undecided,
    )


def _held_share(seen: _Seen, opponents: float, drawing: bool) -> float:
    """Chance that one given unseen card is in the hand of an opponent still in."""
    unseen = seen.unseen.bit_count()
    if unseen == 0:
        return 0.0
    cards = opponents * seen.rules.hand_size
    if drawing:
        cards *= 1.3  # opponents exchange cards too: more of the unseen pass through them
    return min(0.95, cards / unseen)


def _trick_chance(card: int, seen: _Seen, opponents: float, share: float) -> float:
    """Rough chance that ``card`` takes a trick (rules/bourre.md §5: trumps win, then the
    highest card of the suit led)."""
    suit = card // 13
    higher = (seen.unseen >> (card + 1)) & (SUIT_MASKS[suit] >> (card + 1))
    clear = (1.0 - share) ** higher.bit_count()  # no opponent holds a card above it
    if suit == seen.trump:
        return clear + (1.0 - clear) * LOW_TRUMP_FLOOR
    chance: float = clear * NOT_TRUMPED ** max(1.0, opponents)
    return chance if card % 13 == ACE or not higher else chance * 0.8


def _sure(seen: _Seen) -> int:
    """Tricks certain to be won with the trumps in hand (the §6 count, as this seat knows)."""
    live = live_trumps(seen.trump_mask, seen.mine, seen.played, seen.known_out)
    return sure_tricks(seen.trumps, live)


def _win_chance(expected: float, opponents: float, tricks: int) -> float:
    """Chance to take most tricks from the expected tricks: the fair share (one in
    ``opponents + 1``) scaled by the square of how far above a fair share the hand is."""
    fair_tricks = tricks / (opponents + 1.0)
    ratio = expected / fair_tricks if fair_tricks else 1.0
    return max(0.0, min(WIN_CHANCE_CAP, ratio * ratio / (opponents + 1.0)))


@dataclass(frozen=True, slots=True)
class _Outlook:
    expected: float  # tricks, with those already won
    win: float
    bourre: float
    sure: int


def _outlook(seen: _Seen, opponents: float, keep: int, draws: int, drawing: bool) -> _Outlook:
    """Expected tricks, the chance to win the pot and to go bourré with ``keep`` in hand and
    ``draws`` fresh cards still to come."""
    share = _held_share(seen, opponents, drawing)
    expected = float(seen.won) + draws * DRAW_VALUE
    nothing = (1.0 - DRAW_VALUE) ** draws
    rest = keep
    while rest:
        low = rest & -rest
        chance = _trick_chance(low.bit_length() - 1, seen, opponents, share)
        expected += chance
        nothing *= 1.0 - chance
        rest ^= low
    sure = _sure(seen)  # trumps are never exchanged, so the sure tricks stay
    if seen.won or sure:
        nothing = 0.0
    if seen.won + sure >= CINCH_TRICKS:
        return _Outlook(expected, 1.0, 0.0, sure)
    win = _win_chance(expected, opponents, seen.rules.hand_size)
    return _Outlook(expected, win * WIN_CALIBRATION, min(1.0, nothing * BOURRE_CALIBRATION), sure)


# ---------------------------------------------------------------- the draw (§3, §4)


def _draw_plan(seen: _Seen, cap: int, opponents: float) -> tuple[int, list[int]]:
    """The cards to keep and, lowest value first, the side cards not likely enough to take
    a trick (``KEEP_ABOVE``), at most ``cap`` of them."""
    share = _held_share(seen, opponents, True)
    values = []
    rest = seen.mine
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        values.append((_trick_chance(card, seen, opponents, share), card))
        rest ^= low
    values.sort()
    # Trumps are never thrown: even a low one may trump a side suit and save a bourré.
    weak = [c for v, c in values if v < KEEP_ABOVE and c // 13 != seen.trump][:cap]
    keep = seen.mine & ~mask_of(weak)
    return keep, weak


def _draw(
    seen: _Seen, legal: Sequence[Mapping[str, Any]], view_hand: Mapping[str, Any]
) -> Decision:
    """§4 draw: keep trumps and strong side cards, exchange the rest (within the legal
    counts); §3 ``dealer_may_take``: take the turned trump when offered."""
    opponents = max(1.0, float(seen.others_playing + OPPONENT_PLAYS * seen.others_undecided))
    if any(a["action"] == "take_trump" for a in legal):
        turned = CARD_INDEX[view_hand["turned_card"]]
        return Decision(
            {"action": "take_trump"},
            f"Take the turned card: {_card_words(turned)} is a trump, worth more than "
            "any card you would throw for it.",
        )
    sizes = [len(a.get("cards", ())) for a in legal if a["action"] == "discard"]
    fewest, most = min(sizes), max(sizes)
    _, weak = _draw_plan(seen, most, opponents)
    if len(weak) < fewest:
        # Holding the turned card, one card must go: the weakest (trumps last).
        share = _held_share(seen, opponents, True)
        ranked = sorted(
            cards_in(seen.mine),
            key=lambda c: (c // 13 == seen.trump, _trick_chance(c, seen, opponents, share)),
        )
        weak = [c for c in ranked if c not in weak][: fewest - len(weak)] + weak
    wanted = {CARD_NAMES[c] for c in weak}
    for action in legal:
        if action["action"] == "discard" and set(action.get("cards", ())) == wanted:
            kept = seen.mine & ~mask_of(weak)
            return Decision(
                {"action": "discard", "cards": list(action["cards"])},
                _draw_reason(seen, kept, weak),
            )
    # Not reachable with the engine's choices (every subset within the counts is offered),
    # but stay legal whatever: keep everything, or the fewest cards allowed.
    fallback = next(a for a in legal if a["action"] == "discard" and len(a["cards"]) == fewest)
    return Decision(
        {"action": "discard", "cards": list(fallback["cards"])},
        "Exchange as few cards as the rules allow: your hand is worth keeping.",
    )


def _draw_reason(seen: _Seen, kept: int, weak: list[int]) -> str:
    if not weak:
        return "Keep all your cards: each is a trump or a side card strong enough to win a trick."
    count = f"{_count(len(weak))} card{'s' if len(weak) != 1 else ''}"
    trumps = (kept & seen.trump_mask).bit_count()
    parts = [f"your {_count(trumps)} trumps" if trumps > 1 else "your trump"] if trumps else []
    parts += [_card_words(card) for card in reversed(cards_in(kept & ~seen.trump_mask))]
    if not parts:
        return f"Exchange {count}: nothing you hold is likely to take a trick."
    kept_words = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return f"Exchange {count}: keep {kept_words}, and draw for more trumps."


# ---------------------------------------------------------------- play or pass (§4, §7)


def _declare(seen: _Seen, legal: Sequence[Mapping[str, Any]], second: bool) -> Decision:
    """Play when the pot's expected gain beats the bourré risk (§4, §7).

    Passing costs nothing more. Playing wins the pot (capped by ``pot_limit``) with the
    chance to take most tricks, and pays the same sum with the chance to take no trick; a
    second ante (``double_ante``, or the ``second_chance`` round) is paid at once.
    """
    kinds = {a["action"] for a in legal}
    if kinds == {"play"}:
        return Decision(
            {"action": "play"},
            "Play: the house rules do not let you pass this hand (the ace of trumps was "
            "turned to you).",
        )
    if kinds == {"pass"}:
        why = (
            "your stack cannot cover a possible bourré"
            if second
            else "your stack cannot cover a possible bourré, or you hold no trump and no club"
        )
        return Decision({"action": "pass"}, f"Pass: you may not play this hand ({why}).")
    rules = seen.rules
    undecided = seen.others_undecided
    expected_others = seen.others_playing + OPPONENT_PLAYS * undecided
    extra_ante = rules.ante if (second or rules.double_ante) else 0
    final_pot = seen.pot + round(extra_ante * (1 + expected_others))
    at_stake = final_pot if rules.pot_limit is None else min(final_pot, rules.pot_limit)
    opponents = max(1.0, expected_others)
    if second:
        keep, draws = seen.mine, 0
    else:
        keep, weak = _draw_plan(seen, rules.discard_cap, opponents)
        draws = len(weak)
    # Average over how many of the undecided will play (each with OPPONENT_PLAYS): nobody
    # else playing means the pot without a trick played (§4); more players, more risk.
    gain = -float(extra_ante)
    bourre = 0.0
    contested = 0.0
    outlook = _outlook(seen, opponents, keep, draws, not second)
    for joining in range(undecided + 1):
        weight = (
            comb(undecided, joining)
            * OPPONENT_PLAYS**joining
            * (1.0 - OPPONENT_PLAYS) ** (undecided - joining)
        )
        field = seen.others_playing + joining
        if field == 0:
            gain += weight * at_stake
            continue
        odds = _outlook(seen, float(field), keep, draws, not second)
        gain += weight * (odds.win - odds.bourre) * at_stake
        bourre += weight * odds.bourre
        contested += weight
    if contested:
        outlook = _Outlook(outlook.expected, outlook.win, bourre / contested, outlook.sure)
    play = gain > PLAY_MARGIN * at_stake
    reason = _declare_reason(seen, outlook, opponents, at_stake, play)
    return Decision({"action": "play" if play else "pass"}, reason)


def _declare_reason(
    seen: _Seen, outlook: _Outlook, opponents: float, at_stake: int, play: bool
) -> str:
    trumps = cards_in(seen.trumps)
    if trumps:
        top = _card_words(max(trumps)).removeprefix("the ")
        held = (
            f"you hold {_count(len(trumps))} trump{'s' if len(trumps) > 1 else ''}"
            f"{' including the ' if len(trumps) > 1 else ', the '}{top}"
        )
    else:
        held = "you hold no trump"
    field = round(opponents)
    against = f"{_count(field)} other player{'s' if field != 1 else ''}"
    if outlook.sure + seen.won >= CINCH_TRICKS:
        return f"Play: {held}, enough for three sure tricks and the pot of {at_stake}."
    if play:
        return (
            f"Play: {held}, and against about {against} the pot of {at_stake} is worth "
            f"the risk of going bourré (about {outlook.bourre:.0%})."
        )
    return (
        f"Pass: {held}, and against about {against} the chance of going bourré "
        f"(about {outlook.bourre:.0%}) outweighs the pot of {at_stake}."
    )


# ---------------------------------------------------------------- the tricks (§5, §6)


def _play_card(
    seen: _Seen, legal: Sequence[Mapping[str, Any]], hand: Mapping[str, Any]
) -> Decision:
    cards = sorted(CARD_INDEX[a["card"]] for a in legal if a["action"] == "card")
    if len(cards) == 1:
        only = cards[0]
        return Decision(
            {"action": "card", "card": CARD_NAMES[only]},
            f"Play {_card_words(only)}: it is the only card the rules allow here.",
        )
    trick = [(int(c["seat"]), CARD_INDEX[c["card"]]) for c in hand.get("trick", ())]
    if not trick:
        return _lead(seen, cards)
    return _follow(seen, cards, trick, hand)


def _strength(card: int, trump: int) -> tuple[bool, int]:
    """Orders cards from the cheapest to give away: side cards by rank, then trumps."""
    return (card // 13 == trump, card % 13)


def _lead(seen: _Seen, cards: list[int]) -> Decision:
    """§5 lead: the top trump pulls the others' trumps and is a sure trick; a side ace
    should be cashed before opponents run out of its suit; otherwise give the lead away
    with the cheapest card."""
    trump = seen.trump
    unseen = seen.unseen
    trumps = [c for c in cards if c // 13 == trump]
    if trumps:
        top = max(trumps)
        if not (unseen & SUIT_MASKS[trump]) >> (top + 1):
            return Decision(
                {"action": "card", "card": CARD_NAMES[top]},
                f"Lead {_card_words(top)}: no live trump beats it, so it takes the trick "
                "and pulls the others' trumps.",
            )
    side_bosses = [
        c for c in cards if c // 13 != trump and not (unseen & SUIT_MASKS[c // 13]) >> (c + 1)
    ]
    if side_bosses:
        boss = max(side_bosses, key=lambda c: c % 13)
        return Decision(
            {"action": "card", "card": CARD_NAMES[boss]},
            f"Lead {_card_words(boss)}: it is the best card left in its suit, so cash it "
            "before someone can trump it.",
        )
    if len(trumps) >= LEAD_LOW_TRUMP_WITH:
        low = min(trumps)
        return Decision(
            {"action": "card", "card": CARD_NAMES[low]},
            f"Lead {_card_words(low)}: with {_count(len(trumps))} trumps, a low one draws "
            "out the higher trumps and promotes yours.",
        )
    cheapest = min(cards, key=lambda c: _strength(c, trump))
    return Decision(
        {"action": "card", "card": CARD_NAMES[cheapest]},
        f"Lead {_card_words(cheapest)}: nothing you hold is sure to win, so give the lead "
        "away with your cheapest card.",
    )


def _follow(
    seen: _Seen, cards: list[int], trick: list[tuple[int, int]], hand: Mapping[str, Any]
) -> Decision:
    """§5 follow: take the trick with the cheapest card that holds it; if nothing can
    win (or only at long odds when a trick is not needed), duck with the lowest card."""
    trump = seen.trump
    led = trick[0][1] // 13
    top_trump = max((c for _, c in trick if c // 13 == trump), default=-1)
    top_led = max(c for _, c in trick if c // 13 == led)

    def beats(card: int) -> bool:
        if card // 13 == trump:
            return card > top_trump
        return top_trump < 0 and card // 13 == led and card > top_led

    winners = [c for c in cards if beats(c)]
    in_play = seen.others_playing + 1
    later = in_play - len(trick) - 1
    if winners:
        if later == 0:
            cheapest = min(winners, key=lambda c: _strength(c, trump))
            return Decision(
                {"action": "card", "card": CARD_NAMES[cheapest]},
                f"Take the trick with {_card_words(cheapest)}: you play last, so the "
                "cheapest winning card is enough.",
            )
        later_cards = sum(
            int(s.get("cards", 0))
            for s in hand.get("seats", ())
            if s.get("status") == "playing"
            and s["seat"] != seen.seat
            and s["seat"] not in {p for p, _ in trick}
        )
        unseen = seen.unseen.bit_count()
        share = min(0.95, later_cards / unseen) if unseen else 0.0
        held = [(c, _holds(c, seen, share, later)) for c in winners]
        held.sort(key=lambda pair: _strength(pair[0], trump))
        for card, chance in held:
            if chance >= SAFE_WIN:
                return Decision(
                    {"action": "card", "card": CARD_NAMES[card]},
                    f"Take the trick with {_card_words(card)}: it is the cheapest card "
                    "that the players after you are unlikely to beat.",
                )
        best, chance = max(held, key=lambda pair: (pair[1], -(pair[0] % 13)))
        if chance >= WORTH_TRYING or seen.won == 0:
            why = (
                "you still need a trick, and it wins unless someone after you beats it"
                if seen.won == 0
                else "it wins the trick unless someone after you beats it"
            )
            return Decision(
                {"action": "card", "card": CARD_NAMES[best]}, f"Try {_card_words(best)}: {why}."
            )
    cheapest = min(cards, key=lambda c: _strength(c, trump))
    why = (
        "your winning cards would likely be beaten, so keep them"
        if winners
        else "none of your cards can win this trick"
    )
    return Decision(
        {"action": "card", "card": CARD_NAMES[cheapest]},
        f"Duck with {_card_words(cheapest)}: {why}.",
    )


def _holds(card: int, seen: _Seen, share: float, later: int) -> float:
    """Chance that ``card``, winning the trick now, is not beaten by the players after."""
    suit = card // 13
    higher = ((seen.unseen & SUIT_MASKS[suit]) >> (card + 1)).bit_count()
    chance = (1.0 - share) ** higher
    if suit != seen.trump:
        live = (seen.unseen & SUIT_MASKS[seen.trump]).bit_count()
        if live:
            chance *= NOT_TRUMPED**later  # a later player out of the suit may trump it
    return chance


# ---------------------------------------------------------------- the brain


def club_decision(view: Mapping[str, Any], rng: random.Random) -> Decision:
    """The ``club`` brain for Bourré: one of the view's legal actions and why.

    Deterministic: the same view gives the same decision (``rng`` is not needed).
    """
    legal = legal_choices(view)
    hand = view["hand"]
    seen = _seen(view)
    kinds = {a["action"] for a in legal}
    if "card" in kinds:
        return _play_card(seen, legal, hand)
    if kinds & {"discard", "take_trump"}:
        return _draw(seen, legal, hand)
    return _declare(seen, legal, second=hand.get("phase") == "second_chance")
