"""The betting round: pass before the opening, open, call, raise, fold, all in, the
continuation round, and every refusal with its code (§5, §8)."""

import pytest

from app.engine.base import Action
from app.engine.bouillotte import BouillotteRules
from app.engine.bouillotte.choices import Choices

from .helpers import chips, play, refused, start

FOUR = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}


def _legal(hand: object, seat: int) -> Choices:
    legal = hand.legal_actions(seat)  # type: ignore[attr-defined]
    assert isinstance(legal, Choices)
    return legal


def test_opening_minimum_is_the_dealers_chips_without_a_straddle() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline")
    legal = _legal(hand, 2)
    assert legal.kinds() == ["pass", "all_in", "open"]
    assert (legal.bet_kind, legal.low, legal.high) == ("open", 2, 100)
    assert hand.bet_range(2) == ("open", 2, 100)
    assert hand.bet_range(1) is None  # not their turn


def test_smallest_opening_bet_message() -> None:
    hand = start(FOUR, "9S", stacks=[100, 100, 100, 100])
    play(hand, "2 straddle, 1 decline")  # seat 2's stake is 6: the minimum
    err = refused(hand, Action(1, "open", amount=5))
    assert err.code == "bet_out_of_range"
    assert err.message == "The smallest opening bet is 6."
    assert err.details == {"min": 6, "max": 100, "bet": "open", "amount": 5}
    err = refused(hand, Action(1, "open", amount=101))
    assert err.code == "bet_out_of_range" and "at most 100" in err.message


def test_a_player_who_cannot_reach_the_minimum_may_only_pass() -> None:
    hand = start(FOUR, "9S", stacks=[100, 5, 100, 100])
    play(hand, "2 straddle")  # minimum 6; seat 1 has 1 + 4 = 5 in all
    # Seat 1 cannot match the pot (10): the chain ended by itself and seat 1 speaks first.
    assert hand.phase_name == "opening" and hand.to_act() == (1,)
    assert [a.kind for a in hand.legal_actions(1)] == ["pass"]
    for action in (Action(1, "open", amount=5), Action(1, "all_in")):
        assert refused(hand, action).code == "cannot_open"
    play(hand, "1 pass, 0 open 6")
    # Once someone opens, the poor player may call with everything or fold (after the
    # dealer and the straddler, who is level and calls for free).
    play(hand, "3 call, 2 call")
    assert hand.to_act() == (1,)
    assert _legal(hand, 1).kinds() == ["call", "fold", "all_in"]
    play(hand, "1 call")
    assert hand.stacks[1] == 0 and hand.stakes[1] == 5


def test_before_the_opening_only_pass_open_all_in() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline")
    for kind in ("call", "raise", "fold"):
        amount = 4 if kind == "raise" else None
        assert refused(hand, Action(2, kind, amount=amount)).code == "not_opened"
    assert refused(hand, Action(2, "decline")).code == "wrong_phase"
    assert refused(hand, Action(2, "open")).code == "bad_amount"
    assert refused(hand, Action(2, "open", amount=True)).code == "bad_amount"  # type: ignore[arg-type]
    assert refused(hand, Action(2, "pass", amount=3)).code == "bad_amount"
    assert refused(hand, Action(2, "shout")).code == "unknown_action"
    assert refused(hand, Action(2, "pass", card="AS")).code == "bad_action"


def test_after_the_opening_pass_and_open_are_refused() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 pass, 1 open 4")
    assert refused(hand, Action(0, "pass")).code == "cannot_pass_after_opening"
    assert refused(hand, Action(0, "open", amount=8)).code == "already_opened"
    assert refused(hand, Action(0, "decline")).code == "cannot_decline"
    assert refused(hand, Action(0, "straddle")).code == "wrong_phase"


def test_not_your_turn_and_other_seats() -> None:
    hand = start(FOUR, "9S", n=6, stacks=[100, 100, 100, 100, 0, 0])
    err = refused(hand, Action(1, "straddle"))
    assert err.code == "not_your_turn" and err.message == "It is seat 2's turn, not yours."
    assert refused(hand, Action(4, "pass")).code == "not_your_turn"
    assert "not dealt in" in refused(hand, Action(4, "pass")).message
    assert refused(hand, Action(9, "pass")).code == "no_such_seat"
    assert refused(hand, Action(True, "pass")).code == "no_such_seat"  # type: ignore[arg-type]
    assert hand.legal_actions(1) == []


