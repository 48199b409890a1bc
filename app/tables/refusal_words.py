"""The sentence a player reads for an engine's refusal, in the current language.

The engine stays free of languages: an `EngineError` is a stable code, an English message
for logs and tests, and its parameters in `details` (the suit to follow, the smallest
bet, whose turn it is). Here each code (with its details) becomes a marked sentence, built
when the refusal goes back to a person: the table's answer to a command (the actor, in the
language the command carries, for a socket or an HTTP request alike), a table's settings
refused over HTTP. A code this module does not know keeps the engine's English message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from app.engine.base import EngineError
from app.errors import SalonError
from app.i18n import _, ngettext, pgettext
from app.services.hand_replay import card_text

Details = Mapping[str, Any]


def in_players_words(error: SalonError) -> SalonError:
    """`error` with its sentence in the current language when an engine's refusal is behind
    it (`ActionRefused.of`), as it goes back to whoever asked."""
    refusal = getattr(error, "refusal", None)
    if isinstance(refusal, EngineError):
        error.message = refusal_sentence(refusal)
    return error


def refusal_sentence(error: EngineError) -> str:
    """`error` as its player reads it, in the current language."""
    words = SENTENCES.get(error.code)
    if words is None:
        return error.message
    try:
        return words(error.details)
    except (KeyError, TypeError, ValueError, IndexError):  # details not as expected
        return error.message


def _suit(name: object) -> str:
    suits = {
        "spades": pgettext("suit", "spades"),
        "hearts": pgettext("suit", "hearts"),
        "diamonds": pgettext("suit", "diamonds"),
        "clubs": pgettext("suit", "clubs"),
    }
    return suits.get(str(name), str(name))


def _action(kind: object) -> str:
    """An action's name as the table's buttons say it."""
    names = {
        "straddle": pgettext("bouillotte", "Straddle"),
        "buy_back": pgettext("bouillotte", "Buy back"),
        "decline": pgettext("bouillotte", "Decline"),
        "pass": pgettext("bouillotte", "Pass"),
        "open": pgettext("bouillotte", "Open"),
        "call": pgettext("bouillotte", "Call"),
        "raise": pgettext("bouillotte", "Raise"),
        "fold": pgettext("bouillotte", "Fold"),
        "all_in": pgettext("bouillotte", "Va tout"),
        "play": pgettext("bourre", "Play"),
        "card": pgettext("bourre", "Play a card"),
        "discard": pgettext("bourre", "Exchange cards"),
        "take_trump": pgettext("bourre", "Take the trump card"),
    }
    return names.get(str(kind), str(kind))


def _cards(names: Iterable[object]) -> str:
    return " ".join(card_text(str(name)) for name in names)


def _one_of(actions: Iterable[object]) -> str:
    return " / ".join(_action(kind) for kind in actions)


def _not_your_turn(d: Details) -> str:
    why = d.get("why")
    if why == "not_dealt_in":
        return _("You are not dealt in this hand.")
    if why == "passed":
        return _("You have passed this hand.")
    if why == "folded":
        return _("You have folded this hand.")
    if why == "declared":
        return _("You have already declared.")
    if why == "all_in":
        return _("You are all in: you have nothing more to decide.")
    return _("It is not your turn.")


def _bad_action(d: Details) -> str:
    if d.get("problem") == "discard_without_cards":
        return _("A discard lists the cards to exchange (possibly none).")
    return _("Bouillotte actions name no cards.")


def _bad_amount(d: Details) -> str:
    if d.get("problem") == "amount_missing":
        return _("Name the total stake: a whole number of chips.")
    return _("%(action)s takes no amount.", action=_action(d["action"]))


def _bet_out_of_range(d: Details) -> str:
    low, high, amount = int(d["min"]), int(d["max"]), int(d["amount"])
    if d.get("bet") == "open":
        if amount < low:
            return _("The smallest opening bet is %(amount)d.", amount=low)
        return _("You can open with at most %(amount)d, your whole cave.", amount=high)
    if amount < low:
        return _("The smallest raise is to %(amount)d.", amount=low)
    return _("You can raise to at most %(amount)d, your whole cave.", amount=high)


def _cannot_decline(d: Details) -> str:
    owed = int(d["owed"])
    if not owed:
        return _("You are level: call (it costs nothing), raise or fold.")
    return ngettext(
        "You owe %(num)d chip: call, raise or fold.",
        "You owe %(num)d chips: call, raise or fold.",
        owed,
    )


def _cannot_cover(d: Details) -> str:
    return _(
        "Your stack (%(stack)d) cannot cover what a bourré could cost you (%(needed)d): "
        "you must pass.",
        stack=int(d["stack"]),
        needed=int(d["needed"]),
    )


SENTENCES: dict[str, Callable[[Details], str]] = {
    # Both games
    "hand_over": lambda d: _("The hand is over."),
    "no_such_seat": lambda d: _("There is no such seat."),
    "not_your_turn": _not_your_turn,
    "unknown_action": lambda d: _("This game has no such action."),
    "wrong_phase": lambda d: _(
        "You cannot do that now: it is time to %(expected)s.", expected=_one_of(d["expected"])
    ),
    "bad_action": _bad_action,
    "hand_in_progress": lambda d: _("The current hand is not over yet."),
    "not_enough_players": lambda d: _("A hand needs more players with chips."),
    "too_many_players": lambda d: _("Too many players to deal in."),
    "bad_table": lambda d: _("This table cannot be dealt as it is set."),
    "bad_deck": lambda d: _("This deck cannot be dealt."),
    "bad_draw": lambda d: _("The seats cannot be drawn so."),
    "unknown_game": lambda d: _("Salon does not deal this game."),
    # Bourré (rules/bourre.md §4-§7)
    "must_follow_suit": lambda d: _(
        "You hold %(suit)s: you must follow suit.", suit=_suit(d["suit"])
    ),
    "must_beat": lambda d: _(
        "You must beat the %(card)s: play %(cards)s.",
        card=card_text(d["top"]),
        cards=_cards(d["legal"]),
    ),
    "must_trump": lambda d: _(
        "You cannot follow suit: you must play a trump (%(suit)s).", suit=_suit(d["trump"])
    ),
    "must_overtrump": lambda d: _(
        "You must play a trump higher than the %(card)s: %(cards)s.",
        card=card_text(d["top"]),
        cards=_cards(d["legal"]),
    ),
    "cinch_lead": lambda d: _(
        "You hold a cinch: lead your highest trump (%(cards)s).", cards=_cards(d["legal"])
    ),
    "cinch_highest_trump": lambda d: _(
        "You hold a cinch: play your highest trump (%(cards)s).", cards=_cards(d["legal"])
    ),
    "cinch_must_win": lambda d: _(
        "You hold a cinch and play last: you must win the trick (%(cards)s).",
        cards=_cards(d["legal"]),
    ),
    "illegal_card": lambda d: _("You may not play the %(card)s.", card=card_text(d["card"])),
    "take_back_not_allowed": lambda d: _(
        "Cards cannot be taken back: illegal cards are refused at this table."
    ),
    "entry_requirement": lambda d: _("You hold no trump and no club: you must pass."),
    "cannot_cover_liability": _cannot_cover,
    "dealer_must_play": lambda d: _("The ace of trumps was turned to you: you may not pass."),
    "cannot_take_trump": lambda d: _("You may not take the turned card now."),
    "bad_card": lambda d: _("That is not a card."),
    "duplicate_card": lambda d: _("You listed the %(card)s twice.", card=card_text(d["card"])),
    "card_not_held": lambda d: _("You do not hold the %(card)s.", card=card_text(d["card"])),
    "too_many_discards": lambda d: ngettext(
        "You may exchange at most %(num)d card.",
        "You may exchange at most %(num)d cards.",
        int(d["most"]),
    ),
    "too_few_discards": lambda d: _("You took the turned card: discard at least one card."),
    # Bouillotte (rules/bouillotte.md §3-§6)
    "bad_amount": _bad_amount,
    "cannot_open": lambda d: _(
        "You cannot reach the smallest opening bet (%(amount)d): you may only pass.",
        amount=int(d["min"]),
    ),
    "bet_out_of_range": _bet_out_of_range,
    "not_opened": lambda d: _("Nobody has opened yet: pass or open."),
    "cannot_raise": lambda d: _("You cannot raise: calling takes all your chips."),
    "nothing_to_raise": lambda d: _("Nobody else still in has chips to answer a raise."),
    "cannot_decline": _cannot_decline,
    "cannot_pass_after_opening": lambda d: _(
        "Someone has opened: you can no longer pass; call, raise or fold."
    ),
    "already_opened": lambda d: _("The betting is already open: call, raise or fold."),
    "rebuy_not_allowed": lambda d: _("A new cave can be bought only when the old one is empty."),
    "rebuy_is_the_cave": lambda d: ngettext(
        "A new cave is %(num)d chip.", "A new cave is %(num)d chips.", int(d["cave"])
    ),
    # A table's buy-in range (rules/bourre.md §2, rules/bouillotte.md §1)
    "buy_in_is_the_cave": lambda d: _(
        "At Bouillotte everyone buys the same cave: the buy-in is %(amount)d.",
        amount=int(d["cave"]),
    ),
    "buy_in_below_ante": lambda d: _(
        "The smallest buy-in must cover the ante (%(amount)d).", amount=int(d["ante"])
    ),
}
