"""Which cards a player may play to a trick, and why another card is refused.

Implements rules/bourre.md §5 (follow suit, must_beat, trump and over-trump, must_trump,
allow_throw_off) with the cinch obligations of §6 layered on top. ``legal_cards`` is the hot
path: plain ints in, a mask and a reason code out. ``refusal`` turns a reason code into the
typed error a player reads; it mentions only the player's own cards and public cards.
"""

from __future__ import annotations

from typing import Any

from app.engine.base import EngineError
from app.engine.cards import ABOVE, CARD_NAMES, SUIT_MASKS, SUIT_NAMES, SUIT_SINGULAR, names_in

# Why the legal set is what it is (one code per rule of §5/§6).
ANY = 0
FOLLOW = 1
BEAT = 2
TRUMP = 3
OVERTRUMP = 4
CINCH_LEAD = 5
CINCH_TRUMP = 6
CINCH_WIN = 7

NO_CINCH = -1
"""Value of ``cinch_top`` when the player does not hold a cinch (or the rule is off)."""


def legal_cards(
    hand: int,
    trump: int,
    led: int,
    top_led: int,
    top_trump: int,
    last: bool,
    must_beat: bool,
    trump_always: bool,
    throw_off: bool,
    cinch_top: int,
) -> tuple[int, int]:
    """The mask of legal cards and the code of the rule that decided it.

    ``led`` is the suit led (-1 when leading), ``top_led``/``top_trump`` the highest card of
    the led suit / of trumps in the trick (-1 if none), ``last`` whether this player is the
    last to play to the trick. ``cinch_top`` is ``NO_CINCH`` or, when the player holds a
    cinch, the mask of their highest trump and its equivalents (0 if they hold no trump).
    """
    if led < 0:
        # §5: the leader may lead anything; §6: with a cinch, lead the highest trump.
        if cinch_top > 0:
            return cinch_top, CINCH_LEAD
        return hand, ANY
    follow = hand & SUIT_MASKS[led]
    if follow:
        # §5.1: follow suit; beat the highest card of the led suit unless a non-trump lead
        # has already been trumped (then following cannot win, any card of the suit will do).
        if led == trump or top_trump < 0:
            higher = follow & ABOVE[top_led]
            if higher:
                if must_beat:
                    return higher, BEAT
                if cinch_top >= 0 and last:
                    return higher, CINCH_WIN  # §6: last to play with a cinch must win
        return follow, FOLLOW
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand, ANY  # §5.3: neither the led suit nor a trump
    if cinch_top >= 0 and not last:
        return cinch_top, CINCH_TRUMP  # §6: cannot follow with a cinch: highest trump
    higher = trumps & ABOVE[top_trump] if top_trump >= 0 else trumps
    if cinch_top >= 0 and higher:
        return higher, CINCH_WIN  # §6: last to play, must win even if throw-off is allowed
    if throw_off:
        return hand, ANY  # §5 allow_throw_off
    if higher:
        return higher, (OVERTRUMP if top_trump >= 0 else TRUMP)  # §5.2
    if trump_always:
        return trumps, TRUMP  # §5.2 must_trump: always
    return hand, ANY  # §5.2 must_trump: to_win, no trump can beat the trick


def trick_winner_card(top_led: int, top_trump: int) -> int:
    """§5: the highest trump in the trick, else the highest card of the suit led."""
    return top_trump if top_trump >= 0 else top_led


def _card_list(mask: int) -> str:
    names = names_in(mask)
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def refusal(
    card: int, code: int, legal: int, trump: int, led: int, top_led: int, top_trump: int
) -> EngineError:
    """The error for playing ``card`` when ``legal`` (decided by rule ``code``) excludes it."""
    name = CARD_NAMES[card]
    options = _card_list(legal)
    details: dict[str, Any] = {"card": name, "legal": names_in(legal)}
    trumps_name = SUIT_NAMES[trump]
    if (
        code in (BEAT, CINCH_WIN)
        and led >= 0
        and card // 13 != led
        and legal & SUIT_MASKS[led] == legal
    ):
        code = FOLLOW  # the card is refused for its suit before its rank
    if code == FOLLOW:
        suit = SUIT_NAMES[led]
        details["suit"] = suit
        return EngineError(
            "must_follow_suit",
            f"You hold {suit}: you must follow suit.",
            reason=f"must follow suit ({suit})",
            details=details,
        )
    if code == BEAT:
        top = CARD_NAMES[top_led]
        suit = SUIT_SINGULAR[led]
        details.update(suit=SUIT_NAMES[led], top=top)
        return EngineError(
            "must_beat",
            f"You must play a {suit} higher than the {top} ({options}).",
            reason=f"must play a {suit} higher than the {top}",
            details=details,
        )
    if code == TRUMP:
        details.update(suit=SUIT_NAMES[led], trump=trumps_name)
        return EngineError(
            "must_trump",
            f"You cannot follow {SUIT_NAMES[led]}: you must play a trump ({trumps_name}).",
            reason=f"must trump ({trumps_name})",
            details=details,
        )
    if code == OVERTRUMP:
        top = CARD_NAMES[top_trump]
        details.update(trump=trumps_name, top=top)
        return EngineError(
            "must_overtrump",
            f"You must play a trump higher than the {top} ({options}).",
            reason=f"must play a trump higher than the {top}",
            details=details,
        )
    if code == CINCH_LEAD:
        return EngineError(
            "cinch_lead",
            f"You hold a cinch: lead your highest trump ({options}).",
            reason=f"holds a cinch and must lead the highest trump ({options})",
            details=details,
        )
    if code == CINCH_TRUMP:
        return EngineError(
            "cinch_highest_trump",
            f"You hold a cinch: play your highest trump ({options}).",
            reason=f"holds a cinch and must play the highest trump ({options})",
            details=details,
        )
    if code == CINCH_WIN:
        return EngineError(
            "cinch_must_win",
            f"You hold a cinch and play last: you must win the trick ({options}).",
            reason=f"holds a cinch, plays last and must win the trick ({options})",
            details=details,
        )
    return EngineError(  # pragma: no cover - ANY never refuses a held card
        "illegal_card", f"You may not play the {name}.", reason=f"may not play the {name}"
    )