def test_passed_players_come_back_after_the_opening() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 pass, 1 pass, 0 open 5")
    # The turn goes right from the opener: the dealer, then the players who passed.
    assert hand.to_act() == (3,)
    play(hand, "3 call, 2 call, 1 fold")
    assert hand.stakes == [5, 1, 5, 5]
    assert hand.phase_name == "continuation" and hand.to_act() == (3,)


def test_raise_range_and_messages() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 4")
    legal = _legal(hand, 1)
    assert legal.kinds() == ["call", "fold", "all_in", "raise"]
    assert (legal.low, legal.high) == (5, 100)
    err = refused(hand, Action(1, "raise", amount=4))
    assert err.code == "bet_out_of_range" and err.message == "The smallest raise is to 5."
    err = refused(hand, Action(1, "raise", amount=101))
    assert err.code == "bet_out_of_range" and "at most 100" in err.message
    play(hand, "1 raise 5")
    assert hand.highest == 5 and hand.aggressor == 1


def test_all_in_after_the_opening_is_a_raise_or_a_call() -> None:
    hand = start(FOUR, "9S", stacks=[100, 10, 100, 100])
    play(hand, "2 decline, 2 open 20, 1 all_in")  # 10 < 20: a call with everything
    assert hand.stacks[1] == 0 and hand.stakes[1] == 10 and hand.highest == 20
    play(hand, "0 all_in")  # a raise to 100
    assert hand.highest == 100 and hand.aggressor == 0


def test_nothing_to_raise_when_nobody_can_answer() -> None:
    hand = start(FOUR, "9S", stacks=[100, 10, 10, 10])
    play(hand, "2 decline, 2 all_in, 1 all_in, 0 call")
    # The dealer must call 10; nobody else still in has chips: no raise.
    assert hand.to_act() == (3,)
    legal = _legal(hand, 3)
    assert legal.kinds() == ["call", "fold", "all_in"]  # all_in = call everything here
    hand2 = start(FOUR, "9S", stacks=[100, 100, 10, 10])
    play(hand2, "2 decline, 2 all_in, 1 call, 0 fold, 3 call")
    # Seat 2 and 3 all in, seat 0 folded: seat 1 alone has chips; the hand is shown.
    assert hand2.is_over


def test_nothing_to_raise_code() -> None:
    hand = start(FOUR, "9S", stacks=[100, 100, 10, 10])
    play(hand, "2 decline, 2 all_in, 1 call, 0 raise 20, 3 call")
    # Seat 1 owes 10 and could raise seat 0, who has chips.
    assert hand.to_act() == (1,)
    play(hand, "1 call")
    # Four left (two all in): the continuation asks seat 1, who can still raise seat 0.
    assert hand.phase_name == "continuation" and hand.to_act() == (1,)
    play(hand, "1 decline")
    assert hand.is_over
    hand = start(FOUR, "9S", stacks=[100, 100, 10, 10])
    play(hand, "2 decline, 2 all_in, 1 fold, 0 call, 3 all_in")
    # Seat 0 has chips but no one still in can answer a raise.
    assert hand.is_over


def test_raise_refused_when_nobody_can_answer() -> None:
    hand = start(FOUR, "9S", stacks=[100, 20, 10, 100])
    play(hand, "2 decline, 2 all_in, 1 all_in, 0 fold")
    assert hand.to_act() == (3,)
    err = refused(hand, Action(3, "raise", amount=50))
    assert err.code == "nothing_to_raise"
    assert refused(hand, Action(3, "all_in")).code == "nothing_to_raise"
    assert _legal(hand, 3).kinds() == ["call", "fold"]
    play(hand, "3 call")
    assert hand.is_over


def test_cannot_raise_when_a_call_takes_everything() -> None:
    hand = start(FOUR, "9S", stacks=[100, 10, 100, 100])
    play(hand, "2 decline, 2 open 20")
    err = refused(hand, Action(1, "raise", amount=30))
    assert err.code == "cannot_raise"


def test_straddlers_free_call_in_the_call_round_and_in_the_continuation() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 straddle, 1 decline, 1 open 6, 0 call, 3 call")
    # The straddler is level but speaks in the call round: a free call, a raise or a fold.
    assert hand.phase_name == "calls" and hand.to_act() == (2,)
    assert _legal(hand, 2).kinds() == ["call", "fold", "all_in", "raise"]
    play(hand, "2 call")
    # Everyone level with the straddler: the continuation asks from the opener's right.
    assert hand.phase_name == "continuation" and hand.to_act() == (0,)
    play(hand, "0 decline, 3 decline")
    assert hand.to_act() == (2,)
    legal = _legal(hand, 2)
    assert legal.kinds() == ["decline", "call", "fold", "all_in", "raise"]
    play(hand, "2 call")  # free: means decline
    assert hand.is_over and hand.stakes == [6, 6, 6, 6]


