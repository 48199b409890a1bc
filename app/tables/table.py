"""A live table's state and decisions, with no I/O (DESIGN.md, "Table runtime").

`TableCore` holds everything a table knows between two commands: its seats, the pot, the
running hand around the engine, the versioned event log, the timers, the client ids it has
already answered. Its methods take plain values (member ids, seat numbers, engine actions,
the current time `now`) and return plain results: the logged events to send, the views to
show, what to store. They never wait, never read the clock, never touch the database or a
socket: the actor (app/tables/actor.py) does that around them, in an order that keeps the
write-ahead promise (nothing is told before it is stored). So every rule of the table can
be tested by calling it, without a server.

The wire format is not decided here either: the event log encodes each event with the
encoder it is given, and a view is a plain mapping that the WebSocket layer serialises.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from typing import Any

from app.engine import log as table_log
from app.engine.base import Action, EngineError, Event
from app.engine.driver import GameDriver, HandOutcome, LiveHand, TableSeating, timeout_said
from app.engine.logdoc import MalformedLog
from app.engine.registry import driver
from app.engine.rng import (
    commitment,
    contributions_to_hex,
    mixed_seed,
    new_seed,
    seed_from_hex,
    seed_to_hex,
)
from app.errors import Conflict, SalonError
from app.i18n import _
from app.tables.events import Encode, EventLog, LoggedEvent
from app.tables.values import SeatInfo, SeatsAfterHand, SeatTimer, TableInfo

# Hands in a row the timer may play for someone before they are sat out.
TIMEOUTS_BEFORE_SIT_OUT = 2
# Client action ids remembered per table, so a resent action applies once.
REMEMBERED_CLIENT_IDS = 2048

OPEN = "open"
PAUSED = "paused"
CLOSED = "closed"
STATUSES = (OPEN, PAUSED, CLOSED)


class ActionRefused(SalonError):
    """An action the engine or the table refused; nothing changed."""

    status_code = 409
    # The engine's refusal behind it, if it is one: its sentence is made for the player
    # outside this core, in their language (app/tables/refusal_words.py).
    refusal: EngineError | None = None

    @classmethod
    def of(cls, error: EngineError) -> ActionRefused:
        refused = cls(error.code, error.message, **error.details)
        refused.refusal = error
        return refused


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A player's action as asked, in the engine's terms: what the WebSocket layer makes of
    a client's `action` message. `id` is the client's own id for it (a resent action is
    answered once); `version` the table version the client acted on, if it said."""

    id: str
    action: str
    card: str | None = None
    cards: tuple[str, ...] | None = None
    amount: int | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Duplicate:
    """The answer to an action already applied under the same client id."""

    version: int


@dataclass
class NextHand:
    """The coming hand's server seed, drawn when its countdown starts so that its commitment
    is public before any player contributes, and the contributions received since, by
    member (a member's seat may still change before the deal: Bouillotte's first seating)."""

    server_seed: bytes
    commitment: str
    contributions: dict[int, bytes]  # member id → 32 bytes

    @classmethod
    def draw(cls) -> NextHand:
        server_seed = new_seed()
        return cls(server_seed, commitment(server_seed), {})


@dataclass
class RunningHand:
    """The hand being played, with what the table keeps around the engine."""

    row_id: int
    number: int
    seed: bytes  # what the hand is dealt and replayed from: the mixed seed
    commitment: str
    # None for a hand stored before contributions existed (its commitment is the seed's).
    server_seed: bytes | None
    contributions: dict[str, str]  # seat (as text) → hex, as published
    live: LiveHand
    players: dict[int, int]  # seat → member id, as dealt
    stacks_before: list[int]
    pot_before: int
    seq: int = 0
    timed_out: set[int] = field(default_factory=set)
    # What the turn timer did in this hand, in order: (seat, what everyone was told).
    timeouts: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # The hand's events so far, in order, each with its audience: a page opened (or
    # reconnected) mid-hand rebuilds its hand log from those its seat may see.
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class StoredAction:
    """An action of the running hand as it was stored, for rebuilding the hand."""

    action: Action
    user_id: int | None  # None: the turn timer acted
    client_id: str | None
    version: int


