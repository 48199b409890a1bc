"""Antes, the carried pot and the straddle chain (§2, §3, §8)."""

import pytest

from app.engine.base import Action
from app.engine.bouillotte import BouillotteRules

from .helpers import chips, play, refused, start

FOUR = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}
FIVE = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS", 4: "JH JD JC"}


def test_all_plus_dealer_antes() -> None:
    hand = start(FOUR, "9S")
    assert hand.stakes == [1, 1, 1, 2] and hand.pot == 5
    assert hand.stacks == [99, 99, 99, 98]


def test_dealer_only_antes() -> None:
    hand = start(FOUR, "9S", rules=BouillotteRules(ante_mode="dealer_only"))
    assert hand.stakes == [0, 0, 0, 1] and hand.pot == 1
    assert hand.opening_minimum() == 1


def test_short_ante_is_all_in() -> None:
    hand = start(FOUR, "9S", stacks=[1, 100, 100, 1])
    assert hand.stakes == [1, 1, 1, 1] and hand.stacks == [0, 99, 99, 0]
    assert hand.pot == 4


def test_carried_pot_no_antes_dealer_adds_one() -> None:
    hand = start(FOUR, "9S", pot=5)
    assert hand.stakes == [0, 0, 0, 1] and hand.pot == 6 and hand.dead == 5
    assert hand.opening_minimum() == 1
    # A straddle matches the whole pot, dead money included.
    play(hand, "2 straddle")
    assert hand.stakes[2] == 6 and hand.pot == 12


def test_straddle_chain_doubles_the_pot_and_the_last_straddler_speaks_last() -> None:
    hand = start(FOUR, "9S")
    assert hand.phase_name == "straddle" and hand.to_act() == (2,)
    assert [a.kind for a in hand.legal_actions(2)] == ["straddle", "decline"]
    play(hand, "2 straddle, 1 straddle, 0 decline")
    assert hand.stakes == [1, 11, 6, 2] and hand.pot == 20
    assert hand.last_straddler == 1 and hand.phase_name == "opening"
    # Betting starts at the right of the last straddler (seat 0) and ends at their left.
    assert hand.queue == (0, 3, 2)
    assert hand.opening_minimum() == 11


def test_chain_runs_up_to_and_including_the_dealer() -> None:
    hand = start(FOUR, "9S", stacks=[1000] * 4)
    play(hand, "2 straddle, 1 straddle, 0 straddle, 3 straddle")
    assert hand.phase_name == "opening" and hand.last_straddler == 3
    assert hand.pot == 80
    assert hand.queue == (2, 1, 0)  # the dealer straddled: everyone else speaks first


def test_chain_ends_by_itself_when_a_stack_is_smaller_than_the_pot() -> None:
    hand = start(FOUR, "9S", stacks=[9, 100, 100, 100])
    play(hand, "2 straddle")  # pot 10; seat 1 can afford it
    play(hand, "1 straddle")  # pot 20; seat 0 has 8 left: the chain ends
    assert hand.phase_name == "opening" and hand.last_straddler == 1
    # A player exactly as rich as the pot can straddle (all in).
    hand = start(FOUR, "9S", stacks=[100, 100, 6, 100])
    play(hand, "2 straddle")
    assert hand.stacks[2] == 0 and hand.stakes[2] == 6


def test_decline_ends_the_chain_and_straddle_refused_later() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 straddle, 1 decline")
    assert hand.phase_name == "opening" and hand.last_straddler == 2
    err = refused(hand, Action(1, "straddle"))
    assert err.code == "wrong_phase"
    err = refused(hand, Action(1, "buy_back"))
    assert err.code == "wrong_phase"


def test_buy_back_chain() -> None:
    rules = BouillotteRules(buy_back=True)
    hand = start(FIVE, "9S", rules=rules, stacks=[1000] * 5)
    order = hand.order
    assert order == (3, 2, 1, 0, 4)
    play(hand, "3 straddle, 2 straddle")  # pot 6 -> 12 -> 24
    # Player 1 (seat 3) may buy back before the right passes to player 3 (seat 1).
    assert hand.phase_name == "buy_back" and hand.to_act() == (3,)
    assert [a.kind for a in hand.legal_actions(3)] == ["buy_back", "decline"]
    assert refused(hand, Action(3, "straddle")).code == "wrong_phase"
    play(hand, "3 decline, 1 straddle")  # pot 48
    assert hand.phase_name == "buy_back" and hand.to_act() == (2,)
    play(hand, "2 buy_back")  # seat 2 adds the whole pot (48), which ends the chain
    assert hand.stakes[2] == 1 + 12 + 48
    assert hand.pot == 96 and hand.last_straddler == 2
    assert hand.phase_name == "opening"
    # The round starts at the right of the buyer (seat 1) and ends at its left (seat 3).
    assert hand.queue == (1, 0, 4, 3)
    assert chips(hand) == 5000


def test_without_buy_back_the_chain_goes_straight_on() -> None:
    hand = start(FIVE, "9S", stacks=[1000] * 5)
    play(hand, "3 straddle, 2 straddle")
    assert hand.phase_name == "straddle" and hand.to_act() == (1,)


def test_buy_back_skipped_when_the_previous_straddler_cannot_afford_it() -> None:
    rules = BouillotteRules(buy_back=True)
    hand = start(FIVE, "9S", rules=rules, stacks=[1000, 1000, 1000, 10, 1000])
    play(hand, "3 straddle, 2 straddle")  # seat 3 has 3 left < pot 24
    assert hand.phase_name == "straddle" and hand.to_act() == (1,)


def test_straddle_then_everyone_passes_the_straddler_takes_the_pot() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 straddle, 1 decline, 1 pass, 0 pass, 3 pass")
    assert hand.is_over and hand.result is not None
    assert hand.result.pots == ((10, 2),) and hand.result.showdown == {}
    assert hand.stacks == [99, 99, 104, 98]


@pytest.mark.parametrize("pot", [0, 7])
def test_the_chain_never_starts_when_the_first_player_is_too_poor(pot: int) -> None:
    # Seat 2 (first to straddle) cannot match the pot: the chain never starts.
    hand = start(FOUR, "9S", stacks=[100, 100, 3, 100], pot=pot)
    assert hand.phase_name == "opening" and hand.dealt
    assert hand.last_straddler == -1 and hand.to_act() == (2,)
