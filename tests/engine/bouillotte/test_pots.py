"""Main and side pots (§5, §8 "Pots")."""

from app.engine.bouillotte.pots import layer_pots

from .helpers import chips, play, start


def test_side_pot_example_of_section_5() -> None:
    # Stakes 2, 5, 8 and 16; the second player all in at 5; the first and third folded.
    pots = layer_pots([2, 5, 8, 16], live=[1, 3], all_in=[1], dead=0)
    assert pots == [(17, (1, 3)), (14, (3,))]


def test_side_pot_example_played_out() -> None:
    # Order 2, 1, 0, dealer 3 ... seat order is reversed so that the "first player" of the
    # example speaks first: seats 2, 1, 0, 3 stake 2, 5, 8, 16.
    hands = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}
    hand = start(hands, "9S", stacks=[100, 5, 100, 100])
    play(hand, "2 decline, 2 open 2, 1 all_in, 0 raise 8, 3 raise 16, 2 fold, 0 fold")
    assert hand.is_over and hand.result is not None
    assert hand.stakes == [8, 5, 2, 16]
    amounts = [amount for amount, _ in hand.result.pots]
    assert amounts == [17, 14]
    # The side pot has one contender: the dealer's unmatched chips come back to him.
    assert hand.result.pots[1][1] == 3
    assert chips(hand) == 305


def test_dead_money_goes_to_the_main_pot() -> None:
    pots = layer_pots([0, 3, 6, 6], live=[1, 2, 3], all_in=[1], dead=7)
    assert pots == [(16, (1, 2, 3)), (6, (2, 3))]


def test_several_all_ins_give_several_side_pots() -> None:
    stakes = [10, 25, 40, 40, 4]
    pots = layer_pots(stakes, live=[0, 1, 2, 3], all_in=[0, 1], dead=0)
    # Layer to 10: 10+10+10+10+4 = 44; to 25: 15*3 = 45; to 40: 15*2 = 30.
    assert pots == [(44, (0, 1, 2, 3)), (45, (1, 2, 3)), (30, (2, 3))]
    assert sum(a for a, _ in pots) == sum(stakes)


def test_equal_all_ins_share_a_layer_and_unmatched_chips_are_returned() -> None:
    pots = layer_pots([5, 5, 30, 12], live=[0, 1, 2], all_in=[0, 1], dead=1)
    assert pots == [(21, (0, 1, 2)), (32, (2,))]  # 25 unmatched + 7 of the folded 12


def test_several_all_ins_played_out() -> None:
    hands = {
        0: "AD 9C 8H",
        1: "QH AC 8C",
        2: "KD QD AS",
        3: "KH 8D QS",
        4: "JH JD JC",
    }
    # Order 3, 2, 1, 0, dealer 4.
    hand = start(hands, "9S", stacks=[100, 30, 100, 8, 100])
    play(hand, "3 decline, 3 all_in, 2 raise 20, 1 all_in, 0 raise 50, 4 call, 2 call")
    play(hand, "4 decline, 2 decline")  # the continuation skips the all-in players
    assert hand.is_over and hand.result is not None
    assert hand.stakes == [50, 30, 50, 8, 50]
    # Layers at 8 (seat 3 all in), 30 (seat 1 all in) and 50.
    assert [a for a, _ in hand.result.pots] == [40, 88, 60]
    # Seat 4 holds a brelan of jacks: it wins every pot it contends.
    assert [w for _, w in hand.result.pots] == [4, 4, 4]
    assert chips(hand) == 338