@dataclass(frozen=True, slots=True)
class Applied:
    """An action the engine accepted, not yet stored: what to store, and what to tell."""

    action: Action
    events: list[Event]
    version: int  # the table version once its events are logged
    hand_id: int
    seq: int  # its place in the hand


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand dealt by the engine and not yet stored: what `hands.begin_hand` stores, and
    the opening events to log once it is."""

    number: int
    seed: bytes
    pending: NextHand
    contributions: dict[str, str]
    live: LiveHand
    header: dict[str, Any]
    players: dict[int, int]
    stacks: list[int]
    away: list[int]
    state: dict[str, Any]
    pot: int
    opening: list[Event]
    version: int

    def stored_players(self) -> dict[str, Any]:
        """Who was dealt in, as the hand row keeps them (for settling and rebuilding)."""
        return {
            "users": {str(k): v for k, v in self.players.items()},
            "sitting_out": self.away,
            "state": self.state,
        }


@dataclass(frozen=True, slots=True)
class HandEnd:
    """A finished hand's outcome, before it is settled: the settlement's figures, and the
    report everyone is shown."""

    hand: RunningHand
    names: list[str]
    outcome: HandOutcome
    report: dict[str, Any]
    version: int  # the version of the `hand_over` event
    timed_out: frozenset[int]


def told(event: Event) -> dict[str, Any]:
    """An event's data as the table tells it: with the seat it concerns, if any (the same
    for a live frame and for a hand log rebuilt on reconnection)."""
    data = dict(event.data)
    return {"seat": event.seat, **data} if event.seat is not None else data


class TableCore:
    def __init__(
        self,
        table: TableInfo,
        seats: Iterable[SeatInfo],
        *,
        pot: int,
        version: int,
        encode: Encode,
        next_hand_seconds: float,
        gathering_seconds: float | None = None,
        game_version: int | None = None,
    ) -> None:
        """`version`: the one the event log starts from (the run's epoch); `game_version`:
        that of the last stored change to the game, if older (a previous run's)."""
        self.next_hand_seconds = next_hand_seconds
        # The club's gathering countdown (a table may set its own): the wait before a hand
        # when play starts or starts again, so that a player arriving a moment later is
        # dealt in. Between two hands, the shorter `next_hand_seconds`.
        self.gathering_seconds = (
            next_hand_seconds if gathering_seconds is None else gathering_seconds
        )
        self.table = table
        self.driver: GameDriver = driver(table.game)
        self.rules: Any = self.driver.parse_rules(table.rules)
        self.seats: dict[int, SeatInfo] = {}
        self.pot = pot
        self.hand: RunningHand | None = None
        self.events = EventLog(encode, start_version=version)
        # The version of the last change to the game itself (not chat): actions taken on
        # an older view are stale. After a restart, a previous run's: the game is as it was
        # stored then, so an action decided on it (and sent again) is not stale.
        self.game_version = version if game_version is None else game_version
        self.turn_deadline: float | None = None
        self.next_hand_at: float | None = None
        # The server seed committed to for the hand the countdown leads to.
        self.next_hand: NextHand | None = None
        # While the countdown is a gathering one: the members who pressed "Deal now".
        self.gathering: set[int] | None = None
        self.closing = False
        # The admin who asked for the close a running hand delays: the close is logged
        # under their name when it happens.
        self.closing_by: int | None = None
        self.last_result: dict[str, Any] | None = None
        self.client_ids: OrderedDict[tuple[int, str], int] = OrderedDict()
        self.set_seats(seats)

    def drop_hand(self) -> None:
        """Forget the running hand (its engine moved past what is stored): it is rebuilt
        from the database by `restore`, if it can be read again."""
        self.hand = None
        self.turn_deadline = None

    def stop_countdown(self) -> None:
        """No deal is coming (the table's database stopped answering): the countdown starts
        afresh, with its gathering, once the table is read back."""
        self.next_hand_at = None
        self.next_hand = None
        self.gathering = None

    def reload(
        self, table: TableInfo, seats: Iterable[SeatInfo], *, pot: int, game_version: int
    ) -> None:
        """Back to what is stored (after a write failed): the hand is dropped and the rest of
        the table read again, with the version of the last stored change to the game. The
        log goes on, its version never going back: every event in it was shown (nothing is
        told before it is stored), and its versions must not name other events now."""
        self.drop_hand()
        self.table = table
        self.driver = driver(table.game)
        self.rules = self.driver.parse_rules(table.rules)
        self.set_seats(seats)
        self.pot = pot
        self.game_version = game_version

    # ------------------------------------------------------------------ table and seats

    def set_table(self, table: TableInfo) -> None:
        """The stored table as last read; its house rules are parsed again when they changed."""
        if table.rules != self.table.rules or table.game != self.table.game:
            self.driver = driver(table.game)
            self.rules = self.driver.parse_rules(table.rules)
        self.table = table

    def set_seats(self, seats: Iterable[SeatInfo]) -> None:
        self.seats = {s.seat_no: s for s in seats}

    def seat_of_user(self, user_id: int) -> int | None:
        for seat_no, seat in self.seats.items():
            if seat.user_id == user_id:
                return seat_no
        return None

    def eligible(self) -> list[int]:
        """The seats a hand would be dealt to: with chips, not sitting out, not leaving."""
        return [
            n for n, s in self.seats.items() if s.stack > 0 and not s.sitting_out and not s.leaving
        ]

    def in_hand(self, user_id: int) -> bool:
        """Whether this member's chips are at stake in the running hand (dealt in, even if
        they have since passed or folded: the settlement still moves their chips)."""
        hand = self.hand
        seat = self.seat_of_user(user_id)
        return (
            hand is not None
            and seat is not None
            and hand.players.get(seat) == user_id
            and seat in hand.live.dealt_in
        )

    def check_may_sit(self) -> None:
        if self.closing or self.table.status == CLOSED:
            raise Conflict("table_closed", _("This table is closing."))

    def check_may_top_up(self, user_id: int) -> None:
        if self.in_hand(user_id):
            raise Conflict("hand_in_progress", _("You can top up when your hand is over."))

    def check_may_watch(self, user_id: int) -> None:
        if self.seat_of_user(user_id) is None and not self.table.allow_spectators:
            raise ActionRefused("no_spectators", _("This table does not allow spectators."))

    def seats_changed(self, kind: str, seat: int | None, now: float) -> list[LoggedEvent]:
        """Someone sat, stood, left or came back: a countdown may start, everyone is told."""
        self.schedule_next_hand(now)
        return self.publish([Event(kind, seat, {})])

    def presence_changed(self, user_id: int, sockets: int, *, joined: bool) -> list[LoggedEvent]:
        """A seated member's first socket opened or last one closed (`sockets`: how many
        they have now): everyone sees the seat go online or offline (an offline player's
        turns are left to the timer). Nothing for spectators or other sockets."""
        seat = self.seat_of_user(user_id)
        if seat is None or sockets != (1 if joined else 0):
            return []
        return self.publish([Event("online" if joined else "offline", seat, {})])

    def names(self) -> list[str]:
        """Unique table-log names: the member's username, or a placeholder for an empty seat."""
        return [
            self.seats[n].username if n in self.seats else f"empty-{n}"
            for n in range(self.table.seat_count)
        ]

    def names_at_deal(self, hand: RunningHand) -> list[str]:
        names = self.names()
        # Seats emptied during the hand keep the name they were dealt under.
        for seat, user_id in hand.players.items():
            if seat not in self.seats or self.seats[seat].user_id != user_id:
                names[seat] = f"player-{user_id}"
        return names

    # ------------------------------------------------------------------ status

    def start_closing(self, by_admin: int | None) -> list[LoggedEvent]:
        """A close asked during a hand: it happens when the hand is over; no next hand."""
        self.closing = True
        self.closing_by = by_admin
        self.next_hand_at = None
        self.gathering = None
        return self.publish([Event("closing", None, {})])

    def status_set(self, table: TableInfo, now: float) -> list[LoggedEvent]:
        """The table was paused or opened again (stored): the countdown follows."""
        self.set_table(table)
        self.schedule_next_hand(now)
        return self.publish([Event(table.status, None, {})])

    def closed(self, table: TableInfo, seats: Iterable[SeatInfo]) -> list[LoggedEvent]:
        """The table was closed (stored): every stack and the pot were returned."""
        self.set_table(table)
        self.set_seats(seats)
        self.pot = 0
        self.closing = False
        self.next_hand_at = None
        self.gathering = None
        return self.publish([Event("closed", None, {})])

    # ------------------------------------------------------------------ events and views

    def publish(self, events: Iterable[Event]) -> list[LoggedEvent]:
        """Log engine or table events under the next versions, each with its audience."""
        return [
            self.events.append(e.kind, told(e), None if e.to is None else frozenset({e.to}))
            for e in events
        ]

    def missed(self, version: int, seat: int | None) -> list[LoggedEvent]:
        """What a viewer missed after `version` (nothing if only a snapshot can help: it is
        sent one anyway)."""
        return self.events.since(version, seat) or []

    def view(self, seat: int | None, now: float, connected: Set[int]) -> dict[str, Any]:
        """What one viewer sees of the table: public seat information, the hand as the
        engine shows it to that seat, the timer, the last result."""
        public = self.public_view(now, connected)
        private = self.private_view(seat)
        return {
            "table": public["table"],
            "seats": public["seats"],
            "you": private["you"],
            "pot": public["pot"],
            "hand": private["hand"],
            "turn_ends_in": public["turn_ends_in"],
            "next_hand_in": public["next_hand_in"],
            "next_hand": public["next_hand"],
            "last_result": public["last_result"],
            "waiting_for": public["waiting_for"],
            "gathering": public["gathering"],
        }

    def private_view(self, seat: int | None) -> dict[str, Any]:
        """The parts of a view that depend on the viewer: who they are, and the hand as the
        engine shows it to them (their own cards, never another seat's)."""
        hand_view: dict[str, Any] | None = None
        if self.hand is not None:
            hand_view = {
                "number": self.hand.number,
                "commitment": self.hand.commitment,
                **self.hand.live.game.view(seat),
            }
        you: dict[str, Any] = {"seat": seat}
        if self.hand is not None and seat is not None and seat in self.seats:
            # Seated during the hand: dealt in at the next one.
            you["dealt_in"] = (
                seat in self.hand.live.dealt_in
                and self.hand.players.get(seat) == self.seats[seat].user_id
            )
        return {"you": you, "hand": hand_view}

    def hand_log(self, user_id: int) -> dict[str, Any]:
        """The running hand's events that this member may see, in order, for their page to
        rebuild its hand log on every (re)connection: the public ones, and those meant for
        their seat only if they were dealt in on it (never another seat's cards, nor those
        of whoever held the seat before). No hand: no events."""
        hand = self.hand
        if hand is None:
            return {"hand": None, "events": []}
        seat = self.seat_of_user(user_id)
        own = seat if seat is not None and hand.players.get(seat) == user_id else None
        shown = [e for e in hand.events if e.to is None or (own is not None and e.to == own)]
        return {
            "hand": hand.number,
            "events": [{"kind": e.kind, "data": told(e)} for e in shown],
        }

    def public_view(self, now: float, connected: Set[int]) -> dict[str, Any]:
        """The parts of a view that are the same for every viewer: built (and encoded) once
        per broadcast, not once per seat. `connected`: the members with a socket open."""
        table = self.table
        return {
            "table": {
                "id": table.id,
                "name": table.name,
                "game": table.game,
                "status": "closing" if self.closing else table.status,
                "rules": table.rules,
                "seat_count": table.seat_count,
                "buy_in_min": table.buy_in_min,
                "buy_in_max": table.buy_in_max,
                "turn_seconds": table.turn_seconds,
                "practice": table.practice,
                "bot_fill": table.bot_fill,
            },
            "seats": [
                {
                    "seat": s.seat_no,
                    "name": s.display_name,
                    "username": s.username,
                    "stack": s.stack,
                    "sitting_out": s.sitting_out,
                    "leaving": s.leaving,
                    "connected": s.user_id in connected,
                    "bot": s.bot_level,
                    "sat_out_after": self.sat_out_after(s),
                }
                for s in sorted(self.seats.values(), key=lambda s: s.seat_no)
            ],
            "pot": self.pot,
            "turn_ends_in": (
                round(max(0.0, self.turn_deadline - now), 1) if self.turn_deadline else None
            ),
            "next_hand_in": (
                round(max(0.0, self.next_hand_at - now), 1) if self.next_hand_at else None
            ),
            "next_hand": self.next_hand_view(),
            "last_result": self.last_result,
            "waiting_for": self.waiting_for(),
            "gathering": self.gathering_view(),
        }

    def next_hand_view(self) -> dict[str, Any] | None:
        """The commitment to the coming hand's server seed, and the seats whose browsers
        have contributed to it: public while the countdown runs."""
        pending = self.open_contributions()
        if pending is None:
            return None
        seats = (self.seat_of_user(user_id) for user_id in pending.contributions)
        return {
            "commitment": pending.commitment,
            "contributed": sorted(s for s in seats if s is not None),
        }

    def describe(self, connected: Set[int]) -> dict[str, Any]:
        """The table's live summary for the lobby."""
        seated = connected & {s.user_id for s in self.seats.values()}
        return {
            "hand_in_progress": self.hand is not None,
            "hand_number": self.hand.number if self.hand else None,
            "spectators": len(connected - seated),
            "closing": self.closing,
        }

    # ------------------------------------------------------------------ timers

    def next_deadline(self) -> float | None:
        candidates = [d for d in (self.turn_deadline, self.next_hand_at) if d is not None]
        return min(candidates) if candidates else None

    def restart_turn_timer(self, now: float) -> None:
        """A new turn: the player to act has the table's turn time from `now`; no timer
        once the hand is over."""
        if self.hand is None or self.hand.live.game.is_over:
            self.turn_deadline = None
            return
        self.turn_deadline = now + self.table.turn_seconds

    def turn_expired(self, now: float) -> bool:
        return self.turn_deadline is not None and now >= self.turn_deadline and bool(self.hand)

    def time_out(self, seat: int) -> Action:
        """The action the timer takes for a seat that let its turn run out (remembered, so
        that two timed-out hands in a row sit the player out)."""
        assert self.hand is not None
        self.hand.timed_out.add(seat)
        return self.hand.live.timeout_action(seat)

    def next_hand_due(self, now: float) -> bool:
        """Whether the countdown has run out; it is then spent (the deal follows)."""
        if self.next_hand_at is not None and now >= self.next_hand_at:
            self.next_hand_at = None
            self.gathering = None
            return True
        return False

    def schedule_next_hand(self, now: float, *, after_hand: bool = False) -> None:
        """Start the countdown to the next hand when one can be dealt (`can_deal`), or stop
        one that can no longer lead to a deal (a player left, the table paused). Right after
        a hand (`after_hand`) it is the short pause between hands; otherwise play starts or
        starts again, and the countdown is a gathering one (`gathering_seconds`, cut short
        by "Deal now")."""
        if self.hand is not None:
            return
        if self.next_hand_at is not None:
            if self.waiting_for() is not None:
                self.next_hand_at = None
                self.next_hand = None
                self.gathering = None
            return
        if self.waiting_for() is not None:
            return
        if after_hand:
            self.next_hand_at = now + self.next_hand_seconds
            self.gathering = None
        else:
            seconds = self.table.gathering_seconds
            self.next_hand_at = now + (self.gathering_seconds if seconds is None else seconds)
            self.gathering = set()
        # Committed now, before any contribution can arrive (docs/fair-shuffle.md).
        self.next_hand = NextHand.draw()

    def waiting_for(self) -> dict[str, Any] | None:
        """Why no hand can be dealt now, as a stable code and its parameters (the page
        words it); None when nothing stands in the way (a hand is running, or one could be
        dealt). `more_players`: `missing` more players with chips are needed for the
        game's smallest deal (`min`); `broke` the seats whose stack is empty (a new cave or
        a top-up deals them in), `sitting_out` those sitting out with chips."""
        if self.hand is not None:
            return None
        if self.closing or self.table.status == CLOSED:
            return {"code": "table_closed"}
        if self.table.status == PAUSED:
            return {"code": "table_paused"}
        needed = self.driver.min_seats
        able = self.eligible()
        if len(able) >= needed:
            return None
        present = [s for _, s in sorted(self.seats.items()) if not s.leaving]
        return {
            "code": "more_players",
            "min": needed,
            "missing": needed - len(able),
            "broke": [s.seat_no for s in present if s.stack <= 0],
            "sitting_out": [s.seat_no for s in present if s.stack > 0 and s.sitting_out],
        }

    def gathering_view(self) -> dict[str, Any] | None:
        """While a gathering countdown runs: the seats that pressed "Deal now", and the
        seats whose press is still awaited (every person who would be dealt in)."""
        if self.gathering is None or self.next_hand_at is None or self.hand is not None:
            return None
        ready = sorted(s for s in (self.seat_of_user(u) for u in self.gathering) if s is not None)
        awaited = [n for n in self.deal_now_voters() if n not in ready]
        return {"ready": ready, "awaited": awaited}

    def deal_now_voters(self) -> list[int]:
        """The seats whose "Deal now" cuts the gathering: every person who would be dealt
        in (a bot needs no one to wait for)."""
        return [n for n in self.eligible() if self.seats[n].bot_level is None]

    def deal_now(self, user_id: int, now: float) -> list[LoggedEvent]:
        """A seated player asks to deal without waiting out the gathering. The deal starts
        once every person who would be dealt in has asked: nobody is rushed by one eager
        player, and the countdown still runs out for a table where one does not answer."""
        seat = self.seat_of_user(user_id)
        if seat is None:
            raise ActionRefused("not_seated", _("You are watching: take a seat to play."))
        if self.gathering is None or self.next_hand_at is None or self.hand is not None:
            raise ActionRefused("not_gathering", _("No deal is waiting to start."))
        if seat not in self.deal_now_voters():
            raise ActionRefused("not_dealt_in", _("You are not dealt in to the coming hand."))
        if user_id in self.gathering:
            return []
        self.gathering.add(user_id)
        if all(self.seats[n].user_id in self.gathering for n in self.deal_now_voters()):
            self.next_hand_at = now
        return self.publish([Event("deal_now", seat, {})])

    @staticmethod
    def sat_out_after(seat: SeatInfo) -> int | None:
        """How many timed-out hands sat this player out, while they are sitting out
        because of them (None: at the table, or sitting out by their own choice)."""
        if seat.sitting_out and seat.timed_out_hands >= TIMEOUTS_BEFORE_SIT_OUT:
            return seat.timed_out_hands
        return None

    # ------------------------------------------------------------------ the next deal's seed

    def open_contributions(self) -> NextHand | None:
        """The coming hand, while contributions to its seed are taken: from its commitment
        (the countdown's start) until its deal; not during a hand or a pause."""
        if self.hand is not None or self.next_hand_at is None:
            return None
        return self.next_hand

    def contribute(self, user_id: int, value: bytes) -> tuple[dict[str, Any], list[LoggedEvent]]:
        """Take a seated player's random contribution to the coming hand's seed: one per
        member per hand, between the commitment and the deal. Everyone sees who has
        contributed (not the value, which is published with the deal)."""
        seat = self.seat_of_user(user_id)
        if seat is None:
            raise ActionRefused(
                "not_seated", _("You are watching: only seated players add to the deal.")
            )
        pending = self.open_contributions()
        if pending is None:
            raise ActionRefused(
                "entropy_closed",
                _(
                    "No deal is waiting: contributions are taken between a hand's commitment "
                    "and its deal."
                ),
            )
        if user_id in pending.contributions:
            raise ActionRefused(
                "entropy_already_sent", _("Your contribution to this deal has already been taken.")
            )
        pending.contributions[user_id] = value
        data = {"commitment": pending.commitment}
        return data, self.publish([Event("contributed", seat, data)])

    def take_next_hand(self) -> tuple[NextHand, dict[int, bytes]]:
        """The committed server seed for the hand being dealt (a fresh one if no countdown
        led here) and its contributions by seat, the seats as they are at the deal. A
        contributor who has left the table since is not counted; the round is used once."""
        pending = self.next_hand or NextHand.draw()
        self.next_hand = None
        by_seat: dict[int, bytes] = {}
        for user_id, value in pending.contributions.items():
            seat = self.seat_of_user(user_id)
            if seat is not None:
                by_seat[seat] = value
        return pending, by_seat

    # ------------------------------------------------------------------ play

    def remember(self, user_id: int, client_id: str, version: int) -> None:
        self.client_ids[(user_id, client_id)] = version
        while len(self.client_ids) > REMEMBERED_CLIENT_IDS:
            self.client_ids.popitem(last=False)

    def check_action(self, user_id: int, request: ActionRequest) -> Action | Duplicate:
        """The engine action a member asks for, or `Duplicate` if it was already applied
        under this client id; refused when they are not seated, no hand is running, the
        message does not parse, or it was taken on a view older than the last move."""
        key = (user_id, request.id)
        if key in self.client_ids:
            return Duplicate(self.client_ids[key])
        seat = self.seat_of_user(user_id)
        if seat is None:
            raise ActionRefused("not_seated", _("You are watching: take a seat to play."))
        action = self.canonical(seat, request)
        if self.hand is None:
            raise ActionRefused("no_hand", _("No hand is being played at the moment."))
        if request.version is not None and request.version < self.game_version:
            raise ActionRefused(
                "stale_version",
                _("The table moved on since your last update: look again and retry."),
                version=self.events.version,
            )
        return action

    def canonical(self, seat: int, request: ActionRequest) -> Action:
        """The action in the one form the hand history stores, read by the same parser
        that replays it: a field this kind of action does not take (a card on a
        declaration, an amount on a card) is refused here, so every stored hand replays."""
        fields: dict[str, Any] = {
            "action": request.action,
            "card": request.card,
            "cards": list(request.cards) if request.cards is not None else None,
            "amount": request.amount,
        }
        given = {"seat": seat, **{k: v for k, v in fields.items() if v is not None}}
        try:
            return table_log.GAMES[self.table.game].parse_action(given, "action")
        except MalformedLog as error:
            where = error.path.removeprefix("action").lstrip(".") or "action"
            raise ActionRefused(
                "invalid_message",
                _("Invalid message: %(where)s: %(message)s", where=where, message=error.message),
                field=where,
            ) from None

    def apply(self, action: Action, *, timed_out: bool = False) -> Applied:
        """Let the engine verify and apply one action (refused: nothing changed). The
        action is not yet stored: `commit` once it is. `timed_out`: the turn timer acted
        for the seat, and everyone is told so before what it did."""
        hand = self.hand
        assert hand is not None
        try:
            events = hand.live.game.apply(action)
        except EngineError as error:
            raise ActionRefused.of(error) from None
        if timed_out:
            said = timeout_said(action)
            hand.timeouts.append((action.seat, said))
            events = [Event("timed_out", action.seat, said), *events]
        return Applied(action, events, self.events.version + len(events), hand.row_id, hand.seq + 1)

    def commit(
        self, applied: Applied, user_id: int | None, client_id: str | None, now: float
    ) -> list[LoggedEvent]:
        """The action is stored: count it, remember its client id, start the next turn's
        timer (before the frames that tell of the action are built: they show the new
        turn's time, not what was left of the last one), log its events."""
        assert self.hand is not None
        self.hand.seq = applied.seq
        if client_id is not None and user_id is not None:
            self.remember(user_id, client_id, applied.version)
        self.game_version = applied.version
        self.hand.events.extend(applied.events)
        self.restart_turn_timer(now)
        return self.publish(applied.events)

    @property
    def hand_over(self) -> bool:
        """A hand is dealt and the engine says it is over: it is to be settled."""
        return self.hand is not None and self.hand.live.game.is_over

    # ------------------------------------------------------------------ hands

    def may_deal(self) -> bool:
        """Whether a hand may be dealt now; if not, the committed round is dropped."""
        if self.hand is not None or self.table.status != OPEN or self.closing:
            self.next_hand = None
            return False
        return True

    @property
    def first_hand(self) -> bool:
        """Nothing has been dealt at this table yet (its players may be seated anew)."""
        return not self.table.session_state

    def first_seating(self, joined: Sequence[int]) -> TableSeating | None:
        """Where the eligible players (`joined`: their seats, in the order they joined) sit
        for the first hand, and who deals it (None: they stay, the button decides)."""
        return self.driver.first_seating(self.rules, joined, new_seed())

    def seats_drawn(self, seating: TableSeating) -> list[LoggedEvent]:
        """Once the first seating is stored: the cards drawn for it, for everyone to see."""
        if not seating.drawn:
            return []
        seats = [
            {"seat": seat, "name": self.seats[seat].display_name, "card": card}
            for seat, card in seating.drawn.items()
        ]
        return self.publish(
            [Event("seats_drawn", None, {"dealer": seating.dealer, "seats": seats})]
        )

    def deal(self) -> Deal:
        """Deal the next hand from the committed seed and the contributions (the round is
        used up even if the engine refuses to deal: EngineError). Nothing is kept until
        `begin_hand`, once the hand is stored."""
        table = self.table
        stacks = [self.seats[n].stack if n in self.seats else 0 for n in range(table.seat_count)]
        away = sorted(n for n, s in self.seats.items() if s.sitting_out or s.leaving)
        pending, by_seat = self.take_next_hand()
        seed = mixed_seed(pending.server_seed, by_seat)
        contributions = contributions_to_hex(by_seat)
        live = self.driver.deal(self.rules, stacks, self.pot, table.session_state, seed, away)
        names = self.names()
        header = {
            "format": "salon.table-log/1",
            "game": table.game,
            "rules": table.rules,
            "seats": [{"name": names[n], "stack": stacks[n]} for n in range(table.seat_count)],
            "pot": self.pot,
            **self.driver.header(table.session_state),
        }
        number = table.hands_played + 1
        opening = [
            Event(
                "new_hand",
                None,
                {
                    "number": number,
                    "commitment": pending.commitment,
                    "dealer": live.dealer,
                    "contributions": contributions,
                },
            ),
            *live.start_events,
        ]
        return Deal(
            number=number,
            seed=seed,
            pending=pending,
            contributions=contributions,
            live=live,
            header=header,
            players={n: s.user_id for n, s in self.seats.items()},
            stacks=stacks,
            away=away,
            state=table.session_state,
            pot=self.pot,
            opening=opening,
            version=self.events.version + len(opening),
        )

    def begin_hand(self, deal: Deal, row_id: int, now: float) -> list[LoggedEvent]:
        """The dealt hand is stored (as `row_id`): it is the running hand; its opening is
        logged, and the first turn's timer starts now, so the frames that tell of the deal
        already show it."""
        self.hand = RunningHand(
            row_id=row_id,
            number=deal.number,
            seed=deal.seed,
            commitment=deal.pending.commitment,
            server_seed=deal.pending.server_seed,
            contributions=deal.contributions,
            live=deal.live,
            players=deal.players,
            stacks_before=deal.stacks,
            pot_before=deal.pot,
            events=list(deal.opening),
        )
        self.game_version = deal.version
        self.last_result = None
        self.restart_turn_timer(now)
        return self.publish(deal.opening)

    def restore(
        self,
        *,
        row_id: int,
        number: int,
        seed_hex: str,
        commitment: str,
        server_seed_hex: str | None,
        contributions: Mapping[str, str] | None,
        header: Mapping[str, Any],
        players: Mapping[str, Any],
        actions: Sequence[StoredAction],
        now: float,
    ) -> None:
        """Rebuild the hand a previous process was playing, action by action."""
        seed = seed_from_hex(seed_hex)
        stacks = [int(s["stack"]) for s in header["seats"]]
        pot = int(header.get("pot", 0))
        live = self.driver.deal(
            self.rules,
            stacks,
            pot,
            players.get("state", {}),
            seed,
            players.get("sitting_out", []),
        )
        timeouts: list[tuple[int, dict[str, Any]]] = []
        # The hand's events as they were told (the deal's commitment and contributions are
        # the stored ones), for the pages that rebuild their hand log.
        events = [
            Event(
                "new_hand",
                None,
                {
                    "number": number,
                    "commitment": commitment,
                    "dealer": live.dealer,
                    "contributions": dict(contributions or {}),
                },
            ),
            *live.start_events,
        ]
        for stored in actions:
            applied = live.game.apply(stored.action)
            if stored.user_id is None:  # only the turn timer acts for nobody
                said = timeout_said(stored.action)
                timeouts.append((stored.action.seat, said))
                events.append(Event("timed_out", stored.action.seat, said))
            events.extend(applied)
            if stored.client_id and stored.user_id is not None:
                self.remember(stored.user_id, stored.client_id, stored.version)
        self.hand = RunningHand(
            row_id=row_id,
            number=number,
            seed=seed,
            commitment=commitment,
            server_seed=seed_from_hex(server_seed_hex) if server_seed_hex else None,
            contributions=dict(contributions or {}),
            live=live,
            players={int(k): int(v) for k, v in players["users"].items()},
            stacks_before=stacks,
            pot_before=pot,
            seq=len(actions),
            timeouts=timeouts,
            events=events,
        )
        self.restart_turn_timer(now)

    def end_hand(self) -> HandEnd:
        """The running hand is over: its outcome and report, to be settled and stored."""
        hand = self.hand
        assert hand is not None
        names = self.names_at_deal(hand)
        outcome = hand.live.finish(names)
        report = {
            "number": hand.number,
            "hand_id": hand.row_id,
            **outcome.report,
            # Who let the clock run out, and what the timer did for them.
            "timeouts": [{"player": names[seat], **said} for seat, said in hand.timeouts],
            # What a player needs to check the deal (docs/fair-shuffle.md): the seed, the
            # committed server seed and the contributions mixed into it.
            "seed": seed_to_hex(hand.seed),
            "server_seed": seed_to_hex(hand.server_seed) if hand.server_seed else None,
            "contributions": hand.contributions,
        }
        version = self.events.version + 1  # the hand_over event
        return HandEnd(hand, names, outcome, report, version, frozenset(hand.timed_out))

    def seats_after_hand(self, end: HandEnd, *, sit_out_after: int) -> SeatsAfterHand:
        """The turn timer's bookkeeping after `end` (nothing changes yet): `sit_out_after`
        timed-out hands in a row sit a player out; a hand played resets the count. Only
        seats still held by the member dealt in count; whoever asked to leave goes."""
        hand = end.hand
        timers = []
        for seat_no, seat in sorted(self.seats.items()):
            if hand.players.get(seat_no) != seat.user_id:
                continue  # sat down since the deal
            counted, away = seat.timed_out_hands, seat.sitting_out
            if seat_no in end.timed_out:
                counted += 1
                away = away or counted >= sit_out_after
            elif seat_no in hand.live.dealt_in and not seat.sitting_out:
                counted = 0
            if (counted, away) != (seat.timed_out_hands, seat.sitting_out):
                timers.append(SeatTimer(seat_no, seat.user_id, counted, away))
        leaving = tuple(s.user_id for _, s in sorted(self.seats.items()) if s.leaving)
        return SeatsAfterHand(tuple(timers), leaving)

    def hand_settled(self, end: HandEnd, after: SeatsAfterHand) -> None:
        """`end` and `after` are stored: the seats and the table take what the settlement
        wrote (each stack moves by the hand's result, the timers' counts, the state carried
        to the next hand), so they need not be read back. A seat taken since the deal keeps
        its stack. Those who stood up are the caller's to read again."""
        hand = end.hand
        timers = {t.seat_no: t for t in after.timers}
        for seat_no, seat in list(self.seats.items()):
            if hand.players.get(seat_no) != seat.user_id:
                continue
            won = end.outcome.stacks[seat_no] - hand.stacks_before[seat_no]
            timer = timers.get(seat_no)
            self.seats[seat_no] = replace(
                seat,
                stack=seat.stack + won,
                timed_out_hands=timer.timed_out_hands if timer else seat.timed_out_hands,
                sitting_out=timer.sitting_out if timer else seat.sitting_out,
            )
        self.table = replace(
            self.table,
            session_state=end.outcome.state,
            hands_played=self.table.hands_played + 1,
        )

    def display_names_at_deal(self, end: HandEnd) -> dict[str, str] | None:
        """The display name of each player dealt in, by the name the report uses, if every
        one of them still holds their seat (else None: ask the club's records)."""
        names = {}
        for seat_no, user_id in end.hand.players.items():
            seat = self.seats.get(seat_no)
            if seat is None or seat.user_id != user_id:
                return None
            names[end.names[seat_no]] = seat.display_name
        return names

    def hand_finished(self, end: HandEnd, shown: dict[str, Any], now: float) -> list[LoggedEvent]:
        """The hand is settled and stored (`hand_settled`): the pot moves,
        the next countdown starts (unless the table is closing) and everyone sees `shown`.
        The countdown is set before the result is logged, so its frames carry it."""
        self.pot = end.outcome.pot
        self.hand = None
        self.turn_deadline = None
        self.game_version = end.version
        self.last_result = shown
        if not self.closing:
            self.schedule_next_hand(now, after_hand=True)
        return self.publish([Event("hand_over", None, shown)])


__all__ = [
    "REMEMBERED_CLIENT_IDS",
    "TIMEOUTS_BEFORE_SIT_OUT",
    "ActionRefused",
    "ActionRequest",
    "Applied",
    "Deal",
    "Duplicate",
    "HandEnd",
    "NextHand",
    "RunningHand",
    "StoredAction",
    "TableCore",
]
