"""The table core on its own: seats, pots, timers, views, client ids and refusals, with
real engine deals and plain `now` values — no server, no database, no event loop."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from app.engine import log as table_log
from app.engine.base import Action
from app.engine.rng import commitment
from app.tables.events import LoggedEvent
from app.tables.table import (
    REMEMBERED_CLIENT_IDS,
    ActionRefused,
    ActionRequest,
    Duplicate,
    NextHand,
    StoredAction,
    TableCore,
)
from app.tables.values import SeatInfo, TableInfo

TURN = 30
# When a test does not care: the table core is given the time, never reads a clock.
NOW = 100.0
COUNTDOWN = 4.0


def encode(version: int, kind: str, data: Mapping[str, Any]) -> bytes:
    return json.dumps({"version": version, "kind": kind, "data": data}).encode()


def table(**changes: Any) -> TableInfo:
    info = TableInfo(
        id=1,
        name="Test",
        game="bourre",
        status="open",
        rules={},
        seat_count=4,
        buy_in_min=10,
        buy_in_max=500,
        turn_seconds=TURN,
        allow_spectators=True,
        session_state={},
        hands_played=0,
    )
    return replace(info, **changes)


def seat(
    seat_no: int, *, stack: int = 100, sitting_out: bool = False, leaving: bool = False
) -> SeatInfo:
    # Member ids are the seat number plus 10, so a seat and a member are never confused.
    user = seat_no + 10
    return SeatInfo(seat_no, user, f"u{user}", f"User {user}", stack, sitting_out, leaving, 0)


def core(seats: list[SeatInfo] | None = None, *, pot: int = 0, **changes: Any) -> TableCore:
    return TableCore(
        table(**changes),
        seats if seats is not None else [seat(0), seat(1), seat(2)],
        pot=pot,
        version=0,
        encode=encode,
        next_hand_seconds=COUNTDOWN,
    )


def dealt(
    c: TableCore, *, server_seed: bytes = bytes([3]) * 32, now: float = 100.0
) -> list[LoggedEvent]:
    """Deal a hand from a known server seed (no contributions), as the actor would once it
    is stored, and start its turn timer."""
    c.next_hand = NextHand(server_seed, commitment(server_seed), {})
    deal = c.deal()
    return c.begin_hand(deal, row_id=77, now=now)


def legal(c: TableCore) -> tuple[int, Action]:
    """The first legal action of the first seat to act."""
    assert c.hand is not None
    seat_no = c.hand.live.game.to_act()[0]
    choice = c.hand.live.game.view(seat_no)["legal_actions"][0]
    return seat_no, table_log.GAMES["bourre"].parse_action(dict(choice), "action")


def request(action: Action, client_id: str, version: int | None = None) -> ActionRequest:
    return ActionRequest(
        id=client_id,
        action=action.kind,
        card=action.card,
        cards=action.cards,
        amount=action.amount,
        version=version,
    )


def play_out(c: TableCore, now: float = 100.0) -> None:
    """Play the hand to its end, each seat taking its first legal action, as stored."""
    n = 0
    while not c.hand_over:
        seat_no, action = legal(c)
        checked = c.check_action(seat_no + 10, request(action, f"c{n}"))
        assert isinstance(checked, Action)
        c.commit(c.apply(checked), seat_no + 10, f"c{n}", now)
        n += 1


# ---------------------------------------------------------------------------- seats


def test_only_seats_with_chips_present_and_staying_are_eligible() -> None:
    c = core([seat(0), seat(1, stack=0), seat(2, sitting_out=True), seat(3, leaving=True)])
    assert c.eligible() == [0]
    c.set_seats([seat(0), seat(1), seat(2, sitting_out=True)])
    assert sorted(c.eligible()) == [0, 1]


def test_a_seat_sitting_out_or_leaving_is_not_dealt_in() -> None:
    c = core([seat(0), seat(1), seat(2, sitting_out=True), seat(3, leaving=True)])
    c.next_hand = NextHand(bytes(32), commitment(bytes(32)), {})
    deal = c.deal()
    # Still seated, so stored with the hand as away.
    assert deal.away == [2, 3] and deal.stored_players()["sitting_out"] == [2, 3]
    c.begin_hand(deal, row_id=1, now=NOW)
    assert c.hand is not None
    assert c.hand.live.dealt_in == frozenset({0, 1})
    assert c.in_hand(10) and not c.in_hand(12) and not c.in_hand(13)


def test_topping_up_is_refused_only_to_a_player_in_the_hand() -> None:
    c = core([seat(0), seat(1), seat(2, sitting_out=True)])
    dealt(c)
    with pytest.raises(Exception, match="top up when your hand is over"):
        c.check_may_top_up(10)
    c.check_may_top_up(12)  # sitting out: not dealt in


def test_sitting_is_refused_while_closing() -> None:
    c = core()
    c.check_may_sit()
    dealt(c)
    c.start_closing(by_admin=5)
    with pytest.raises(Exception, match="closing"):
        c.check_may_sit()


def test_spectators_only_where_allowed() -> None:
    c = core(allow_spectators=False)
    c.check_may_watch(10)  # seated
    with pytest.raises(ActionRefused) as refused:
        c.check_may_watch(99)
    assert refused.value.code == "no_spectators"


def test_presence_is_told_on_the_first_socket_and_after_the_last() -> None:
    c = core()
    assert [e.kind for e in c.presence_changed(10, 1, joined=True)] == ["online"]
    assert c.presence_changed(10, 2, joined=True) == []  # a second tab
    assert c.presence_changed(10, 1, joined=False) == []
    assert [e.kind for e in c.presence_changed(10, 0, joined=False)] == ["offline"]
    assert c.presence_changed(99, 1, joined=True) == []  # a spectator


# ---------------------------------------------------------------------------- pots


def test_the_pot_is_carried_into_the_deal() -> None:
    c = core(pot=5)
    dealt(c)
    assert c.hand is not None
    assert c.hand.pot_before == 5
    # Three antes of one on top of the pot carried in.
    assert c.hand.live.game.view(None)["pot"] == 8


def test_a_won_hand_moves_the_pot_to_the_winner() -> None:
    c = core(pot=5)
    dealt(c)  # this seed's hand is won by seat 0 when everyone plays the first legal move
    play_out(c)
    end = c.end_hand()
    assert end.report["winner"] == "u10"
    events = c.hand_finished(end, end.report, now=200.0)
    assert [e.kind for e in events] == ["hand_over"]
    assert c.pot == 0 and end.outcome.pot == 0
    assert end.outcome.stacks[:3] == [107, 99, 99]
    # Chips neither appear nor vanish.
    assert sum(end.outcome.stacks) + c.pot == 300 + 5
    assert c.last_result == end.report and c.hand is None


def test_a_hand_nobody_wins_carries_the_pot() -> None:
    c = core(pot=5)
    dealt(c, server_seed=bytes([4]) * 32)
    play_out(c)
    end = c.end_hand()
    c.hand_finished(end, end.report, now=200.0)
    assert end.report["winner"] is None
    assert c.pot == 8


def test_a_settled_hand_moves_each_stack_and_the_table_counts_it() -> None:
    c = core(pot=5)
    dealt(c)
    play_out(c)
    end = c.end_hand()
    after = c.seats_after_hand(end, sit_out_after=2)
    assert after.timers == () and after.leaving == ()
    c.hand_settled(end, after)
    # What the settlement wrote to the ledger: each stack by the hand's result.
    assert [c.seats[n].stack for n in range(3)] == [107, 99, 99]
    assert c.table.hands_played == 1 and c.table.session_state == end.outcome.state


def test_a_seat_taken_during_the_hand_keeps_its_stack() -> None:
    c = core()
    dealt(c)
    c.set_seats([*c.seats.values(), seat(3, stack=250)])  # sat down after the deal
    play_out(c)
    end = c.end_hand()
    c.hand_settled(end, c.seats_after_hand(end, sit_out_after=2))
    assert c.seats[3].stack == 250


def test_timeouts_in_a_row_sit_a_player_out_and_a_hand_played_resets_the_count() -> None:
    def timers_after(counted_before: int, *, timer_plays_first: bool) -> list[tuple[int, ...]]:
        c = core()
        dealt(c)
        assert c.hand is not None
        first = c.hand.live.game.to_act()[0]
        c.seats[first] = replace(c.seats[first], timed_out_hands=counted_before)
        if timer_plays_first:
            c.commit(c.apply(c.time_out(first), timed_out=True), None, None, NOW)
        play_out(c)
        end = c.end_hand()
        after = c.seats_after_hand(end, sit_out_after=2)
        c.hand_settled(end, after)
        assert c.seats[first].timed_out_hands == (after.timers[0].timed_out_hands)
        return [
            (t.seat_no - first, t.user_id - t.seat_no, t.timed_out_hands, t.sitting_out)
            for t in after.timers
        ]

    # Only the seat whose count changed is stored, by its member (seat + 10 here).
    assert timers_after(0, timer_plays_first=True) == [(0, 10, 1, False)]
    assert timers_after(1, timer_plays_first=True) == [(0, 10, 2, True)]
    # A hand played without the timer resets the count.
    assert timers_after(1, timer_plays_first=False) == [(0, 10, 0, False)]


def test_who_asked_to_leave_goes_after_the_hand() -> None:
    c = core()
    dealt(c)
    c.seats[1] = replace(c.seats[1], leaving=True)
    play_out(c)
    end = c.end_hand()
    assert c.seats_after_hand(end, sit_out_after=2).leaving == (11,)


def test_display_names_come_from_the_seats_until_a_player_has_left() -> None:
    c = core()
    dealt(c)
    play_out(c)
    end = c.end_hand()
    assert c.display_names_at_deal(end) == {"u10": "User 10", "u11": "User 11", "u12": "User 12"}
    del c.seats[2]  # stood up during the hand: the club's records know the name
    assert c.display_names_at_deal(end) is None


# ---------------------------------------------------------------------------- timers


def test_the_turn_timer_runs_from_the_deal_and_each_action_and_stops_with_the_hand() -> None:
    c = core()
    dealt(c, now=100.0)
    assert c.turn_deadline == 100.0 + TURN
    assert c.public_view(100.0, set())["turn_ends_in"] == TURN  # shown with the deal
    assert not c.turn_expired(129.9) and c.turn_expired(130.0)
    seat_no, action = legal(c)
    logged = c.commit(c.apply(action), seat_no + 10, "a", 112.0)
    assert c.turn_deadline == 112.0 + TURN
    assert c.next_deadline() == 142.0
    # The frames telling of the action are built now: they show the next turn's full time.
    assert logged and c.public_view(112.0, set())["turn_ends_in"] == TURN
    play_out(c, now=120.0)
    assert c.turn_deadline is None
    c.hand_finished(c.end_hand(), {}, now=126.0)
    assert c.turn_deadline is None and not c.turn_expired(10_000.0)


def test_the_timer_plays_for_a_seat_and_remembers_it() -> None:
    c = core()
    dealt(c)
    assert c.hand is not None
    seat_no = c.hand.live.game.to_act()[0]
    applied = c.apply(c.time_out(seat_no), timed_out=True)
    assert applied.events[0].kind == "timed_out" and applied.events[0].seat == seat_no
    c.commit(applied, None, None, NOW)
    assert c.hand.timed_out == {seat_no}
    assert [s for s, _ in c.hand.timeouts] == [seat_no]
    assert c.client_ids == {}  # nobody's client id


def test_the_countdown_needs_two_eligible_seats_and_an_open_table() -> None:
    c = core([seat(0), seat(1, sitting_out=True)])
    c.schedule_next_hand(50.0)
    assert c.next_hand_at is None and c.next_hand_view() is None
    c.set_seats([seat(0), seat(1)])
    events = c.seats_changed("back", 1, 60.0)
    assert [e.kind for e in events] == ["back"]
    assert c.next_hand_at == 60.0 + COUNTDOWN
    view = c.next_hand_view()
    assert view is not None and c.next_hand is not None
    assert view["commitment"] == c.next_hand.commitment
    assert c.public_view(61.0, set())["next_hand_in"] == round(COUNTDOWN - 1.0, 1)
    assert not c.next_hand_due(63.9)
    assert c.next_hand_due(64.0) and c.next_hand_at is None  # spent once due

    paused = core(status="paused")
    paused.schedule_next_hand(0.0)
    assert paused.next_hand_at is None
    assert not paused.may_deal() and paused.next_hand is None

    closing = core()
    dealt(closing)
    closing.start_closing(by_admin=None)
    play_out(closing)
    closing.hand_finished(closing.end_hand(), {}, now=0.0)
    assert closing.next_hand_at is None


def test_no_countdown_while_the_game_cannot_deal_and_the_view_says_why() -> None:
    # Bouillotte deals to three players with chips (rules/bouillotte.md §1).
    c = core([seat(0), seat(1), seat(2, stack=0), seat(3, sitting_out=True)], game="bouillotte")
    c.schedule_next_hand(0.0)
    assert c.next_hand_at is None and c.next_hand is None
    assert c.public_view(0.0, set())["waiting_for"] == {
        "code": "more_players",
        "min": 3,
        "missing": 1,
        "broke": [2],
        "sitting_out": [3],
    }
    # The cave is bought: a gathering countdown starts.
    c.set_seats([seat(0), seat(1), seat(2), seat(3, sitting_out=True)])
    c.seats_changed("topped_up", 2, 10.0)
    assert c.waiting_for() is None and c.next_hand_at == 10.0 + COUNTDOWN
    # A player stands up during it: the countdown stops rather than end in no deal.
    c.set_seats([seat(0), seat(1), seat(3, sitting_out=True)])
    c.seats_changed("left", 2, 11.0)
    assert c.next_hand_at is None and c.gathering_view() is None
    paused = core(status="paused")
    assert paused.waiting_for() == {"code": "table_paused"}


def test_deal_now_cuts_the_gathering_once_every_person_dealt_in_asks() -> None:
    c = core(gathering_seconds=30)
    c.schedule_next_hand(0.0)
    assert c.next_hand_at == 30.0
    assert c.gathering_view() == {"ready": [], "awaited": [0, 1, 2]}
    assert [e.kind for e in c.deal_now(10, 1.0)] == ["deal_now"]
    assert c.deal_now(10, 1.5) == []  # asked twice: once
    c.deal_now(11, 2.0)
    assert c.next_hand_at == 30.0 and c.gathering_view() == {"ready": [0, 1], "awaited": [2]}
    c.deal_now(12, 3.0)
    assert c.next_hand_at == 3.0
    with pytest.raises(ActionRefused) as refused:
        c.deal_now(99, 3.0)
    assert refused.value.code == "not_seated"
    assert c.next_hand_due(3.0) and c.gathering_view() is None
    # Between two hands the pause is the short one, with nothing to cut.
    dealt(c)
    play_out(c)
    c.hand_finished(c.end_hand(), {}, now=100.0)
    assert c.next_hand_at == 100.0 + COUNTDOWN and c.gathering_view() is None
    with pytest.raises(ActionRefused) as refused:
        c.deal_now(10, 100.0)
    assert refused.value.code == "not_gathering"


def test_pausing_stops_the_countdown_and_opening_starts_it() -> None:
    c = core()
    c.schedule_next_hand(0.0)
    assert c.next_hand_at == COUNTDOWN
    assert [e.kind for e in c.status_set(table(status="paused"), 1.0)] == ["paused"]
    assert c.next_hand_at is None
    c.status_set(table(status="open"), 2.0)
    assert c.next_hand_at == 2.0 + COUNTDOWN


def test_a_finished_hand_schedules_the_next_before_its_result_is_told() -> None:
    c = core()
    dealt(c)
    play_out(c)
    c.hand_finished(c.end_hand(), {"shown": True}, now=300.0)
    assert c.next_hand_at == 300.0 + COUNTDOWN
    assert c.public_view(300.0, set())["last_result"] == {"shown": True}


# ---------------------------------------------------------------------------- views


def dealt_cards(logged: list[LoggedEvent]) -> dict[int, list[str]]:
    cards: dict[int, list[str]] = {}
    for event in logged:
        if event.kind == "dealt":
            assert event.audience is not None and len(event.audience) == 1
            data = json.loads(event.frame)["data"]
            cards[data["seat"]] = data["cards"]
    return cards


def test_each_seat_sees_its_own_cards_and_nobody_elses() -> None:
    c = core()
    logged = dealt(c)
    cards = dealt_cards(logged)
    assert sorted(cards) == [0, 1, 2]
    hand = c.hand
    assert hand is not None
    public_card = hand.live.game.view(None)["turned_card"]
    for viewer in (0, 1, 2):
        view = c.view(viewer, 0.0, set())
        assert view["you"] == {"seat": viewer, "dealt_in": True}
        assert view["hand"]["hand"] == cards[viewer]
        text = json.dumps(view)
        for other, theirs in cards.items():
            if other != viewer:
                hidden = [card for card in theirs if card != public_card]
                assert hidden and not any(f'"{card}"' in text for card in hidden)


def test_a_spectator_sees_no_hidden_card() -> None:
    c = core()
    cards = dealt_cards(dealt(c))
    view = c.view(None, 0.0, set())
    assert view["you"] == {"seat": None}
    assert "hand" not in view["hand"]
    assert view["hand"]["number"] == 1
    public_card = view["hand"]["turned_card"]
    text = json.dumps(view)
    for theirs in cards.values():
        assert not any(f'"{card}"' in text for card in theirs if card != public_card)
    # The private events are for their seat only.
    for event in dealt(core()):
        if event.kind == "dealt":
            assert not event.visible_to(None)


def test_the_public_part_is_the_same_for_every_viewer() -> None:
    c = core()
    dealt(c)
    connected = {10, 99}
    views = [c.view(viewer, 110.0, connected) for viewer in (None, 0, 1, 2)]
    public = c.public_view(110.0, connected)
    for view in views:
        assert {k: v for k, v in view.items() if k not in ("you", "hand")} == public
    assert public["turn_ends_in"] == 20.0
    assert [s["connected"] for s in public["seats"]] == [True, False, False]
    assert set(c.private_view(0)) == {"you", "hand"}
    assert c.describe(connected) == {
        "hand_in_progress": True,
        "hand_number": 1,
        "spectators": 1,
        "closing": False,
    }


# ---------------------------------------------------------------------------- actions


def test_a_resent_client_id_is_answered_as_a_duplicate() -> None:
    c = core()
    dealt(c)
    seat_no, action = legal(c)
    checked = c.check_action(seat_no + 10, request(action, "x-1"))
    assert isinstance(checked, Action)
    applied = c.apply(checked)
    c.commit(applied, seat_no + 10, "x-1", NOW)
    before = (c.events.version, c.game_version)
    assert c.check_action(seat_no + 10, request(action, "x-1")) == Duplicate(applied.version)
    assert (c.events.version, c.game_version) == before
    # The same id from another member is their own: checked afresh (here, out of turn).
    other = next(s for s in (0, 1, 2) if s not in c.hand.live.game.to_act()) if c.hand else 0
    theirs = c.check_action(other + 10, request(Action(other, "pass"), "x-1"))
    assert isinstance(theirs, Action)
    with pytest.raises(ActionRefused):
        c.apply(theirs)


def test_client_id_memory_is_bounded() -> None:
    c = core()
    for n in range(REMEMBERED_CLIENT_IDS + 5):
        c.remember(10, f"id-{n}", n)
    assert len(c.client_ids) == REMEMBERED_CLIENT_IDS
    assert (10, "id-0") not in c.client_ids
    assert c.client_ids[(10, f"id-{REMEMBERED_CLIENT_IDS + 4}")] == REMEMBERED_CLIENT_IDS + 4


def test_an_action_on_a_stale_view_is_refused() -> None:
    c = core()
    dealt(c)
    seat_no, action = legal(c)
    c.commit(c.apply(action), seat_no + 10, "first", NOW)
    seat_no, action = legal(c)
    with pytest.raises(ActionRefused) as refused:
        c.check_action(seat_no + 10, request(action, "late", version=c.game_version - 1))
    assert refused.value.code == "stale_version"
    assert refused.value.details == {"version": c.events.version}
    fresh = c.check_action(seat_no + 10, request(action, "late", version=c.game_version))
    assert fresh == action


def test_a_spectator_or_an_idle_table_cannot_act() -> None:
    c = core()
    with pytest.raises(ActionRefused) as refused:
        c.check_action(99, ActionRequest(id="a", action="pass"))
    assert refused.value.code == "not_seated"
    with pytest.raises(ActionRefused) as refused:
        c.check_action(10, ActionRequest(id="a", action="pass"))
    assert refused.value.code == "no_hand"


def test_a_field_the_action_does_not_take_is_refused() -> None:
    c = core()
    dealt(c)
    with pytest.raises(ActionRefused) as refused:
        c.check_action(11, ActionRequest(id="a", action="pass", card="AS"))
    assert refused.value.code == "invalid_message"


def test_an_action_the_engine_refuses_changes_nothing() -> None:
    c = core()
    dealt(c)
    assert c.hand is not None
    waiting = next(s for s in (0, 1, 2) if s not in c.hand.live.game.to_act())
    before = (
        c.events.version,
        c.game_version,
        c.hand.seq,
        [c.view(s, 0.0, set()) for s in (None, 0, 1, 2)],
    )
    with pytest.raises(ActionRefused):
        c.apply(Action(waiting, "pass"))
    after = (
        c.events.version,
        c.game_version,
        c.hand.seq,
        [c.view(s, 0.0, set()) for s in (None, 0, 1, 2)],
    )
    assert after == before


def test_an_applied_action_is_told_only_once_committed() -> None:
    c = core()
    dealt(c)
    assert c.hand is not None
    version = c.events.version
    seat_no, action = legal(c)
    applied = c.apply(action)
    # Not logged yet: the actor stores it first.
    assert c.events.version == version and c.hand.seq == 0
    assert applied.version == version + len(applied.events) and applied.seq == 1
    logged = c.commit(applied, seat_no + 10, "z", NOW)
    assert [e.version for e in logged][-1] == applied.version == c.game_version
    assert c.hand.seq == 1


# ---------------------------------------------------------------------------- deals


def test_contributions_are_taken_once_per_member_during_the_countdown() -> None:
    c = core()
    with pytest.raises(ActionRefused) as refused:
        c.contribute(10, b"\x01" * 32)
    assert refused.value.code == "entropy_closed"
    c.schedule_next_hand(0.0)
    data, logged = c.contribute(10, b"\x01" * 32)
    assert data == {"commitment": c.next_hand.commitment if c.next_hand else None}
    assert [(e.kind, e.audience) for e in logged] == [("contributed", None)]
    with pytest.raises(ActionRefused) as refused:
        c.contribute(10, b"\x02" * 32)
    assert refused.value.code == "entropy_already_sent"
    with pytest.raises(ActionRefused) as refused:
        c.contribute(99, b"\x02" * 32)
    assert refused.value.code == "not_seated"
    assert c.next_hand_view() == {"commitment": data["commitment"], "contributed": [0]}
    deal = c.deal()
    assert deal.contributions == {"0": "01" * 32}
    assert deal.pending.commitment == data["commitment"]
    assert c.next_hand is None  # used once


def test_the_opening_is_logged_with_the_stored_version() -> None:
    c = core()
    c.next_hand = NextHand(bytes(32), commitment(bytes(32)), {})
    deal = c.deal()
    assert c.hand is None and c.events.version == 0  # nothing kept before it is stored
    assert deal.stored_players()["users"] == {"0": 10, "1": 11, "2": 12}
    assert deal.header["seats"][3] == {"name": "empty-3", "stack": 0}
    logged = c.begin_hand(deal, row_id=5, now=NOW)
    assert logged[0].kind == "new_hand" and logged[-1].version == deal.version
    assert c.game_version == deal.version and c.last_result is None


def test_a_running_hand_is_rebuilt_from_its_stored_actions() -> None:
    c = core()
    dealt(c)
    hand = c.hand
    assert hand is not None
    stored: list[StoredAction] = []
    for n in range(3):
        seat_no, action = legal(c)
        applied = c.apply(action)
        c.commit(applied, seat_no + 10, f"s{n}", NOW)
        stored.append(StoredAction(action, seat_no + 10, f"s{n}", applied.version))
    # And one the turn timer took (stored under nobody).
    timed_out = c.apply(c.time_out(hand.live.game.to_act()[0]), timed_out=True)
    c.commit(timed_out, None, None, NOW)
    stored.append(StoredAction(timed_out.action, None, None, timed_out.version))
    again = core()
    again.restore(
        row_id=hand.row_id,
        number=hand.number,
        seed_hex=hand.seed.hex(),
        commitment=hand.commitment,
        server_seed_hex=hand.server_seed.hex() if hand.server_seed else None,
        contributions=hand.contributions,
        header={"seats": [{"stack": s} for s in hand.stacks_before], "pot": 0},
        players={"users": {str(k): v for k, v in hand.players.items()}},
        actions=stored,
        now=500.0,
    )
    assert again.hand is not None and again.hand.seq == 4
    assert again.turn_deadline == 500.0 + TURN
    for viewer in (None, 0, 1, 2):
        assert again.private_view(viewer) == c.private_view(viewer)
    # The hand's log, as each member may see it, is the one the first process told.
    for member in (0, 10, 11, 12):
        assert again.hand_log(member) == c.hand_log(member)
    assert any(e["kind"] == "timed_out" for e in again.hand_log(10)["events"])
    assert again.check_action(stored[0].user_id or 0, request(stored[0].action, "s0")) == (
        Duplicate(stored[0].version)
    )
