"""Showdown ranking, side pots decided by the main pot's suit, and brelan bonuses (§6-§8)."""

from app.engine.bouillotte import BouillotteRules
from app.engine.bouillotte.ranking import (
    BRELAN,
    CARRE,
    MISTIGRI,
    POINTS,
    classify,
    hand_names,
    owner,
    points_winner,
    suit_groups,
    suit_totals,
)
from app.engine.bouillotte.state import BouillotteHand
from app.engine.cards import mask_of, parse_card

from .helpers import chips, play, start


def _mask(cards: str) -> int:
    return mask_of(parse_card(c) for c in cards.split())


def _result(hand: BouillotteHand) -> tuple[tuple[tuple[int, int], ...], dict[int, str]]:
    assert hand.is_over and hand.result is not None
    return hand.result.pots, {s: r for s, (r, _) in hand.result.showdown.items()}


WORKED = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}


def test_worked_points_example_of_section_6() -> None:
    # Dealer D = seat 3; A = seat 0 folds; B = seat 1, C = seat 2 stay in; D folds.
    hand = start(WORKED, "9S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 fold")
    assert hand.result is not None
    assert hand.result.suit_points == {"S": 30, "H": 28, "D": 39, "C": 28}
    assert hand.result.pots == ((7, 2),)  # C wins with the KD: the AD was folded
    # Every hand dealt in is shown, folded ones included.
    assert sorted(hand.result.showdown) == [0, 1, 2, 3]
    assert all(rank == "points" for rank, _ in hand.result.showdown.values())
    assert hand.stacks == [99, 98, 105, 98]


def test_worked_example_with_the_ranking_functions() -> None:
    hands = [_mask(WORKED[s]) for s in range(4)]
    table = sum(hands) | _mask("9S")
    totals = suit_totals(table)
    assert totals == (30, 28, 39, 28)
    groups = suit_groups(totals)
    assert groups == [(2,), (0,), (1, 3)]
    assert owner(2, [2, 1], hands) == 2  # KD among the contenders' diamonds
    assert owner(2, [2, 1, 0], hands) == 0  # the AD if its holder were still in
    assert points_winner(groups, [2, 1], hands) == (2, (2,))


TIED = {0: "AS QH 9D", 1: "AH QS 9C", 2: "8S 9H 8D", 3: "KH 9S 8H"}


def test_tied_suits_go_to_the_first_owner_in_the_order() -> None:
    # Spades and hearts both total 48. Seat 0 owns spades (AS), seat 1 hearts (AH); the
    # order is 2, 1, 0, 3: seat 1 comes first.
    hand = start(TIED, "KS")
    play(hand, "2 decline, 2 open 2, 1 call, 0 call, 3 call, 1 decline, 0 decline, 3 decline")
    pots, ranks = _result(hand)
    assert hand.result is not None and hand.result.suit_points == {
        "S": 48,
        "H": 48,
        "D": 17,
        "C": 9,
    }
    assert pots == ((8, 1),)
    assert set(ranks.values()) == {"points"}


def test_tied_suits_after_the_first_owner_folds() -> None:
    # Seat 1 folds: hearts now belong to seat 3 (KH), spades to seat 0; seat 0 comes first.
    hand = start(TIED, "KS")
    play(hand, "2 decline, 2 open 2, 1 fold, 0 call, 3 call, 0 decline, 3 decline")
    pots, _ = _result(hand)
    assert pots == ((7, 0),)


NO_DIAMONDS = {0: "AD KD QD", 1: "AS 8S 9H", 2: "KH QC 8C", 3: "AC 9C 8H"}


def test_winning_suit_held_only_by_folded_players_next_suit_decides() -> None:
    # Diamonds (40) are all folded or the upcard: clubs (38) decide, owned by seat 3 (AC).
    hand = start(NO_DIAMONDS, "9D")
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 call, 1 decline, 3 decline")
    pots, _ = _result(hand)
    assert hand.result is not None and hand.result.suit_points["D"] == 40
    assert pots == ((7, 3),)


def test_when_the_owner_of_the_next_suit_folds_too() -> None:
    hand = start(NO_DIAMONDS, "9D")
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 fold")
    pots, _ = _result(hand)
    assert pots == ((7, 2),)  # clubs among seats 1 and 2: the QC


def test_a_group_nobody_owns_is_skipped() -> None:
    hands = [_mask("AD KD QD"), _mask("AS 8S 9H"), _mask("KH QC 8C"), 0]
    groups = suit_groups(suit_totals(hands[0] | hands[1] | hands[2] | _mask("9D")))
    assert groups[0] == (2,)
    # Diamonds skipped; spades and hearts tie: seat 1 owns spades and comes first.
    assert points_winner(groups, [1, 2], hands) == (1, (0,))
    assert points_winner(groups, [2], hands) == (2, (1,))  # hearts only (KH)


