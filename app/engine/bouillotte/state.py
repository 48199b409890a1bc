"""One hand of Bouillotte as an explicit phase machine (rules/bouillotte.md §2 to §8).

Phases: ``straddle`` (the carre chain before the deal), ``buy_back`` (with the ``buy_back``
option, the previous straddler's chance to double again), ``opening`` (pass or open, before
anyone has opened), ``calls`` (after an opening or a raise, every other player still in with
chips, one already level too, calls, raises or folds), ``continuation`` (three or more left
and level: each other player who could raise may raise, fold or decline), ``over``.

Every action is verified completely before anything changes; a refusal is an
:class:`~app.engine.base.EngineError` with a stable code and leaves the hand untouched.
The hot path works on small ints: a card is ``suit * 13 + rank`` and a hand is a bitmask.
Chips are conserved at every step: ``sum(stacks) + pot`` never changes within a hand.

"Right" is the playing direction (``direction``): seat ``s - 1`` counter-clockwise (the
default), ``s + 1`` clockwise. "The order" is the players dealt in, starting with the one on
the dealer's right and going right, the dealer last (§8).

Decisions where the rules leave room (each is also stated where it is implemented):

* §5, §8 "After the opening": the call round visits every other player still in with chips,
  nobody being skipped for being level (the dealer after an opening at his two chips, the last
  straddler after an opening at the straddle): such a player calls for free, raises or folds.
  A level player may not ``decline`` there: ``decline`` belongs to the continuation round.
* §8 "Before the opening": the opening minimum is the largest stake, so a dealer whose own
  stake is that largest stake may open at it without adding a chip.
* §8: a player with no chips left (all in from an ante or a straddle) never speaks; before an
  opening they count as having passed. A hand in which nobody can speak is thrown in (or won
  by the last straddler) at once.
* §3, §8 ``buy_back``: a previous straddler who cannot afford the buy-back is passed over as
  if they had declined; the right to straddle goes on.
* §5, §8: ``all_in`` after the opening is a call with everything when the cave cannot exceed
  the highest stake, else a raise to the whole cave (refused like any raise nobody can answer).
* §8 continuation round: ``call`` (free) is accepted and offered as a synonym of ``decline``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from app.engine.base import Action, EngineError, Event
from app.engine.bouillotte.choices import Choices
from app.engine.bouillotte.config import BouillotteRules
from app.engine.bouillotte.deck import CARDS_DEALT, DeckSource, SeededDeck
from app.engine.bouillotte.pots import layer_pots
from app.engine.bouillotte.ranking import (
    BRELAN,
    CARRE,
    CATEGORY_NAMES,
    best_brelan,
    classify,
    hand_names,
    points_winner,
    suit_groups,
    suit_totals,
)
from app.engine.cards import CARD_NAMES

STRADDLE, BUY_BACK, OPENING, CALLS, CONTINUATION, OVER = range(6)
PHASE_NAMES = ("straddle", "buy_back", "opening", "calls", "continuation", "over")

OUT, IN, FOLDED = range(3)
"""Seat status: not dealt in, still in (possibly all in), folded."""

MIN_PLAYERS = 3
MAX_PLAYERS = 5
MAX_SEATS = 8
ACTION_KINDS = frozenset(
    {"straddle", "decline", "buy_back", "pass", "open", "call", "raise", "all_in", "fold"}
)
_BET_KINDS = ("open", "raise")

_new = tuple.__new__
"""Builds an Event or Action from a full tuple, skipping the NamedTuple's keyword handling:
a measurable saving on paths taken for every action."""


def _actions(*kinds: str) -> list[tuple[Action, ...]]:
    return [tuple(_new(Action, (s, k, None, None, None)) for k in kinds) for s in range(MAX_SEATS)]


_STRADDLE_CHOICES = _actions("straddle", "decline")
_BUY_BACK_CHOICES = _actions("buy_back", "decline")
_PASS_ONLY = _actions("pass")
_PASS_ALL_IN = _actions("pass", "all_in")
_CALL_FOLD = _actions("call", "fold")
_CALL_FOLD_ALL_IN = _actions("call", "fold", "all_in")
_CONTINUE = _actions("decline", "call", "fold")
_CONTINUE_ALL_IN = _actions("decline", "call", "fold", "all_in")

_VERBS = {
    "straddle": "straddle",
    "decline": "decline",
    "buy_back": "buy back",
    "pass": "pass",
    "open": "open",
    "call": "call",
    "raise": "raise",
    "all_in": "go all in",
    "fold": "fold",
}
# What each phase waits for, as action codes (in the order of `_EXPECTED`), for the page's
# and the refusal's own words.
_EXPECTED_ACTIONS = (
    ("straddle", "decline"),
    ("buy_back", "decline"),
    ("pass", "open"),
    ("call", "raise", "fold"),
    ("raise", "decline", "fold"),
    (),
)
_EXPECTED = (
    "straddle or decline",
    "buy back or decline",
    "pass or open",
    "call, raise or fold",
    "raise, decline or fold",
    "nothing (the hand is over)",
)


class HandResult(NamedTuple):
    """The settlement of a hand (rules/bouillotte.md §5 to §8), seat numbers throughout.

    ``players``: seats dealt in that did not fold (seat order). ``pots``: ``(amount, winner)``,
    main pot first, empty for a thrown-in hand. ``showdown``: seat -> (rank name, cards mask)
    for every seat dealt in when there was a showdown, else empty. ``suit_points``: suit
    letter -> total when some pot went to points, else empty. ``bonuses``: ``(from, to,
    amount)``. ``carry``: what stays in the pot (a thrown-in hand's pot), ``stacks`` after
    settlement.
    """

    dealer: int
    upcard: int
    dealt_in: tuple[int, ...]
    players: tuple[int, ...]
    pots: tuple[tuple[int, int], ...]
    showdown: dict[int, tuple[str, int]]
    suit_points: dict[str, int]
    bonuses: tuple[tuple[int, int, int], ...]
    carry: int
    stacks: tuple[int, ...]
    thrown_in: bool


def _bad_table(
    message: str, code: str = "bad_table", details: dict[str, int] | None = None
) -> EngineError:
    return EngineError(
        code,
        message,
        reason=f"cannot be dealt: {message[0].lower()}{message[1:]}",
        details=details,
    )


class BouillotteHand:
    """A hand of Bouillotte: antes on construction, then ``apply`` actions until over."""

    __slots__ = (
        "actions",
        "aggressor",
        "antes",
        "brelans",
        "chain_pos",
        "dead",
        "dealer",
        "dealt",
        "deck",
        "hands",
        "highest",
        "index",
        "initial_events",
        "initial_pot",
        "initial_stacks",
        "last_straddler",
        "left",
        "n",
        "next_seat",
        "opener",
        "order",
        "phase",
        "pot",
        "queue",
        "queue_pos",
        "result",
        "rules",
        "sitting_out",
        "source",
        "stacks",
        "stakes",
        "status",
        "straddles",
        "turn",
        "upcard",
        "version",
    )

    def __init__(
        self,
        rules: BouillotteRules,
        stacks: Sequence[int],
        button: int,
        source: DeckSource,
        *,
        pot: int = 0,
        sitting_out: Iterable[int] = (),
    ) -> None:
        n = len(stacks)
        if not 1 <= n <= MAX_SEATS:
            raise _bad_table(f"A Bouillotte table has 1 to {MAX_SEATS} seats.")
        if not 0 <= button < n:
            raise _bad_table("The dealer button must be on a seat.")
        own = list(stacks)
        if pot < 0 or min(own) < 0:
            raise _bad_table("Stacks and pot cannot be negative.")
        self.rules = rules
        self.brelans = rules.brelans
        self.n = n
        self.stacks = own
        self.initial_stacks = tuple(own)
        self.initial_pot = pot
        self.dead = pot
        self.source = source
        self.version = 0
        self.actions: list[Action] = []
        self.result: HandResult | None = None

        # §8 "Who plays": dealt in when the stack is above zero; 3 to 5 players. The order
        # starts on the dealer's right and goes right; the dealer is the first seat dealt in
        # from the button going right.
        out = self.sitting_out = frozenset(sitting_out)
        step = rules.step
        going_right = [(button + step * i) % n for i in range(n)]
        able = [s for s in going_right if own[s] > 0 and s not in out]
        if not MIN_PLAYERS <= len(able) <= MAX_PLAYERS:
            if len(able) < MIN_PLAYERS:
                raise _bad_table(
                    f"A hand needs at least {MIN_PLAYERS} players with chips, not {len(able)}.",
                    "not_enough_players",
                    {"players": len(able), "min": MIN_PLAYERS},
                )
            raise _bad_table(
                f"At most {MAX_PLAYERS} players can be dealt in, not {len(able)}.",
                "too_many_players",
                {"players": len(able), "max": MAX_PLAYERS},
            )
        dealer = able[0]
        self.dealer = dealer
        order = (*able[1:], dealer)
        self.order = order
        count = len(order)
        index = self.index = [-1] * n
        next_seat = self.next_seat = [-1] * n
        status = self.status = [OUT] * n
        for i, seat in enumerate(order):
            index[seat] = i
            next_seat[seat] = order[i + 1] if i + 1 < count else order[0]
            status[seat] = IN
        self.left = count
        self.deck = source.deck(count)
        self.hands = [0] * n
        self.upcard = -1
        self.dealt = False

        # §2 antes, §8 "Carried pot": after a thrown-in hand only the new dealer adds 1.
        # A player who cannot pay the whole ante pays what they have (every seat dealt in
        # has at least 1 chip, so only a dealer's second chip can be short).
        stakes = self.stakes = [0] * n
        if pot > 0 or rules.ante_mode == "dealer_only":
            own[dealer] -= 1
            stakes[dealer] = 1
            self.antes = {dealer: 1}
        else:
            for seat in order:
                own[seat] -= 1
                stakes[seat] = 1
            if own[dealer]:
                own[dealer] -= 1
                stakes[dealer] = 2
            self.antes = {s: stakes[s] for s in order}
        self.pot = pot + sum(self.antes.values())
        self.highest = stakes[dealer]

        self.aggressor = -1
        self.opener = -1
        self.last_straddler = -1
        self.straddles: list[tuple[str, int, int]] = []
        self.queue: tuple[int, ...] = ()
        self.queue_pos = 0
        self.chain_pos = 0
        self.turn = -1
        self.phase = STRADDLE
        self.initial_events: list[Event] = []
        self._offer_straddle(self.initial_events)

    def _pay(self, seat: int, amount: int) -> int:
        """Move up to ``amount`` chips from ``seat``'s stack into the pot (§8: a player who
        cannot pay in full pays what they have and is all in)."""
        stack = self.stacks[seat]
        if amount > stack:
            amount = stack
        self.stacks[seat] = stack - amount
        self.stakes[seat] += amount
        self.pot += amount
        return amount

    # ------------------------------------------------------------------ straddles (§3, §8)

    def _offer_straddle(self, events: list[Event]) -> None:
        """Offer the straddle to the player at ``chain_pos``, or end the chain.

        §8: the chain runs round the order up to and including the dealer; a player whose
        stack is smaller than the pot cannot straddle and the chain ends there by itself.
        """
        pos = self.chain_pos
        if pos < len(self.order):
            seat = self.order[pos]
            if self.stacks[seat] >= self.pot:
                self.phase = STRADDLE
                self.turn = seat
                return
        self._end_chain(events)

    def _straddle(self, seat: int, kind: str) -> list[Event]:
        added = self._pay(seat, self.pot)  # §8: exactly what the whole pot holds
        self.last_straddler = seat
        self.straddles.append((kind, seat, added))
        stake = self.stakes[seat]
        if stake > self.highest:
            self.highest = stake
        data = {"added": added, "stake": stake, "pot": self.pot}
        events = [
            _new(Event, ("straddled" if kind == "straddle" else "bought_back", seat, data, None))
        ]
        if kind == "buy_back":
            self._end_chain(events)  # §8: a buy-back ends the chain
            return events
        if self.rules.buy_back and self.chain_pos > 0:
            previous = self.order[self.chain_pos - 1]
            if self.stacks[previous] >= self.pot:
                self.phase = BUY_BACK
                self.turn = previous
                return events
        self.chain_pos += 1
        self._offer_straddle(events)
        return events

    def _decline_straddle(self, seat: int) -> list[Event]:
        events = [_new(Event, ("declined", seat, {}, None))]
        if self.phase == BUY_BACK:
            # §8: a declined buy-back passes the right to straddle on.
            self.chain_pos += 1
            self._offer_straddle(events)
        else:
            self._end_chain(events)  # §3: the straddling stops at the first who declines
        return events

    def _end_chain(self, events: list[Event]) -> None:
        """Deal (§4), then start the betting at the right of the last straddler (§8)."""
        self._deal()
        events.extend(self.deal_events())
        order = self.order
        last = self.last_straddler
        if last >= 0:
            start = self.index[last] + 1
            rotated = order[start:] + order[:start]
            speakers = rotated[:-1]  # the last straddler never speaks before an opening
        else:
            speakers = order
        stacks = self.stacks
        # A player with no chips left has nothing to decide: they are skipped (§8).
        self.queue = tuple(s for s in speakers if stacks[s] > 0)
        self.queue_pos = 0
        self.phase = OPENING
        if self.queue:
            self.turn = self.queue[0]
        else:
            self._no_opening(events)

    def _deal(self) -> None:
        """§4: one card at a time from the dealer's right going right, three rounds; then the
        upcard, face up, belonging to nobody."""
        deck = self.deck
        hands = self.hands
        pos = 0
        order = self.order
        for _ in range(CARDS_DEALT):
            for seat in order:
                hands[seat] |= 1 << deck[pos]
                pos += 1
        self.upcard = deck[pos]
        self.dealt = True

    def deal_events(self) -> list[Event]:
        """The deal as events: each player's cards (private), then the upcard (public)."""
        hands = self.hands
        events = [
            _new(Event, ("dealt", seat, {"cards": hand_names(hands[seat])}, seat))
            for seat in self.order
        ]
        events.append(_new(Event, ("upcard", None, {"card": CARD_NAMES[self.upcard]}, None)))
        return events

    @property
    def start_events(self) -> list[Event]:
        """What the antes told everyone, then what followed before the first action (the deal
        when nobody could straddle, even the end of a hand in which nobody can speak)."""
        started = Event(
            "hand_started",
            None,
            {
                "dealer": self.dealer,
                "dealt_in": list(self.order),
                "antes": dict(self.antes),
                "dead_money": self.dead,
                "pot": self.dead + sum(self.antes.values()),
            },
        )
        return [started, *self.initial_events]

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.turn,)

    def opening_minimum(self) -> int:
        """§8: the largest stake anyone has (the last straddle, else the dealer's chips), at
        least 1. A dealer whose own stake is that largest stake may open at it."""
        return self.highest if self.highest > 1 else 1

    def _raise_answerable(self, seat: int) -> bool:
        """§8: a raise is refused when no other player still in has chips to answer it."""
        status = self.status
        stacks = self.stacks
        return any(s != seat and status[s] == IN and stacks[s] > 0 for s in self.order)

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Everything ``seat`` may do now (empty when it is not their turn).

        A :class:`Choices`: the fixed actions, then one ``open``/``raise`` per legal total;
        ``bet_kind``, ``low`` and ``high`` give that range directly.
        """
        if seat != self.turn or type(seat) is not int:
            return []
        phase = self.phase
        cap = self.stakes[seat] + self.stacks[seat]
        if phase == CALLS:
            highest = self.highest
            if cap <= highest:
                return Choices(seat, _CALL_FOLD_ALL_IN[seat], None, 0, 0)
            if self._raise_answerable(seat):
                return Choices(seat, _CALL_FOLD_ALL_IN[seat], "raise", highest + 1, cap)
            return Choices(seat, _CALL_FOLD[seat], None, 0, 0)
        if phase == OPENING:
            low = self.opening_minimum()
            if cap < low:
                return Choices(seat, _PASS_ONLY[seat], None, 0, 0)
            return Choices(seat, _PASS_ALL_IN[seat], "open", low, cap)
        if phase == CONTINUATION:
            if self._raise_answerable(seat):
                return Choices(seat, _CONTINUE_ALL_IN[seat], "raise", self.highest + 1, cap)
            return Choices(seat, _CONTINUE[seat], None, 0, 0)  # pragma: no cover - skipped
        if phase == STRADDLE:
            return Choices(seat, _STRADDLE_CHOICES[seat], None, 0, 0)
        return Choices(seat, _BUY_BACK_CHOICES[seat], None, 0, 0)

    def bet_range(self, seat: int) -> tuple[str, int, int] | None:
        """``(kind, min total, max total)`` of the open or raise ``seat`` may make now."""
        legal = self.legal_actions(seat)
        if isinstance(legal, Choices) and legal.bet_kind is not None:
            return legal.bet_kind, legal.low, legal.high
        return None

    def owed(self, seat: int) -> int:
        """Chips ``seat`` needs to put in to call (capped by its stack)."""
        if self.status[seat] != IN:
            return 0
        return min(max(self.highest - self.stakes[seat], 0), self.stacks[seat])

    def view(self, seat: int | None) -> dict[str, Any]:
        from app.engine.bouillotte.view import build_view

        return build_view(self, seat)

    def card_zones(self) -> dict[str, int]:
        """Where every card of the pack is, as masks (for audits and tests)."""
        zones = {f"hand:{s}": self.hands[s] for s in self.order}
        zones["upcard"] = (1 << self.upcard) if self.dealt else 0
        dealt = 0
        for mask in zones.values():
            dealt |= mask
        rest = 0
        for card in self.deck:
            rest |= 1 << card
        zones["undealt"] = rest & ~dealt
        return zones

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        """Verify ``action`` fully, then apply it; returns the events it caused."""
        seat, kind, card, cards, amount = action
        if seat != self.turn or type(seat) is not int:
            raise self._not_your_turn(seat)
        if kind not in ACTION_KINDS:
            raise EngineError(
                "unknown_action",
                f"{kind!r} is not a Bouillotte action.",
                reason=f"sent an unknown action {kind!r}",
                details={"action": kind},
            )
        if card is not None or cards is not None:
            raise EngineError(
                "bad_action",
                "Bouillotte actions name no cards.",
                reason="named cards in a bet",
                details={"problem": "cards_in_bet"},
            )
        if kind == "open" or kind == "raise":
            if type(amount) is not int:
                raise EngineError(
                    "bad_amount",
                    f"{'An opening' if kind == 'open' else 'A raise'} names the total stake "
                    "(a whole number of chips).",
                    reason=f"sent a {kind} without a whole-number amount",
                    details={"action": kind, "problem": "amount_missing"},
                )
        elif amount is not None:
            raise EngineError(
                "bad_amount",
                f"You cannot name an amount to {_VERBS[kind]}.",
                reason=f"named an amount to {_VERBS[kind]}",
                details={"action": kind, "problem": "amount_not_wanted"},
            )
        phase = self.phase
        if phase == CALLS:
            events = self._calls_action(seat, kind, amount)
        elif phase == OPENING:
            events = self._opening_action(seat, kind, amount)
        elif phase == CONTINUATION:
            events = self._continuation_action(seat, kind, amount)
        elif phase == STRADDLE:
            if kind == "straddle":
                events = self._straddle(seat, "straddle")
            elif kind == "decline":
                events = self._decline_straddle(seat)
            else:
                raise self._wrong_phase(kind)
        else:  # BUY_BACK
            if kind == "buy_back":
                events = self._straddle(seat, "buy_back")
            elif kind == "decline":
                events = self._decline_straddle(seat)
            else:
                raise self._wrong_phase(kind)
        self.actions.append(action)
        self.version += 1
        return events

    def _not_your_turn(self, seat: object) -> EngineError:
        if self.phase == OVER:
            return EngineError(
                "hand_over", "The hand is over.", reason="acted after the end of the hand"
            )
        if type(seat) is not int or not 0 <= seat < self.n:
            return EngineError(
                "no_such_seat",
                f"There is no seat {seat!r}.",
                reason="is not a seat at the table",
                details={"seat": str(seat)},
            )
        status = self.status[seat]
        if status == OUT:
            why = "not_dealt_in"
            message = "You are not dealt in this hand."
            reason = "is not dealt in this hand"
        elif status == FOLDED:
            why = "folded"
            message = "You have folded this hand."
            reason = "has folded this hand"
        elif self.stacks[seat] == 0:
            why = "all_in"
            message = "You are all in: you have nothing more to decide."
            reason = "is all in"
        else:
            why = "other_seat"
            message = f"It is seat {self.turn}'s turn, not yours."
            reason = f"acted out of turn (seat {self.turn} to act)"
        details = {"why": why, "turn": self.turn}
        return EngineError("not_your_turn", message, reason=reason, details=details)

    def _wrong_phase(self, kind: str) -> EngineError:
        expected = _EXPECTED[self.phase]
        verb = _VERBS[kind]
        return EngineError(
            "wrong_phase",
            f"You cannot {verb} now: it is time to {expected}.",
            reason=f"tried to {verb} when it was time to {expected}",
            details={"action": kind, "expected": _EXPECTED_ACTIONS[self.phase]},
        )

    # ------------------------------------------------------------------ before the opening

    def _opening_action(self, seat: int, kind: str, amount: int | None) -> list[Event]:
        if kind == "pass":
            events = [_new(Event, ("passed", seat, {}, None))]
            self.queue_pos += 1
            if self.queue_pos < len(self.queue):
                self.turn = self.queue[self.queue_pos]
            else:
                self._no_opening(events)
            return events
        if kind == "open" or kind == "all_in":
            cap = self.stakes[seat] + self.stacks[seat]
            low = self.opening_minimum()
            if cap < low:
                raise EngineError(
                    "cannot_open",
                    f"You cannot reach the smallest opening bet ({low}): you may only pass.",
                    reason=f"cannot reach the smallest opening bet ({low}) and may only pass",
                    details={"min": low, "max": cap},
                )
            total = cap if kind == "all_in" else amount
            assert total is not None
            if total < low:
                raise EngineError(
                    "bet_out_of_range",
                    f"The smallest opening bet is {low}.",
                    reason=f"opened at {total}, below the smallest opening bet "
                    f"(legal: {low} to {cap})",
                    details={"min": low, "max": cap, "bet": "open", "amount": total},
                )
            if total > cap:
                raise EngineError(
                    "bet_out_of_range",
                    f"You can open with at most {cap}, your whole cave.",
                    reason=f"opened at {total}, more than their whole cave (legal: {low} to {cap})",
                    details={"min": low, "max": cap, "bet": "open", "amount": total},
                )
            self.opener = seat
            return self._bet(seat, total, "opened")
        if kind in ("call", "raise", "fold"):
            raise EngineError(
                "not_opened",
                f"Nobody has opened yet: you cannot {_VERBS[kind]}; pass or open.",
                reason=f"tried to {_VERBS[kind]} before anyone opened",
                details={"action": kind},
            )
        raise self._wrong_phase(kind)

    def _no_opening(self, events: list[Event]) -> None:
        """§5: nobody opened. After a straddle the last straddler takes the pot; otherwise
        the hand is thrown in and the pot stays for the next hand."""
        if self.last_straddler >= 0:
            self._win_uncontested(self.last_straddler, events)
        else:
            self._settle_thrown_in(events)

    # ------------------------------------------------------------------ after the opening

    def _bet(self, seat: int, total: int, what: str) -> list[Event]:
        """Bring ``seat``'s stake to ``total`` (an opening or a raise) and send the turn round."""
        added = self._pay(seat, total - self.stakes[seat])
        self.highest = total
        self.aggressor = seat
        data = {"added": added, "stake": total, "pot": self.pot, "all_in": self.stacks[seat] == 0}
        events = [_new(Event, (what, seat, data, None))]
        self.phase = CALLS
        self._next_caller(seat, events)
        return events

    def _check_raise(self, seat: int, total: int) -> None:
        highest = self.highest
        cap = self.stakes[seat] + self.stacks[seat]
        if cap <= highest:
            raise EngineError(
                "cannot_raise",
                "You cannot raise: calling takes all your chips.",
                reason="cannot raise: calling takes all their chips",
            )
        if not self._raise_answerable(seat):
            raise EngineError(
                "nothing_to_raise",
                "Nobody else still in has chips to answer a raise.",
                reason="raised when nobody else still in had chips to answer",
            )
        if total <= highest:
            raise EngineError(
                "bet_out_of_range",
                f"The smallest raise is to {highest + 1}.",
                reason=f"raised to {total}, not above the highest stake "
                f"(legal: {highest + 1} to {cap})",
                details={"min": highest + 1, "max": cap, "bet": "raise", "amount": total},
            )
        if total > cap:
            raise EngineError(
                "bet_out_of_range",
                f"You can raise to at most {cap}, your whole cave.",
                reason=f"raised to {total}, more than their whole cave "
                f"(legal: {highest + 1} to {cap})",
                details={"min": highest + 1, "max": cap, "bet": "raise", "amount": total},
            )

    def _calls_action(self, seat: int, kind: str, amount: int | None) -> list[Event]:
        if kind == "call" or (
            kind == "all_in" and self.stakes[seat] + self.stacks[seat] <= self.highest
        ):
            added = self._pay(seat, self.highest - self.stakes[seat])
            data = {"added": added, "stake": self.stakes[seat], "pot": self.pot}
            data["all_in"] = self.stacks[seat] == 0
            events = [_new(Event, ("called", seat, data, None))]
            self._next_caller(seat, events)
            return events
        if kind == "raise" or kind == "all_in":
            total = self.stakes[seat] + self.stacks[seat] if kind == "all_in" else amount
            assert total is not None
            self._check_raise(seat, total)
            return self._bet(seat, total, "raised")
        if kind == "fold":
            events = self._fold(seat)
            if self.left == 1:
                survivor = next(s for s in self.order if self.status[s] == IN)
                self._win_uncontested(survivor, events)
            else:
                self._next_caller(seat, events)
            return events
        if kind == "decline":
            owed = self.highest - self.stakes[seat]
            if not owed:
                raise EngineError(
                    "cannot_decline",
                    "You are level: call (it costs nothing), raise or fold.",
                    reason="declined in the call round (a level player calls, raises or folds)",
                    details={"owed": 0},
                )
            raise EngineError(
                "cannot_decline",
                f"You owe {owed} chips: call, raise or fold.",
                reason=f"declined while owing {owed} chips",
                details={"owed": owed},
            )
        return self._after_opening_refusal(kind)

    def _after_opening_refusal(self, kind: str) -> list[Event]:
        if kind == "pass":
            raise EngineError(
                "cannot_pass_after_opening",
                "Someone has opened: you can no longer pass; call, raise or fold.",
                reason="passed after the opening",
            )
        if kind == "open":
            raise EngineError(
                "already_opened",
                "The betting is already open: call, raise or fold.",
                reason="opened after the opening",
            )
        raise self._wrong_phase(kind)

    def _fold(self, seat: int) -> list[Event]:
        self.status[seat] = FOLDED
        self.left -= 1
        return [_new(Event, ("folded", seat, {}, None))]

    def _next_caller(self, seat: int, events: list[Event]) -> None:
        """§5, §8 "After the opening": the call round goes right from the opener / last raiser
        and visits every other player still in with chips, one whose stake already equals the
        highest too (§8 worked sequences: the level dealer, the last straddler). The round is
        complete when the turn comes back to the opener / last raiser; everyone still in has
        then matched the highest stake or is all in. With three or more left the continuation
        round follows; with two the cards are shown (§8 "Two or more left").
        """
        status = self.status
        stacks = self.stacks
        aggressor = self.aggressor
        nxt = self.next_seat
        s = nxt[seat]
        while s != aggressor:
            if status[s] == IN and stacks[s] > 0:
                self.turn = s
                return
            s = nxt[s]
        if self.left >= 3:
            self._start_continuation(events)
        else:
            self._showdown(events)

    # ------------------------------------------------------------------ continuation (§5, §8)

    def _start_continuation(self, events: list[Event]) -> None:
        """§8: three or more left and level: from the right of the opener / last raiser,
        each other player still in who could raise may raise, fold or decline."""
        order = self.order
        start = self.index[self.aggressor] + 1
        self.queue = (order[start:] + order[:start])[:-1]
        self.queue_pos = 0
        self.phase = CONTINUATION
        self._next_continuation(events)

    def _next_continuation(self, events: list[Event]) -> None:
        status = self.status
        stacks = self.stacks
        queue = self.queue
        pos = self.queue_pos
        with_chips = 0
        for s in self.order:
            if stacks[s] > 0 and status[s] == IN:
                with_chips += 1
        while pos < len(queue):
            s = queue[pos]
            # "who could raise": chips of their own, and someone else with chips to answer.
            if status[s] == IN and stacks[s] > 0 and with_chips >= 2:
                self.queue_pos = pos
                self.turn = s
                return
            pos += 1
        self._showdown(events)

    def _continuation_action(self, seat: int, kind: str, amount: int | None) -> list[Event]:
        if kind == "decline" or kind == "call":  # §8: a free call means the same
            events = [_new(Event, ("declined", seat, {}, None))]
            self.queue_pos += 1
            self._next_continuation(events)
            return events
        if kind == "raise" or kind == "all_in":
            total = self.stakes[seat] + self.stacks[seat] if kind == "all_in" else amount
            assert total is not None
            self._check_raise(seat, total)
            return self._bet(seat, total, "raised")
        if kind == "fold":
            events = self._fold(seat)
            if self.left == 2:
                self._showdown(events)  # §8: a fold that leaves two players level ends it
            else:
                self.queue_pos += 1
                self._next_continuation(events)
            return events
        return self._after_opening_refusal(kind)

    # ------------------------------------------------------------------ settlement (§5-§8)

    def _finish(
        self,
        events: list[Event],
        *,
        pots: tuple[tuple[int, int], ...],
        showdown: dict[int, tuple[str, int]],
        suit_points: dict[str, int],
        bonuses: tuple[tuple[int, int, int], ...],
        thrown_in: bool = False,
    ) -> None:
        status = self.status
        players = tuple([s for s in range(self.n) if status[s] == IN])
        carry = self.pot
        self.result = _new(
            HandResult,
            (
                self.dealer,
                self.upcard,
                self.order,
                players,
                pots,
                showdown,
                suit_points,
                bonuses,
                carry,
                tuple(self.stacks),
                thrown_in,
            ),
        )
        self.phase = OVER
        self.turn = -1
        data = {
            "pots": [{"amount": a, "winner": w} for a, w in pots],
            "bonuses": [{"from": f, "to": t, "amount": a} for f, t, a in bonuses],
            "carry": carry,
            "thrown_in": thrown_in,
        }
        events.append(_new(Event, ("hand_over", None, data, None)))

    def _settle_thrown_in(self, events: list[Event]) -> None:
        """§5: nobody straddled and everyone passed: the pot stays (carried, §8)."""
        self._finish(events, pots=(), showdown={}, suit_points={}, bonuses=(), thrown_in=True)

    def _win_uncontested(self, seat: int, events: list[Event]) -> None:
        """§5: the only player left (or the last straddler nobody opened against) takes the
        whole pot without showing; there is no showdown and so no bonus."""
        amount = self.pot
        self.stacks[seat] += amount
        self.pot = 0
        self._finish(events, pots=((amount, seat),), showdown={}, suit_points={}, bonuses=())

    def _showdown(self, events: list[Event]) -> None:
        """§6-§8: every hand dealt in is shown; each pot goes to its best contender; then the
        brelan bonuses are paid.

        Interpretations: §7 "the suit that wins the main pot also decides each side pot": the
        suit(s) the main pot's winner owned in the deciding group are tried first for a side
        pot (its contender holding the highest card of that suit wins), then the rest of that
        group, then the lower groups, as for the main pot. When a brelan won the main pot, a
        side pot without a brelan among its contenders goes to points from the top group.
        The showdown reports each hand's category (folded hands too); ``suit_points`` is
        reported when at least one pot went to points.
        """
        rules = self.rules
        status = self.status
        stacks = self.stacks
        hands = self.hands
        order = self.order
        upcard = self.upcard
        brelans = self.brelans
        live = [s for s in order if status[s] == IN]
        all_in = [s for s in live if stacks[s] == 0]
        if all_in:
            layers = layer_pots(self.stakes, live, all_in, self.dead)
        else:
            layers = [(self.pot, tuple(live))]  # nobody all in: a single pot, all level
        categories = [(0, -1)] * self.n
        table = 1 << upcard
        mistigri = rules.mistigri
        for seat in order:
            hand = hands[seat]
            table |= hand
            if brelans:
                categories[seat] = classify(hand, upcard, True, mistigri)
        totals = suit_totals(table)
        groups: list[tuple[int, ...]] | None = None
        main_suits: tuple[int, ...] = ()
        to_points = False
        pots: list[tuple[int, int]] = []
        for i, (amount, contenders) in enumerate(layers):
            if len(contenders) == 1:
                winner = contenders[0]  # chips nobody could match, returned
            else:
                winner = best_brelan(contenders, categories) if brelans else -1
                if winner < 0:
                    if groups is None:
                        groups = suit_groups(totals)
                    # §7: side pots are decided from the suit that won the main pot.
                    winner, suits = points_winner(groups, contenders, hands, main_suits)
                    to_points = True
                    if i == 0:
                        main_suits = suits
            stacks[winner] += amount
            pots.append((amount, winner))
        self.pot = 0
        bonuses = self._pay_bonuses(live, categories) if brelans else ()
        showdown: dict[int, tuple[str, int]] = {}
        shown: dict[int, dict[str, Any]] = {}
        for seat in sorted(order):
            rank = CATEGORY_NAMES[categories[seat][0]]
            showdown[seat] = (rank, hands[seat])
            shown[seat] = {"rank": rank, "cards": hand_names(hands[seat])}
        suit_points = (
            {"S": totals[0], "H": totals[1], "D": totals[2], "C": totals[3]} if to_points else {}
        )
        data = {"hands": shown, "suit_points": suit_points}
        events.append(_new(Event, ("showdown", None, data, None)))
        self._finish(
            events,
            pots=tuple(pots),
            showdown=showdown,
            suit_points=suit_points,
            bonuses=bonuses,
        )

    def _pay_bonuses(
        self, live: list[int], categories: list[tuple[int, int]]
    ) -> tuple[tuple[int, int, int], ...]:
        """§7, §8 "Bonuses": players still in with a brelan carré or a brelan collect from
        every other player dealt in (folded ones too); collectors never pay each other; a
        short payer pays what they have. Mistigri collects nothing.

        Interpretation (§8): collectors are paid in the order, and a short payer's chips go
        to the first collector in the order who is owed them.
        """
        rules = self.rules
        collectors = [s for s in live if categories[s][0] in (CARRE, BRELAN)]
        if not collectors:
            return ()
        stacks = self.stacks
        payers = [s for s in self.order if s not in collectors]
        out: list[tuple[int, int, int]] = []
        for collector in collectors:
            bonus = rules.bonus_carre if categories[collector][0] == CARRE else rules.bonus_brelan
            for payer in payers:
                paid = min(bonus, stacks[payer])
                if paid > 0:
                    stacks[payer] -= paid
                    stacks[collector] += paid
                    out.append((payer, collector, paid))
        return tuple(out)


def new_hand(
    rules: BouillotteRules,
    stacks: Sequence[int],
    button: int,
    seed: bytes,
    *,
    pot: int = 0,
) -> BouillotteHand:
    """A hand dealt from ``seed`` (convenience for callers without a session)."""
    return BouillotteHand(rules, stacks, button, SeededDeck(seed), pot=pot)