def test_the_straddler_may_raise_after_a_minimum_opening() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 straddle, 1 decline, 1 open 6, 0 fold, 3 fold")
    # Two left and level, but the straddler has not spoken: the betting goes on (§5, §8).
    assert not hand.is_over and hand.to_act() == (2,)
    assert hand.bet_range(2) == ("raise", 7, 100)
    play(hand, "2 raise 20")
    assert hand.phase_name == "calls" and hand.to_act() == (1,) and hand.owed(1) == 14
    play(hand, "1 call")
    assert hand.result is not None and hand.result.pots[0][0] == 43
    called = start(FOUR, "9S")
    play(called, "2 straddle, 1 decline, 1 open 6, 0 fold, 3 fold, 2 call")
    assert called.result is not None and called.result.showdown
    assert called.result.players == (1, 2) and called.result.pots[0][0] == 15


def test_continuation_raise_starts_a_new_call_round_then_a_new_continuation() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 call, 3 call")
    # The dealer already had 2 and called for free; four left -> continuation from seat 1.
    assert hand.phase_name == "continuation" and hand.to_act() == (1,)
    play(hand, "1 decline, 0 raise 10")
    assert hand.phase_name == "calls" and hand.to_act() == (3,)
    play(hand, "3 call, 2 call, 1 call")
    assert hand.phase_name == "continuation" and hand.to_act() == (3,)
    # The last raiser (seat 0) is never asked to raise his own bet.
    play(hand, "3 decline, 2 decline, 1 decline")
    assert hand.is_over and hand.result is not None
    assert hand.result.showdown and sum(a for a, _ in hand.result.pots) == 40


def test_a_fold_that_leaves_two_level_ends_the_betting() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 call")
    assert hand.phase_name == "continuation"
    play(hand, "1 fold")
    assert hand.is_over and hand.result is not None and hand.result.players == (2, 3)


def test_everyone_folds_to_one_who_takes_the_pot_unseen() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 10, 1 fold, 0 fold, 3 fold")
    assert hand.is_over and hand.result is not None
    assert hand.result.pots == ((14, 2),) and hand.result.showdown == {}
    assert hand.result.players == (2,)
    assert hand.stacks == [99, 99, 104, 98]


def test_thrown_in_hand_keeps_the_pot() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 pass, 1 pass, 0 pass, 3 pass")
    assert hand.is_over and hand.result is not None
    assert hand.result.thrown_in and hand.result.carry == 5 and hand.result.pots == ()
    assert hand.pot == 5 and chips(hand) == 400


def test_dealer_may_open_at_his_own_stake() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 pass, 1 pass, 0 pass")
    assert hand.bet_range(3) == ("open", 2, 100)
    play(hand, "3 open 2")
    assert hand.to_act() == (2,)
    play(hand, "2 call, 1 fold, 0 fold")
    assert hand.is_over


def test_all_in_players_are_skipped_and_still_contend() -> None:
    hand = start(FOUR, "9S", stacks=[1, 100, 100, 100])  # seat 0 all in from the ante
    play(hand, "2 decline")
    assert hand.queue == (2, 1, 3)
    play(hand, "2 open 3, 1 call, 3 call")
    assert hand.phase_name == "continuation"
    play(hand, "1 decline, 3 decline")
    assert hand.is_over and hand.result is not None and 0 in hand.result.players


def test_straddle_before_betting_is_refused_as_betting() -> None:
    hand = start(FOUR, "9S")
    assert refused(hand, Action(2, "open", amount=5)).code == "wrong_phase"
    assert refused(hand, Action(2, "buy_back")).code == "wrong_phase"


@pytest.mark.parametrize("direction", ["counter_clockwise", "clockwise"])
def test_direction_sets_who_speaks_next(direction: str) -> None:
    rules = BouillotteRules(direction=direction)
    hand = start(FOUR, "9S", rules=rules)
    first = 2 if direction == "counter_clockwise" else 0
    second = 1  # seat 1 sits between 0 and 2 either way
    assert hand.to_act() == (first,)
    hand.apply(Action(first, "decline"))
    hand.apply(Action(first, "pass"))
    assert hand.to_act() == (second,)
    third = 0 if direction == "counter_clockwise" else 2
    hand.apply(Action(second, "pass"))
    assert hand.to_act() == (third,)


