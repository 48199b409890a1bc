"""Multi-hand sessions: stacks, the carried pot and the deal flow; who is dealt in; rebuys."""

import pytest

from app.engine.base import Action, EngineError
from app.engine.bouillotte import BouillotteRules, BouillotteSession

from .helpers import build_deck


def _pass_all(session: BouillotteSession) -> None:
    hand = session.hand
    assert hand is not None
    while not hand.is_over:
        seat = hand.to_act()[0]
        kind = "decline" if hand.phase_name == "straddle" else "pass"
        hand.apply(Action(seat, kind))


def test_thrown_in_pot_is_carried_and_the_deal_moves_right() -> None:
    session = BouillotteSession(BouillotteRules(), [100] * 4, button=3)
    hand = session.start_hand(seed=b"\x01" * 32)
    assert hand.dealer == 3
    _pass_all(session)
    result = session.close_hand()
    assert result.thrown_in and result.carry == 5 and session.pot == 5
    assert session.button == 2  # to the right of seat 3 (counter-clockwise)
    hand = session.start_hand(seed=b"\x02" * 32)
    # Nobody antes; the new dealer alone adds 1 chip to the carried pot.
    assert hand.dealer == 2 and hand.pot == 6 and hand.stakes == [0, 0, 1, 0]
    assert hand.opening_minimum() == 1
    _pass_all(session)
    assert session.close_hand().carry == 6
    assert session.stacks == [99, 99, 98, 98] and sum(session.stacks) + session.pot == 400


def test_clockwise_deal_moves_left() -> None:
    session = BouillotteSession(BouillotteRules(direction="clockwise"), [100] * 4, button=3)
    session.start_hand(seed=b"\x01" * 32)
    _pass_all(session)
    session.close_hand()
    assert session.button == 0
    assert session.start_hand(seed=b"\x01" * 32).dealer == 0


def test_a_seat_without_chips_is_not_dealt_in_and_the_deal_skips_it() -> None:
    session = BouillotteSession(BouillotteRules(), [100, 0, 100, 100, 100], button=1)
    hand = session.start_hand(seed=b"\x03" * 32)
    assert hand.dealer == 0  # seat 1 has no chips: the first dealt-in seat to its right
    assert hand.order == (4, 3, 2, 0) and len(hand.deck) == 20
    assert hand.status[1] == 0 and hand.stakes[1] == 0


@pytest.mark.parametrize(
    ("stacks", "code"),
    [([100, 100, 0, 0], "not_enough_players"), ([5] * 6, "too_many_players")],
)
def test_three_to_five_players(stacks: list[int], code: str) -> None:
    session = BouillotteSession(BouillotteRules(), stacks)
    with pytest.raises(EngineError) as info:
        session.start_hand(seed=bytes(32))
    assert info.value.code == code
    assert info.value.reason.startswith("cannot be dealt")


def test_sitting_out_is_not_dealt_in() -> None:
    session = BouillotteSession(BouillotteRules(), [100] * 5)
    hand = session.start_hand(seed=bytes(32), sitting_out=[2])
    assert 2 not in hand.order and len(hand.deck) == 20


def test_hand_from_a_scripted_deck() -> None:
    session = BouillotteSession(BouillotteRules(), [100] * 3, button=2)
    deck = build_deck(3, 2, {0: "AS KS 9S", 1: "AH KH 9H", 2: "AD KD 9D"}, "8C")
    hand = session.start_hand(deck=deck)
    assert hand.order == (1, 0, 2) and len(hand.deck) == 16
    with pytest.raises(EngineError):
        session.start_hand()


def test_rebuy_only_when_the_cave_is_empty_and_between_hands() -> None:
    rules = BouillotteRules(cave=40)
    session = BouillotteSession(rules, [0, 30, 30, 30])
    with pytest.raises(EngineError) as info:
        session.rebuy(1)
    assert info.value.code == "rebuy_not_allowed"
    hand = session.start_hand(seed=bytes(32))
    assert 0 not in hand.order
    with pytest.raises(EngineError) as info:
        session.rebuy(0)
    assert info.value.code == "hand_in_progress"
    _pass_all(session)
    assert session.rebuy(0) == 40  # the finished hand is closed first
    assert session.stacks[0] == 40 and session.hand is None
    with pytest.raises(EngineError) as info:
        session.rebuy(7)
    assert info.value.code == "no_such_seat"
    hand = session.start_hand(seed=bytes(32))
    assert 0 in hand.order


def test_close_hand_refused_while_in_progress() -> None:
    session = BouillotteSession(BouillotteRules(), [100] * 4)
    with pytest.raises(EngineError):
        session.close_hand()
    session.start_hand(seed=bytes(32))
    with pytest.raises(EngineError) as info:
        session.close_hand()
    assert info.value.code == "hand_in_progress"


def test_stacks_flow_from_hand_to_hand() -> None:
    session = BouillotteSession(BouillotteRules(), [100] * 4, button=3)
    hand = session.start_hand(seed=b"\x07" * 32)
    hand.apply(Action(2, "decline"))
    hand.apply(Action(2, "open", amount=10))
    for seat in (1, 0, 3):
        hand.apply(Action(seat, "fold"))
    session.close_hand()
    assert session.stacks == [99, 99, 104, 98] and session.pot == 0
    hand = session.start_hand(seed=b"\x08" * 32)
    assert hand.dealer == 2 and hand.initial_stacks == (99, 99, 104, 98)
    assert hand.stacks == [98, 98, 102, 97]  # antes, the dealer two