def test_classify_categories() -> None:
    up = parse_card("9S")
    assert classify(_mask("9H 9D 9C"), up, True, False) == (CARRE, 7)
    assert classify(_mask("AH AD AC"), up, True, False) == (BRELAN, 12)
    assert classify(_mask("QC 9H 9D"), up, True, True) == (MISTIGRI, 7)
    assert classify(_mask("QC 9H 9D"), up, True, False) == (POINTS, -1)
    assert classify(_mask("QC 9S 9H"), up, True, True) == (POINTS, -1)  # not one colour
    assert classify(_mask("QC 8S 8C"), up, True, True)[0] == MISTIGRI  # black pair
    assert classify(_mask("QC QH QD"), up, True, True) == (BRELAN, 10)
    assert classify(_mask("AH AD AC"), up, False, False) == (POINTS, -1)


BRELANS = {0: "8H 8D 8C", 1: "9H 9D 9C", 2: "KH KD KC", 3: "AH QD QH"}


def test_brelan_carre_beats_a_higher_brelan_and_bonuses_are_paid() -> None:
    # Upcard 9S: seat 1 holds a brelan carré, seat 2 a brelan of kings, seat 0 a brelan of
    # eights that it folds; the dealer (seat 3) has one chip left and folds.
    hand = start(BRELANS, "9S", stacks=[100, 100, 100, 3])
    play(hand, "2 decline, 2 open 2, 1 call, 0 call, 3 call, 1 decline, 0 fold, 3 fold")
    pots, ranks = _result(hand)
    assert pots == ((8, 1),)
    assert ranks == {0: "brelan", 1: "carre", 2: "brelan", 3: "points"}
    assert hand.result is not None
    # Collectors in the order (2 then 1); collectors never pay each other; the folded
    # brelan pays; the dealer's last chip goes to the first collector, then he is short.
    assert hand.result.bonuses == ((0, 2, 1), (3, 2, 1), (0, 1, 2))
    assert hand.stacks == [95, 108, 100, 0]
    assert hand.result.suit_points == {}  # nothing went to points
    assert chips(hand) == 303


def test_higher_brelan_wins() -> None:
    hands = {0: "8H 8D 8C", 1: "AH QD QH", 2: "KH KD KC", 3: "9H 9D AC"}
    hand = start(hands, "9S")
    play(hand, "2 decline, 2 open 2, 1 fold, 0 call, 3 call, 0 decline, 3 fold")
    pots, _ = _result(hand)
    assert pots == ((7, 2),)
    assert hand.result is not None
    # Both brelans still in collect; neither pays the other; 1 each from seats 1 and 3.
    assert hand.result.bonuses == ((1, 2, 1), (3, 2, 1), (1, 0, 1), (3, 0, 1))


def test_bonus_amounts_follow_the_options() -> None:
    rules = BouillotteRules(bonus_carre=5, bonus_brelan=3)
    hand = start(BRELANS, "9S", rules=rules, stacks=[100, 100, 100, 100])
    play(hand, "2 decline, 2 open 2, 1 call, 0 call, 3 call, 1 decline, 0 fold, 3 fold")
    assert hand.result is not None
    assert hand.result.bonuses == ((0, 2, 3), (3, 2, 3), (0, 1, 5), (3, 1, 5))


def test_a_brelan_may_be_paid_more_than_a_brelan_carre() -> None:
    """§7: each bonus is its own integer; nothing orders them."""
    rules = BouillotteRules(bonus_carre=1, bonus_brelan=4)
    hand = start(BRELANS, "9S", rules=rules, stacks=[100, 100, 100, 100])
    play(hand, "2 decline, 2 open 2, 1 call, 0 call, 3 call, 1 decline, 0 fold, 3 fold")
    pots, ranks = _result(hand)
    assert pots == ((8, 1),) and ranks[1] == "carre" and ranks[2] == "brelan"
    assert hand.result is not None
    assert hand.result.bonuses == ((0, 2, 4), (3, 2, 4), (0, 1, 1), (3, 1, 1))
    assert chips(hand) == 400


MISTIGRI_HANDS = {0: "8H 8D 9C", 1: "AS KS QS", 2: "QC 9H 9D", 3: "AD KD AH"}


def test_mistigri_on_beats_points_and_collects_nothing() -> None:
    rules = BouillotteRules(mistigri=True)
    hand = start(MISTIGRI_HANDS, "8S", rules=rules)
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 fold")
    pots, ranks = _result(hand)
    assert pots == ((7, 2),) and ranks[2] == "mistigri"
    assert hand.result is not None and hand.result.bonuses == ()