def test_hand_over_refuses_everything() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 pass, 1 pass, 0 pass, 3 pass")
    err = refused(hand, Action(2, "pass"))
    assert err.code == "hand_over"
    assert hand.to_act() == () and hand.legal_actions(2) == []


def test_a_hand_in_which_nobody_can_speak_is_thrown_in_at_once() -> None:
    # Three players with one chip each are all in from the antes: nobody can straddle,
    # open or pass; nobody opened, so the hand is thrown in (§5) and the pot is carried.
    hand = start({0: "AS KS 9S", 1: "AH KH 9H", 2: "AD KD 9D"}, "8C", stacks=[1, 1, 1])
    assert hand.is_over and hand.result is not None and hand.result.thrown_in
    assert hand.pot == 3 and hand.stacks == [0, 0, 0]
    kinds = [e.kind for e in hand.start_events]
    assert kinds == ["hand_started", "dealt", "dealt", "dealt", "upcard", "hand_over"]
    assert hand.start_events[0].data["antes"] == {1: 1, 0: 1, 2: 1}


def test_start_events_before_a_straddle_show_no_cards() -> None:
    hand = start(FOUR, "9S")
    assert [e.kind for e in hand.start_events] == ["hand_started"]
    assert hand.start_events[0].data["pot"] == 5
    events = hand.apply(Action(2, "decline"))
    assert [e.kind for e in events] == ["declined", "dealt", "dealt", "dealt", "dealt", "upcard"]
    assert all(e.to == e.seat for e in events if e.kind == "dealt")


# §5, §8 "After the opening": the call round visits every player still in with chips, one
# already level too. Seats below: dealer D = 3, A = 2 (on D's right), B = 1, C = 0.


@pytest.mark.parametrize(
    ("answer", "after"),
    [("3 call", "shown"), ("3 raise 5", "A to answer"), ("3 fold", "A takes it")],
)
def test_worked_sequence_1_the_level_dealer_speaks(answer: str, after: str) -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 2, 1 fold, 0 fold")
    # Two are left and level, but the dealer has not had his turn: the hand goes on.
    assert not hand.is_over and hand.phase_name == "calls" and hand.to_act() == (3,)
    assert hand.owed(3) == 0 and hand.pot == 6
    legal = _legal(hand, 3)
    assert legal.kinds() == ["call", "fold", "all_in", "raise"]
    assert (legal.low, legal.high) == (3, 100)
    play(hand, answer)
    result = hand.result
    if after == "shown":
        assert result is not None and result.showdown and result.pots[0][0] == 6
        assert result.players == (2, 3)
    elif after == "A to answer":
        assert hand.to_act() == (2,) and hand.owed(2) == 3
        assert _legal(hand, 2).kinds() == ["call", "fold", "all_in", "raise"]
    else:
        assert result is not None and result.pots == ((6, 2),) and not result.showdown


def test_worked_sequence_2_the_last_straddler_speaks_first_after_the_opening() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 straddle, 1 decline")
    assert hand.stakes[2] == 6 and hand.pot == 10
    play(hand, "1 pass, 0 pass, 3 open 6")
    # The call round goes right from D: A first, level at 6, then B and C (5 to call each).
    assert hand.to_act() == (2,) and hand.owed(2) == 0
    assert _legal(hand, 2).kinds() == ["call", "fold", "all_in", "raise"]
    play(hand, "2 call, 1 fold, 0 fold")
    assert hand.result is not None and hand.result.showdown
    assert hand.result.players == (2, 3) and hand.result.pots[0][0] == 14
    raised = start(FOUR, "9S")
    play(raised, "2 straddle, 1 decline, 1 pass, 0 pass, 3 open 6, 2 raise 12")
    assert raised.aggressor == 2
    play(raised, "1 call, 0 fold, 3 call")
    assert raised.stakes == [1, 12, 12, 12]
    # Three are left: the continuation round asks from A's right.
    assert raised.phase_name == "continuation" and raised.to_act() == (1,)


def test_a_level_player_speaks_in_the_call_round_with_three_or_more_left() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 call")
    assert hand.phase_name == "calls" and hand.to_act() == (3,)
    play(hand, "3 raise 4")
    assert hand.phase_name == "calls" and hand.to_act() == (2,)


def test_a_level_player_may_not_decline_in_the_call_round() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 2, 1 fold, 0 fold")
    err = refused(hand, Action(3, "decline"))
    assert err.code == "cannot_decline"
    assert err.message == "You are level: call (it costs nothing), raise or fold."
