"""One hand of Bourré as an explicit phase machine (rules/bourre.md §2 to §7).

Phases: ``declare`` (play or pass, in turn or simultaneously; with ``draw_with_declare`` the
exchange happens in the declaring turn), ``draw``, ``second_chance``, ``tricks``, ``over``.
Every action is verified completely before anything changes; a refusal is an
:class:`~app.engine.base.EngineError` and leaves the hand untouched.

The hot path works on small ints: a card is ``suit * 13 + rank`` and a hand is a bitmask.
Chips are conserved at every step: ``sum(stacks) + pot`` never changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from app.engine.base import Action, EngineError, Event
from app.engine.bourre.choices import DiscardChoices
from app.engine.bourre.cinch import highest_trump_equivalents, holds_cinch
from app.engine.bourre.config import BourreRules
from app.engine.bourre.deck import DeckSource, SeededDeck
from app.engine.bourre.rules import NO_CINCH, legal_cards, refusal
from app.engine.cards import (
    ACE,
    CARD_INDEX,
    CARD_NAMES,
    SUIT_MASKS,
    SUITS,
    cards_in,
    names_in,
)

DECLARE, DRAW, SECOND, TRICKS, OVER = range(5)
PHASE_NAMES = ("declare", "draw", "second_chance", "tricks", "over")

OUT, UNDECLARED, PLAYING, FOLDED = range(4)
"""Seat status: not dealt in, yet to declare, playing, passed (folded)."""

MAX_SEATS = 8
CLUBS = 3

_PLAY: list[Action] = [Action(s, "play") for s in range(MAX_SEATS)]
_PASS: list[Action] = [Action(s, "pass") for s in range(MAX_SEATS)]
_TAKE: list[Action] = [Action(s, "take_trump") for s in range(MAX_SEATS)]
_CARD: list[list[Action]] = [
    [Action(s, "card", card=CARD_NAMES[c]) for c in range(52)] for s in range(MAX_SEATS)
]
_new_event = tuple.__new__
"""Builds an Event or Action from a full tuple, skipping the NamedTuple's Python-level
keyword handling: a measurable saving on the paths taken for every action."""
_ACTION_KINDS = frozenset({"play", "pass", "discard", "take_trump", "card", "take_back"})


class HandResult(NamedTuple):
    """The settlement of a hand (rules/bourre.md §4, §7), seat numbers throughout.

    ``pot`` is the pot at stake (after antes and any second antes); ``carry`` what stays in
    the pot after settlement, bourré payments included; ``next_exempt`` the seats that do
    not ante next hand (bourré, or tied in a split pot).
    """

    dealer: int
    trump: str
    pot: int
    players: tuple[int, ...]
    tricks: dict[int, int]
    winner: int | None
    won: int
    bourre: tuple[int, ...]
    bourre_payment: int
    carry: int
    stacks: tuple[int, ...]
    next_exempt: frozenset[int]


def _not_enough_players() -> EngineError:
    return EngineError(
        "not_enough_players",
        "A hand needs at least two players who can cover their ante.",
        reason="cannot be dealt: fewer than two players can cover their ante",
    )


class BourreHand:
    """A hand of Bourré: antes and deal on construction, then ``apply`` actions until over."""

    __slots__ = (
        "_ace_rule",
        "_always",
        "_cache",
        "_cap",
        "_cinch",
        "_must_beat",
        "_simultaneous",
        "_throw_off",
        "actions",
        "alive",
        "antes",
        "awaiting_draw",
        "commits",
        "completed",
        "dealer",
        "dealt",
        "decl_pos",
        "discards",
        "drawn",
        "hand_size",
        "hands",
        "initial_pot",
        "initial_stacks",
        "known_out",
        "led",
        "n",
        "n_players",
        "next_seat",
        "order",
        "pending",
        "phase",
        "played",
        "players",
        "pool",
        "pot",
        "public_out",
        "queue",
        "queue_pos",
        "reshuffles",
        "result",
        "rules",
        "sitting_out",
        "source",
        "stacks",
        "status",
        "stock",
        "took_trump",
        "top_led",
        "top_led_seat",
        "top_trump",
        "top_trump_seat",
        "trick",
        "trick_leader",
        "tricks_done",
        "tricks_won",
        "trump",
        "trump_mask",
        "turn",
        "turned",
        "turned_dead",
        "version",
    )

    def __init__(
        self,
        rules: BourreRules,
        stacks: list[int],
        button: int,
        source: DeckSource,
        *,
        pot: int = 0,
        exempt: Iterable[int] = (),
        sitting_out: Iterable[int] = (),
    ) -> None:
        n = len(stacks)
        if not 2 <= n <= MAX_SEATS:
            raise EngineError("bad_table", "A Bourré table seats 2 to 8 players.")
        if not 0 <= button < n:
            raise EngineError("bad_table", "The dealer button must be on a seat.")
        if pot < 0 or any(s < 0 for s in stacks):
            raise EngineError("bad_table", "Stacks and pot cannot be negative.")
        self.rules = rules
        self.n = n
        self.stacks = list(stacks)
        self.initial_stacks = tuple(stacks)
        self.pot = pot
        self.initial_pot = pot
        self.source = source
        self.hand_size = rules.hand_size
        self._must_beat = rules.must_beat
        self._always = rules.must_trump == "always"
        self._throw_off = rules.allow_throw_off
        self._cinch = rules.cinch_rule
        self._cap = rules.discard_cap
        self._simultaneous = rules.declare == "simultaneous"
        self.version = 0
        self._cache: tuple[int, int, int, int] = (-1, -1, 0, 0)
        self.actions: list[Action] = []
        self.reshuffles: list[list[int]] = []
        self.result: HandResult | None = None
        self.sitting_out = frozenset(sitting_out)

        dealer, owed = self._seat_players(button, frozenset(exempt), self.sitting_out)
        self.dealer = dealer
        self.order = tuple((dealer + 1 + i) % n for i in range(n) if (dealer + 1 + i) % n in owed)
        self.status = [OUT] * n
        self.alive = len(self.order)  # seats dealt in that have not folded
        for seat in self.order:
            self.status[seat] = UNDECLARED
        for seat in self.order:
            if owed[seat]:
                self.stacks[seat] -= owed[seat]
                self.pot += owed[seat]
        self.antes = {s: owed[s] for s in self.order if owed[s]}
        self._deal()

        self.phase = DECLARE
        self.decl_pos = 0
        self.pending: set[int] = set()
        self.commits: dict[int, bool] = {}
        self.awaiting_draw = False
        self.queue: tuple[int, ...] = ()
        self.queue_pos = 0
        self.took_trump = False
        self.players: tuple[int, ...] = ()
        self.n_players = 0
        self.next_seat = [-1] * n
        self.trick: list[tuple[int, int]] = []
        self.trick_leader = -1
        self.led = -1
        self.top_led = -1
        self.top_led_seat = -1
        self.top_trump = -1
        self.top_trump_seat = -1
        self.tricks_done = 0
        self.tricks_won = [0] * n
        self.completed: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        if self._simultaneous:
            self.turn = -1
            self.pending = set(self.order)
        else:
            self.turn = self.order[0]

    # ------------------------------------------------------------------ setup (§2, §3)

    def _seat_players(
        self, button: int, exempt: frozenset[int], sitting_out: frozenset[int]
    ) -> tuple[int, dict[int, int]]:
        """Who is dealt in, who deals, and the ante each owes (rules/bourre.md §2).

        A seat is dealt in only if its stack is above zero and covers the ante it owes.
        The dealer is the first seat dealt in from the button clockwise.

        ``dealer_for_all`` (§2, "this rule decides who deals"): from the button going left
        over the seats with chips, the seat asked owes ``ante`` x (the seats with chips less
        those that already sat out). If it cannot cover that, it sits out the hand (not dealt
        in at all) and the next seat is asked; the first that can pays it, deals, and every
        later seat with chips is dealt in owing nothing. Fewer than two left: no hand.
        """
        rules = self.rules
        ante = rules.ante
        n = self.n
        able = [s for s in range(n) if self.stacks[s] > 0 and s not in sitting_out]
        clockwise = [(button + i) % n for i in range(n)]
        if rules.ante_mode == "dealer_for_all":
            asked = [seat for seat in clockwise if seat in able]
            for sat_out, seat in enumerate(asked[:-1]):  # two must be left to deal
                dealt_in = asked[sat_out:]
                total = ante * len(dealt_in)
                if self.stacks[seat] >= total:
                    owed = dict.fromkeys(dealt_in, 0)
                    owed[seat] = total
                    return seat, owed
            raise _not_enough_players()
        owed = {}
        for seat in able:
            due = ante if rules.double_ante or seat not in exempt else 0
            if self.stacks[seat] >= due:
                owed[seat] = due
        if len(owed) < 2:
            raise _not_enough_players()
        dealer = next(seat for seat in clockwise if seat in owed)
        return dealer, owed

    def _deal(self) -> None:
        """Deal ``hand_size`` cards one at a time from the dealer's left; turn the trump (§3)."""
        deck = self.source.deck()
        hands = [0] * self.n
        pos = 0
        for _ in range(self.hand_size):
            for seat in self.order:
                hands[seat] |= 1 << deck[pos]
                pos += 1
        if self.rules.trump_card == "dealer_keeps":
            self.turned = deck[pos - 1]  # the dealer's last card, dealt face up
            self.turned_dead = False
        else:
            self.turned = deck[pos]
            pos += 1
            self.turned_dead = True
        self.hands = hands
        self.stock = deck[pos:][::-1]  # top of the stock at the end, for pop()
        self.trump = self.turned // 13
        self.trump_mask = SUIT_MASKS[self.trump]
        self.played = 0
        self.pool = 0
        self.discards = [0] * self.n
        self.drawn = 0  # seats (as bits) that have made their draw, even of no card
        turned_bit = 1 << self.turned
        self.public_out = turned_bit if self.turned_dead else 0
        self.known_out = [self.public_out] * self.n
        self._ace_rule = (
            self.rules.ace_trump_dealer_must_play
            and not self.turned_dead
            and self.turned % 13 == ACE
        )
        self.dealt = tuple(hands)

    @property
    def start_events(self) -> list[Event]:
        """What the antes and the deal told everyone: built on demand, not on the hot path."""
        events = [
            Event(
                "hand_started",
                None,
                {
                    "dealer": self.dealer,
                    "dealt_in": list(self.order),
                    "antes": dict(self.antes),
                    "pot": self.initial_pot + sum(self.antes.values()),
                },
            )
        ]
        for seat in self.order:
            events.append(Event("dealt", seat, {"cards": names_in(self.dealt[seat])}, seat))
        events.append(
            Event(
                "trump_turned",
                None,
                {
                    "card": CARD_NAMES[self.turned],
                    "suit": SUITS[self.trump],
                    "dealer_holds": self.rules.trump_card == "dealer_keeps",
                },
            )
        )
        return events

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, or every undeclared seat when simultaneous."""
        if self.phase == OVER:
            return ()
        if self.phase == DECLARE and self._simultaneous:
            return tuple(s for s in self.order if s in self.pending)
        return (self.turn,)

    def may_act(self, seat: int) -> bool:
        if self.phase == OVER:
            return False
        if self.phase == DECLARE and self._simultaneous:
            return seat in self.pending
        return seat == self.turn

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Everything ``seat`` may do now (empty when it is not their turn).

        A list, except in the draw where it is a :class:`DiscardChoices`: the same exact
        sequence of actions, built on access because there can be 63 of them.
        """
        phase = self.phase
        if phase == TRICKS:
            if seat != self.turn or type(seat) is not int:
                return []
            legal = self._card_legality(seat)[0]
            row = _CARD[seat]
            out = []
            while legal:
                low = legal & -legal
                out.append(row[low.bit_length() - 1])
                legal ^= low
            return out
        if not isinstance(seat, int) or not 0 <= seat < self.n or not self.may_act(seat):
            return []
        if phase == DRAW or (phase == DECLARE and self.awaiting_draw):
            return self._draw_options(seat)
        second = phase == SECOND
        actions = []
        play_ok = self._play_refusal(seat, second) is None
        if play_ok:
            actions.append(_PLAY[seat])
        if not (play_ok and not second and self._dealer_must_play(seat)):
            actions.append(_PASS[seat])
        return actions

    def legal_cards(self, seat: int) -> list[str]:
        """The cards ``seat`` may play now, in notation (empty outside their trick turn)."""
        if self.phase != TRICKS or seat != self.turn:
            return []
        return names_in(self._card_legality(seat)[0])

    def view(self, seat: int | None) -> dict[str, Any]:
        from app.engine.bourre.view import build_view

        return build_view(self, seat)

    def card_zones(self) -> dict[str, int]:
        """Where every card is, as masks (for audits and tests): each card in one zone."""
        zones = {f"hand:{s}": self.hands[s] for s in range(self.n) if self.status[s] != OUT}
        zones["stock"] = sum(1 << c for c in self.stock)
        zones["out_of_play"] = self.pool
        zones["played"] = self.played
        zones["turned"] = (1 << self.turned) if self.turned_dead else 0
        return zones

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        """Verify ``action`` fully, then apply it; returns the events it caused."""
        seat = action.seat
        phase = self.phase
        if phase == TRICKS and seat == self.turn and action.kind == "card" and type(seat) is int:
            # The hot path: a card played by the seat to act.
            events = self._play_card(seat, action.card)
            self.actions.append(action)
            self.version += 1
            return events
        if phase == OVER:
            raise EngineError(
                "hand_over", "The hand is over.", reason="acted after the end of the hand"
            )
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise EngineError(
                "no_such_seat",
                f"There is no seat {seat!r}.",
                reason="is not a seat at the table",
                details={"seat": str(seat)},
            )
        if not self.may_act(seat):
            raise self._not_your_turn(seat)
        kind = action.kind
        if phase == TRICKS and kind == "card":
            events = self._play_card(seat, action.card)
        elif kind not in _ACTION_KINDS:
            raise EngineError(
                "unknown_action",
                f"{kind!r} is not a Bourré action.",
                reason=f"sent an unknown action {kind!r}",
                details={"action": kind},
            )
        elif kind == "take_back":
            raise EngineError(
                "take_back_not_allowed",
                "Cards cannot be taken back: illegal cards are refused at this table.",
                reason="cannot take a card back (reneges are prevented at this table)",
            )
        elif phase == DRAW or (phase == DECLARE and self.awaiting_draw):
            events = self._draw_action(seat, action)
        elif phase == DECLARE and kind in ("play", "pass"):
            events = self._declare(seat, kind == "play")
        elif phase == SECOND and kind in ("play", "pass"):
            events = self._declare_again(seat, kind == "play")
        else:
            raise self._wrong_phase(kind)
        self.actions.append(action)
        self.version += 1
        return events

    def _not_your_turn(self, seat: int) -> EngineError:
        status = self.status[seat]
        if status == OUT:
            why = "not_dealt_in"
            message = "You are not dealt in this hand."
            reason = "is not dealt in this hand"
        elif status == FOLDED:
            why = "passed"
            message = "You have passed this hand."
            reason = "has passed this hand"
        elif self.phase == DECLARE and self._simultaneous:
            why = "declared"
            message = "You have already declared."
            reason = "has already declared"
        else:
            why = "other_seat"
            message = f"It is seat {self.turn}'s turn, not yours."
            reason = f"acted out of turn (seat {self.turn} to act)"
        details = {"why": why, "turn": self.turn}
        return EngineError("not_your_turn", message, reason=reason, details=details)

    def _wrong_phase(self, kind: str) -> EngineError:
        if self.phase == DRAW or self.awaiting_draw:
            expected = "exchange cards (discard)"
            wanted: tuple[str, ...] = ("discard",)
        else:
            expected = {
                DECLARE: "declare: play or pass",
                SECOND: "declare again: play or pass",
                TRICKS: "play a card",
            }[self.phase]
            wanted = ("card",) if self.phase == TRICKS else ("play", "pass")
        return EngineError(
            "wrong_phase",
            f"You cannot {kind.replace('_', ' ')} now: it is time to {expected}.",
            reason=f"sent {kind!r} when it was time to {expected}",
            details={"action": kind, "expected": wanted},
        )

    # ------------------------------------------------------------------ declaration (§4, §7)

    def _dealer_must_play(self, seat: int) -> bool:
        """§3: the dealer who turned an ace (dealer_keeps) may not pass in the first round.

        Only the first round: at a ``second_chance`` declaration the dealer may have
        exchanged the ace, and the rule's reason ("this costs the dealer nothing") is gone.

        Interpretation (§3 vs §7): if the dealer cannot cover the liability, the liability
        rule wins and the dealer must pass, since no stack may ever go negative.
        """
        return self._ace_rule and seat == self.dealer

    def _play_refusal(self, seat: int, second: bool) -> EngineError | None:
        """Why ``seat`` may not declare play now, or None (§4 entry requirement, §7 liability).

        The entry requirement (a trump or a club) applies at the first declaration only: at
        the ``second_chance`` declaration a player who declared play may stay in whatever the
        draw left them holding (rules/bourre.md §4). The liability is the player's own extra
        ante plus the largest pot the hand can still reach in this round, capped at
        ``pot_limit``; it is checked in both rounds (§7).
        """
        rules = self.rules
        if (
            not second
            and rules.entry_requirement == "trump_or_club"
            and not self.hands[seat] & (self.trump_mask | SUIT_MASKS[CLUBS])
        ):
            return EngineError(
                "entry_requirement",
                "You hold no trump and no club: you must pass.",
                reason="holds no trump and no club and may not play",
            )
        ante = rules.ante
        if second:
            own = ante
            others = ante * (len(self.queue) - self.queue_pos)
        elif rules.double_ante:
            own = ante
            waiting = len(self.order) if self._simultaneous else len(self.order) - self.decl_pos
            others = ante * waiting
        else:
            own = others = 0
        worst = self.pot + others
        if rules.pot_limit is not None and worst > rules.pot_limit:
            worst = rules.pot_limit
        if self.stacks[seat] < own + worst:
            extra = f"an ante of {own} plus " if own else ""
            return EngineError(
                "cannot_cover_liability",
                f"Your stack ({self.stacks[seat]}) cannot cover {extra}a possible bourré of "
                f"{worst}: you must pass.",
                reason=f"cannot cover {extra}a possible bourré of {worst}",
                details={"stack": self.stacks[seat], "needed": own + worst, "ante": own},
            )
        return None

    def _declare(self, seat: int, play: bool) -> list[Event]:
        """First declaration round (§4).

        With ``draw_with_declare`` a *play* keeps the turn: the same seat's next action is its
        exchange (``discard``, after ``take_trump`` for a dealer who may take the turned card),
        so a table log records it as ``play`` then ``discard`` by that seat.
        """
        if play:
            err = self._play_refusal(seat, False)
            if err is not None:
                raise err
        elif self._dealer_must_play(seat) and self._play_refusal(seat, False) is None:
            raise EngineError(
                "dealer_must_play",
                "The ace of trumps was turned to you: you may not pass.",
                reason="turned the ace of trumps and may not pass",
            )
        if self._simultaneous:
            self.commits[seat] = play
            self.pending.discard(seat)
            events = [_new_event(Event, ("committed", seat, {}, None))]
            if not self.pending:
                self._reveal(events)
            return events
        events = [self._record_declaration(seat, play)]
        if play and self.rules.draw_with_declare:
            self.awaiting_draw = True  # the exchange happens in this same turn
            return events
        self._next_declarer(events)
        return events

    def _record_declaration(self, seat: int, play: bool) -> Event:
        paid = 0
        if play:
            self.status[seat] = PLAYING
            if self.rules.double_ante:
                paid = self._pay_ante(seat)
        else:
            self._fold(seat)
        data = {"declaration": "play" if play else "pass", "ante": paid}
        return _new_event(Event, ("declared", seat, data, None))

    def _pay_ante(self, seat: int) -> int:
        ante = self.rules.ante
        self.stacks[seat] -= ante
        self.pot += ante
        return ante

    def _fold(self, seat: int) -> None:
        """§4: a pass folds; the cards go face down to the dealer, out of play."""
        self.status[seat] = FOLDED
        self.alive -= 1
        self.pool |= self.hands[seat]
        self.hands[seat] = 0

    def _next_declarer(self, events: list[Event]) -> None:
        if self.alive == 1:
            survivor = next(s for s in self.order if self.status[s] != FOLDED)
            self._win_without_play(survivor, events)
            return
        self.decl_pos += 1
        if self.decl_pos < len(self.order):
            self.turn = self.order[self.decl_pos]
            return
        if self.rules.draw_with_declare:
            self._after_draw(events)
        else:
            self._start_draw()

    def _reveal(self, events: list[Event]) -> None:
        """§4 simultaneous: reveal every commitment together; second antes are paid now.

        Interpretation (§2 double_ante with §4 simultaneous): the second ante is taken at the
        reveal, since taking it at commitment would show the choice before all are in.
        """
        antes = {}
        for seat in self.order:
            if self.commits[seat]:
                self.status[seat] = PLAYING
                if self.rules.double_ante:
                    antes[seat] = self._pay_ante(seat)
            else:
                self._fold(seat)
        playing = [s for s in self.order if self.status[s] == PLAYING]
        events.append(
            Event(
                "revealed",
                None,
                {
                    "play": playing,
                    "pass": [s for s in self.order if self.status[s] == FOLDED],
                    "antes": antes,
                },
            )
        )
        if not playing:
            self._settle(events, players=(), tricks={}, nobody=True)
        elif len(playing) == 1:
            self._win_without_play(playing[0], events)
        else:
            self._start_draw()

    # ------------------------------------------------------------------ draw (§4)

    def _start_draw(self) -> None:
        self.phase = DRAW
        self.queue = tuple(s for s in self.order if self.status[s] == PLAYING)
        self.queue_pos = 0
        self.turn = self.queue[0]

    def _draw_limits(self) -> tuple[int, int]:
        cap = self._cap
        return (1, cap + 1) if self.took_trump else (0, cap)

    def _may_take_trump(self, seat: int) -> bool:
        return (
            self.rules.trump_card == "dealer_may_take"
            and seat == self.dealer
            and self.turned_dead
            and not self.took_trump
        )

    def _draw_options(self, seat: int) -> DiscardChoices:
        """take_trump if allowed, then every allowed discard, smallest first (built lazily)."""
        lead = (_TAKE[seat],) if self._may_take_trump(seat) else ()
        low, high = self._draw_limits()
        return DiscardChoices(seat, names_in(self.hands[seat]), low, high, lead)

    def _draw_action(self, seat: int, action: Action) -> list[Event]:
        if action.kind == "take_trump":
            if not self._may_take_trump(seat):
                raise EngineError(
                    "cannot_take_trump",
                    "You may not take the turned card now.",
                    reason="may not take the turned card",
                )
            bit = 1 << self.turned
            self.took_trump = True
            self.turned_dead = False
            self.hands[seat] |= bit
            self.public_out &= ~bit
            for p in range(self.n):
                self.known_out[p] &= ~bit
            return [Event("trump_taken", seat, {"card": CARD_NAMES[self.turned]})]
        if action.kind != "discard":
            raise self._wrong_phase(action.kind)
        events = self._discard(seat, action.cards)
        if self.phase == DECLARE:
            self.awaiting_draw = False
            self._next_declarer(events)
            return events
        self.queue_pos += 1
        if self.queue_pos < len(self.queue):
            self.turn = self.queue[self.queue_pos]
        else:
            self._after_draw(events)
        return events

    def _discard(self, seat: int, cards: tuple[str, ...] | None) -> list[Event]:
        """Discard face down and receive as many from the stock (§4, dealer_may_take: one fewer).

        The stock is reshuffled only when a card is needed and none is left, so a draw may
        take the last cards of the stock and go on from the new one.
        """
        if cards is None or isinstance(cards, str):
            raise EngineError(
                "bad_action",
                "A discard lists the cards to exchange (possibly none).",
                reason="sent a discard without a list of cards",
                details={"problem": "discard_without_cards"},
            )
        hand = self.hands[seat]
        mask = 0
        for name in cards:
            card = CARD_INDEX.get(name) if isinstance(name, str) else None
            if card is None:
                raise EngineError(
                    "bad_card",
                    f"{name!r} is not a card.",
                    reason=f"named {name!r}, not a card",
                    details={"card": str(name)[:8]},
                )
            bit = 1 << card
            if mask & bit:
                raise EngineError(
                    "duplicate_card",
                    f"You listed the {name} twice.",
                    reason=f"listed the {name} twice",
                    details={"card": name},
                )
            if not hand & bit:
                raise EngineError(
                    "card_not_held",
                    f"You do not hold the {name}.",
                    reason=f"does not hold {name}",
                    details={"card": name},
                )
            mask |= bit
        count = len(cards)
        low, high = self._draw_limits()
        if count > high:
            raise EngineError(
                "too_many_discards",
                f"You may exchange at most {high} cards.",
                reason=f"discarded {count} cards, more than {high}",
                details={"most": high},
            )
        if count < low:
            raise EngineError(
                "too_few_discards",
                "You took the turned card: discard at least one card.",
                reason="took the turned card and must discard at least one card",
            )
        events: list[Event] = []
        self.hands[seat] = hand & ~mask
        self.discards[seat] |= mask
        self.drawn |= 1 << seat
        self.known_out[seat] |= mask
        face_up: list[str] = []
        turned_bit = 1 << self.turned
        if mask & turned_bit:
            # §6: the dealer's discarded turned card is seen by all: out of play for everyone.
            face_up.append(CARD_NAMES[self.turned])
            self.public_out |= turned_bit
            for p in range(self.n):
                self.known_out[p] |= turned_bit
        wanted = count - 1 if self.took_trump else count
        received = 0
        stock = self.stock
        for _ in range(wanted):
            if not stock:
                self._reshuffle(events)
                stock = self.stock
            received |= 1 << stock.pop()
        self.hands[seat] |= received
        # Only now do these discards join the out-of-play cards: a player's own discards are
        # never reshuffled into the stock they are drawing from (§4).
        self.pool |= mask
        public = {"count": count, "received": wanted, "face_up": face_up}
        private = {"discarded": names_in(mask), "received": names_in(received)}
        events.append(_new_event(Event, ("discarded", seat, public, None)))
        events.append(_new_event(Event, ("drew", seat, private, seat)))
        return events

    def _reshuffle(self, events: list[Event]) -> None:
        """§4: the stock ran out: out-of-play cards become a new stock (one more shuffle).

        Out of play: earlier players' discards and folded hands. A turned card that belongs
        to nobody is not among them: it stays face up, showing trump, for the whole hand.
        """
        index = len(self.reshuffles) + 1
        cards = cards_in(self.pool)
        new_stock = self.source.reshuffle(index, cards)
        self.reshuffles.append(list(new_stock))
        self.stock = new_stock[::-1]
        reshuffled = self.pool
        self.pool = 0
        # §6: a card reshuffled into the stock may come back, so it is live again for the
        # player who discarded it. Discards that were not reshuffled (the drawing player's
        # own) stay known out of play for their owner.
        for p in range(self.n):
            self.known_out[p] &= ~reshuffled
        self.public_out &= ~reshuffled
        events.append(Event("reshuffled", None, {"index": index, "count": len(cards)}))

    def _after_draw(self, events: list[Event]) -> None:
        if self.rules.second_chance:
            self.phase = SECOND
            self.queue = tuple(s for s in self.order if self.status[s] == PLAYING)
            self.queue_pos = 0
            self.turn = self.queue[0]
        else:
            self._start_tricks()

    def _declare_again(self, seat: int, play: bool) -> list[Event]:
        """§4 second_chance: play again (one more ante) or pass; a lone survivor wins."""
        if play:
            err = self._play_refusal(seat, True)
            if err is not None:
                raise err
            paid = self._pay_ante(seat)
        else:
            paid = 0
            self._fold(seat)
        events = [
            Event("declared_again", seat, {"declaration": "play" if play else "pass", "ante": paid})
        ]
        alive = [s for s in self.queue if self.status[s] == PLAYING]
        if len(alive) == 1:
            self._win_without_play(alive[0], events)
            return events
        self.queue_pos += 1
        if self.queue_pos < len(self.queue):
            self.turn = self.queue[self.queue_pos]
        else:
            self._start_tricks()
        return events

    # ------------------------------------------------------------------ tricks (§5, §6)

    def _start_tricks(self) -> None:
        self.phase = TRICKS
        players = tuple(s for s in self.order if self.status[s] == PLAYING)
        self.players = players
        self.n_players = len(players)
        for i, seat in enumerate(players):
            self.next_seat[seat] = players[(i + 1) % len(players)]
        self.turn = self.trick_leader = players[0]  # first player still in, dealer's left

    def _card_legality(self, seat: int) -> tuple[int, int]:
        """(legal mask, rule code) for ``seat`` playing to the current trick; cached."""
        cache = self._cache
        if cache[0] == self.version and cache[1] == seat:
            return cache[2], cache[3]
        hand = self.hands[seat]
        cinch_top = NO_CINCH
        if self._cinch:
            trumps = hand & self.trump_mask
            won = self.tricks_won[seat]
            if won + trumps.bit_count() >= 3 or won >= 3:
                live = self.trump_mask & ~hand & ~self.played & ~self.known_out[seat]
                if holds_cinch(won, trumps, live):
                    cinch_top = highest_trump_equivalents(trumps, live)
        trick_len = len(self.trick)
        legal, code = legal_cards(
            hand,
            self.trump,
            self.led if trick_len else -1,
            self.top_led,
            self.top_trump,
            trick_len == self.n_players - 1,
            self._must_beat,
            self._always,
            self._throw_off,
            cinch_top,
        )
        self._cache = (self.version, seat, legal, code)
        return legal, code

    def _play_card(self, seat: int, name: str | None) -> list[Event]:
        card = CARD_INDEX.get(name) if isinstance(name, str) else None
        if card is None:
            raise EngineError(
                "bad_card",
                f"{name!r} is not a card.",
                reason=f"named {name!r}, not a card",
                details={"card": str(name)[:8]},
            )
        bit = 1 << card
        hand = self.hands[seat]
        if not hand & bit:
            raise EngineError(
                "card_not_held",
                f"You do not hold the {name}.",
                reason=f"does not hold {name}",
                details={"card": name},
            )
        cache = self._cache
        if cache[0] == self.version and cache[1] == seat:
            legal, code = cache[2], cache[3]
        else:
            legal, code = self._card_legality(seat)
        if not legal & bit:
            raise refusal(
                card,
                code,
                legal,
                self.trump,
                self.led,
                self.top_led,
                self.top_trump,
            )
        self.hands[seat] = hand ^ bit
        self.played |= bit
        trick = self.trick
        suit = card // 13
        if not trick:
            self.led = suit
            self.top_led = card
            self.top_led_seat = seat
            self.top_trump = -1
        elif suit == self.led and card > self.top_led:
            self.top_led = card
            self.top_led_seat = seat
        if suit == self.trump and card > self.top_trump:
            self.top_trump = card
            self.top_trump_seat = seat
        trick.append((seat, card))
        events = [_new_event(Event, ("card_played", seat, {"card": name}, None))]
        if len(trick) < self.n_players:
            self.turn = self.next_seat[seat]
            return events
        winner = self.top_trump_seat if self.top_trump >= 0 else self.top_led_seat
        self.tricks_won[winner] += 1
        self.tricks_done += 1
        self.completed.append((self.trick_leader, tuple(trick), winner))
        data = {"number": self.tricks_done, "cards": [CARD_NAMES[c] for _, c in trick]}
        events.append(_new_event(Event, ("trick_won", winner, data, None)))
        self.trick = []
        if self.tricks_done == self.hand_size:
            self._settle(
                events,
                players=self.players,
                tricks={p: self.tricks_won[p] for p in self.players},
            )
        else:
            self.turn = self.trick_leader = winner
        return events

    # ------------------------------------------------------------------ settlement (§4, §7)

    def _win_without_play(self, seat: int, events: list[Event]) -> None:
        """§4: the only player left takes the pot, credited with every trick; no bourré."""
        self.status[seat] = PLAYING
        self.players = (seat,)
        self._settle(events, players=(seat,), tricks={seat: self.hand_size})

    def _settle(
        self,
        events: list[Event],
        *,
        players: tuple[int, ...],
        tricks: dict[int, int],
        nobody: bool = False,
    ) -> None:
        """§7: most tricks takes the pot (capped by pot_limit); ties split; bourré pays.

        A split pot stays on the table and the tied players are exempt next hand; every
        player who played and took no trick pays the pot at stake (capped) into the next pot.
        """
        limit = self.rules.pot_limit
        at_stake = self.pot
        capped = at_stake if limit is None else min(at_stake, limit)
        winner: int | None = None
        won = 0
        exempt: set[int] = set()
        bourre: tuple[int, ...] = ()
        if not nobody:
            best = max(tricks.values())
            leaders = [p for p in players if tricks[p] == best]
            if len(leaders) == 1:
                winner = leaders[0]
                won = capped
                self.stacks[winner] += won
                self.pot -= won
            else:
                exempt.update(leaders)
            bourre = tuple(p for p in players if tricks[p] == 0)
            for p in bourre:
                self.stacks[p] -= capped
                self.pot += capped
            exempt.update(bourre)
        self.result = HandResult(
            dealer=self.dealer,
            trump=SUITS[self.trump],
            pot=at_stake,
            players=players,
            tricks=tricks,
            winner=winner,
            won=won,
            bourre=bourre,
            bourre_payment=capped if bourre else 0,
            carry=self.pot,
            stacks=tuple(self.stacks),
            next_exempt=frozenset(exempt),
        )
        self.phase = OVER
        self.turn = -1
        events.append(
            Event(
                "hand_over",
                None,
                {
                    "pot": at_stake,
                    "players": list(players),
                    "tricks": dict(tricks),
                    "winner": winner,
                    "won": won,
                    "bourre": list(bourre),
                    "carry": self.pot,
                },
            )
        )


def new_hand(
    rules: BourreRules,
    stacks: list[int],
    button: int,
    seed: bytes,
    *,
    pot: int = 0,
    exempt: Iterable[int] = (),
) -> BourreHand:
    """A hand dealt from ``seed`` (convenience for callers without a session)."""
    return BourreHand(rules, stacks, button, SeededDeck(seed), pot=pot, exempt=exempt)