def test_mistigri_off_is_a_points_hand() -> None:
    hand = start(MISTIGRI_HANDS, "8S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 fold")
    pots, ranks = _result(hand)
    assert pots == ((7, 1),) and ranks[2] == "points"  # spades (39) owned by seat 1


def test_brelan_beats_mistigri() -> None:
    rules = BouillotteRules(mistigri=True)
    hands = {0: "8H 8D 9C", 1: "KS KH KC", 2: "QC 9H 9D", 3: "AD KD AH"}
    hand = start(hands, "8S", rules=rules)
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 fold")
    pots, ranks = _result(hand)
    assert pots == ((7, 1),) and ranks == {0: "points", 1: "brelan", 2: "mistigri", 3: "points"}


def test_brelans_off_points_always_decide_and_no_bonus() -> None:
    rules = BouillotteRules(brelans=False)
    hands = {0: "8H 8D 9C", 1: "AS KS QS", 2: "KH KD KC", 3: "AD 9D AH"}
    hand = start(hands, "8S", rules=rules)
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 fold")
    pots, ranks = _result(hand)
    assert pots == ((7, 1),) and set(ranks.values()) == {"points"}
    assert hand.result is not None and hand.result.bonuses == ()
    # The same hand with brelans: the kings win and collect.
    hand = start(hands, "8S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 fold")
    pots, _ = _result(hand)
    assert pots == ((7, 2),)
    assert hand.result is not None and len(hand.result.bonuses) == 3


SIDE = {0: "KS 9D QC", 1: "AH QS 9C", 2: "AS 8D 8C", 3: "KH QH 8H"}


def test_side_pot_is_decided_from_the_suit_that_won_the_main_pot() -> None:
    # Spades and hearts tie (39). Main pot among 2, 1, 0: seat 2 (AS) comes first in the
    # order and wins it with spades. Side pot between 1 and 0: seat 1 would win from scratch
    # (it owns hearts and comes first) but spades decide it: seat 0 holds the KS.
    hand = start(SIDE, "8S", stacks=[100, 100, 5, 100])
    # Seat 2 cannot match the pot: no straddle is possible.
    play(hand, "2 all_in, 1 raise 20, 0 call, 3 fold, 0 decline")
    pots, _ = _result(hand)
    assert pots == ((17, 2), (30, 0))
    assert hand.result is not None and hand.result.suit_points == {
        "S": 39,
        "H": 39,
        "D": 17,
        "C": 27,
    }


def test_side_pot_with_a_brelan_among_its_contenders() -> None:
    # The all-in player has the best points; the side pot has a brelan among its contenders.
    hands = {0: "9H 9D 9C", 1: "AH QS 8C", 2: "AS KS QD", 3: "KH QH 8H"}
    hand = start(hands, "AD", stacks=[100, 100, 5, 100])
    # Seat 2 cannot match the pot: no straddle is possible.
    play(hand, "2 all_in, 1 raise 20, 0 call, 3 fold, 0 decline")
    pots, _ = _result(hand)
    # Seat 0's brelan wins both pots: it is a contender of the main pot too.
    assert pots == ((17, 0), (30, 0))


def test_without_brelans_mistigri_and_bonuses_have_no_effect() -> None:
    """§6, §8: ``brelans: false`` turns off brelan carré, brelan and mistigri, and so the
    bonuses, whatever ``mistigri``, ``bonus_carre`` and ``bonus_brelan`` say."""
    rules = BouillotteRules(brelans=False, mistigri=True, bonus_carre=1, bonus_brelan=5)
    hands = {0: "8H 8D 9C", 1: "AS KS QS", 2: "QC 9H 9D", 3: "KH KD KC"}
    hand = start(hands, "8S", rules=rules)
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold, 3 call, 1 decline, 3 decline")
    pots, ranks = _result(hand)
    assert pots == ((7, 1),) and set(ranks.values()) == {"points"}  # spades, seat 1
    assert hand.result is not None and hand.result.bonuses == ()
    assert hand.stacks == [99, 105, 98, 98]


def test_shown_cards_are_listed_high_to_low_then_by_suit() -> None:
    """spec/table-log.md, showdown: ``["AD", "9S", "9C"]``, ``["KH", "KD", "KC"]``, whatever
    order the cards were dealt in (bouillotte.md §8 "Showdown")."""
    assert hand_names(_mask("9C AD 9S")) == ["AD", "9S", "9C"]
    assert hand_names(_mask("KC KH KD")) == ["KH", "KD", "KC"]
    assert hand_names(_mask("8C QH 9H")) == ["QH", "9H", "8C"]
