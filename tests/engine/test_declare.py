"""Antes, deal, trump and the play-or-pass round (rules/bourre.md §2, §3, §4, §7 liability)."""

import pytest

from app.engine.base import Action, EngineError
from app.engine.bourre import BourreRules, BourreSession
from app.engine.bourre.state import PLAYING
from tests.engine.helpers import act, build_deck, declare, refused, stand_pat, start

FIVE = {
    0: "8S 8H 8D 9S 9H",
    1: "AS AH AD 5H 5S",
    2: "3S 3H 3D 6D 7D",
    3: "TS TH TD JS JH",
    4: "4S 4H 4D KH 2C",
}


def test_deal_order_and_turned_card_dealer_keeps() -> None:
    h = start(None, FIVE)
    assert h.dealer == 4 and h.order == (0, 1, 2, 3, 4)
    assert h.view(1)["hand"] == ["AS", "5S", "AH", "5H", "AD"]
    v = h.view(None)
    assert v["trump"] == "C" and v["turned_card"] == "2C" and not v["turned_card_dead"]
    assert "2C" in h.view(4)["hand"]
    assert h.pot == 5 and h.stacks == [99] * 5
    assert v["stock"] == 52 - 25


def test_dead_trump_card_belongs_to_nobody() -> None:
    h = start(BourreRules(trump_card="dead"), FIVE, turned="7H")
    assert h.view(None)["trump"] == "H" and h.view(None)["turned_card_dead"]
    assert "7H" not in h.view(4)["hand"] and h.view(None)["stock"] == 52 - 26


def test_in_turn_order_and_not_your_turn() -> None:
    h = start(None, FIVE)
    assert h.to_act() == (0,)
    for seat in (1, 2, 3, 4):
        assert refused(h, Action(seat, "play")).code == "not_your_turn"
    assert refused(h, Action(9, "play")).code == "no_such_seat"
    assert refused(h, Action(0, "card", card="8S")).code == "wrong_phase"
    assert refused(h, Action(0, "dance")).code == "unknown_action"
    act(h, 0, "pass")
    assert h.to_act() == (1,)
    assert refused(h, Action(0, "play")).code == "not_your_turn"


def test_everyone_before_the_dealer_passes_dealer_wins_without_declaring() -> None:
    h = start(None, FIVE)
    for seat in (0, 1, 2, 3):
        act(h, seat, "pass")
    assert h.is_over
    r = h.result
    assert r is not None and r.winner == 4 and r.players == (4,) and r.tricks == {4: 5}
    assert r.carry == 0 and r.stacks[4] == 99 + 5 and not r.bourre


def test_one_player_plays_wins_without_play() -> None:
    h = start(None, FIVE)
    act(h, 0, "pass")
    act(h, 1, "play")
    for seat in (2, 3, 4):
        act(h, seat, "pass")
    r = h.result
    assert r is not None and r.winner == 1 and r.tricks == {1: 5} and r.bourre == ()


def test_ace_turned_dealer_must_play() -> None:
    hands = dict(FIVE)
    hands[4] = "4S 4H 4D KH AC"
    h = start(None, hands)
    for seat in (0, 1, 2, 3):
        act(h, seat, "play" if seat < 2 else "pass")
    assert h.turn == 4
    err = refused(h, Action(4, "pass"))
    assert err.code == "dealer_must_play"
    assert [a.kind for a in h.legal_actions(4)] == ["play"]
    act(h, 4, "play")
    assert h.phase_name == "draw"


def test_ace_rule_off_or_dead_trump_lets_dealer_pass() -> None:
    hands = dict(FIVE)
    hands[4] = "4S 4H 4D KH AC"
    h = start(BourreRules(ace_trump_dealer_must_play=False), hands)
    for seat in (0, 1, 2, 3):
        act(h, seat, "play" if seat < 2 else "pass")
    assert [a.kind for a in h.legal_actions(4)] == ["play", "pass"]
    h = start(BourreRules(trump_card="dead"), FIVE, turned="AC")
    for seat in (0, 1, 2, 3):
        act(h, seat, "play" if seat < 2 else "pass")
    assert [a.kind for a in h.legal_actions(4)] == ["play", "pass"]


def test_ace_turned_dealer_who_cannot_cover_must_pass() -> None:
    hands = dict(FIVE)
    hands[4] = "4S 4H 4D KH AC"
    h = start(None, hands, stacks=[100, 100, 100, 100, 3])
    for seat in (0, 1, 2, 3):
        act(h, seat, "play" if seat < 2 else "pass")
    assert [a.kind for a in h.legal_actions(4)] == ["pass"]


def test_liability_check_refuses_play_and_allows_pass() -> None:
    # pot 5 after antes; seat 2 has 4 chips left: a bourré of 5 cannot be covered.
    h = start(None, FIVE, stacks=[100, 100, 5, 100, 100])
    act(h, 0, "pass")
    act(h, 1, "play")
    err = refused(h, Action(2, "play"))
    assert err.code == "cannot_cover_liability"
    assert "you must pass" in err.message
    assert [a.kind for a in h.legal_actions(2)] == ["pass"]
    act(h, 2, "pass")


def test_liability_is_capped_by_pot_limit() -> None:
    h = start(BourreRules(pot_limit=3), FIVE, stacks=[100, 100, 5, 100, 100])
    act(h, 0, "pass")
    act(h, 1, "play")
    act(h, 2, "play")  # 4 chips cover a capped bourré of 3


def test_liability_with_double_ante_counts_antes_still_to_come() -> None:
    # pot 5; seat 1 is first of 4 yet to declare (seats 1..4): worst pot 5 + 4 = 9, own ante 1.
    rules = BourreRules(double_ante=True)
    h = start(rules, FIVE, stacks=[100, 10, 100, 100, 100])
    act(h, 0, "pass")
    assert refused(h, Action(1, "play")).code == "cannot_cover_liability"  # 9 left < 1 + 9
    h = start(rules, FIVE, stacks=[100, 11, 100, 100, 100])
    act(h, 0, "pass")
    act(h, 1, "play")
    assert h.stacks[1] == 9 and h.pot == 6


def test_double_ante_takes_second_ante_and_ignores_exemptions() -> None:
    rules = BourreRules(double_ante=True)
    h = start(rules, FIVE, exempt=[2, 3])
    assert h.pot == 5
    declare(h, {1, 2, 4})
    assert h.pot == 8 and h.stacks[1] == 98 and h.stacks[0] == 99


def test_exempt_players_do_not_ante() -> None:
    h = start(None, FIVE, exempt=[2, 3])
    assert h.pot == 3 and h.stacks == [99, 99, 100, 100, 99]


def test_dealer_for_all() -> None:
    rules = BourreRules(ante_mode="dealer_for_all", ante=2)
    h = start(rules, FIVE, exempt=[1])
    assert h.pot == 10 and h.stacks == [100, 100, 100, 100, 90]


def test_dealer_for_all_with_double_ante() -> None:
    rules = BourreRules(ante_mode="dealer_for_all", double_ante=True)
    h = start(rules, FIVE)
    assert h.pot == 5 and h.stacks[4] == 95
    declare(h, {0, 1})
    assert h.pot == 7 and h.stacks[0] == 99


ENTRY = {0: "AS 2H 3H 4H 5H", 1: "2C 7H 8H 9H TH", 2: "2D 3D 4D 5D 6S"}  # spades trumps


@pytest.mark.parametrize("entry", ["trump_or_club", "none"])
def test_entry_requirement_is_checked_at_the_first_declaration_only(entry: str) -> None:
    """bourre.md §4: a player who declared play may always stay in at the second chance,
    whatever the draw left them holding (only the liability is checked there)."""
    rules = BourreRules(entry_requirement=entry, second_chance=True)
    h = start(rules, ENTRY, stock="7D 8D")
    declare(h, {0, 1, 2})
    act(h, 0, "discard", "AS")  # the only trump goes; a diamond comes
    act(h, 1, "discard", "2C")  # the only club goes; a diamond comes
    act(h, 2, "discard", "")
    assert h.phase_name == "second_chance" and h.to_act() == (0,)
    assert sorted(h.view(0)["hand"]) == ["2H", "3H", "4H", "5H", "7D"]
    assert [a.kind for a in h.legal_actions(0)] == ["play", "pass"]
    act(h, 0, "play")
    act(h, 1, "play")
    assert h.status[0] == h.status[1] == PLAYING


def test_dealer_for_all_the_button_seat_that_cannot_pay_sits_out() -> None:
    """bourre.md §2 example: stacks A 2, B 100, C 100, button A, ante 1. A would owe 3 and
    sits out; B deals for B and C (pays 2, pot 2); the next button is C."""
    rules = BourreRules(ante_mode="dealer_for_all")
    session = BourreSession(rules, [2, 100, 100], button=0)
    h = session.start_hand(seed=bytes(32))
    assert h.dealer == 1 and h.order == (2, 1)
    assert h.antes == {1: 2} and h.pot == 2 and h.stacks == [2, 98, 100]
    assert h.legal_actions(0) == [] and refused(h, Action(0, "pass")).code == "not_your_turn"
    act(h, 2, "pass")
    assert h.result is not None and h.result.winner == 1
    session.close_hand()
    assert session.button == 2 and session.stacks == [2, 100, 100]


def test_each_ante_the_same_stacks_deal_everyone_in() -> None:
    """The other way of §2: with ``ante_mode: each`` the seat with 2 chips antes 1 and plays."""
    h = BourreSession(BourreRules(), [2, 100, 100], button=0).start_hand(seed=bytes(32))
    assert h.dealer == 0 and h.order == (1, 2, 0) and h.pot == 3


def test_dealer_for_all_asks_each_seat_in_turn_for_fewer_antes() -> None:
    """§2: each seat that cannot pay sits out, and the next owes an ante fewer for it; seats
    with no chips are skipped (and owed for by nobody)."""
    rules = BourreRules(ante_mode="dealer_for_all", ante=2)
    h = BourreSession(rules, [0, 9, 7, 100, 5], button=0).start_hand(seed=bytes(32))
    # Seat 1 owes 4 x 2 = 8 (has 9): it deals for everyone with chips.
    assert h.dealer == 1 and h.order == (2, 3, 4, 1) and h.antes == {1: 8}
    h = BourreSession(rules, [0, 7, 5, 100, 5], button=0).start_hand(seed=bytes(32))
    # Seat 1 owes 8 (has 7) and sits out; seat 2 owes 6 (has 5) and sits out; seat 3 owes 4.
    assert h.dealer == 3 and h.order == (4, 3) and h.antes == {3: 4}
    assert h.stacks == [0, 7, 5, 96, 5] and h.pot == 4


def test_dealer_for_all_no_hand_when_fewer_than_two_would_be_dealt_in() -> None:
    rules = BourreRules(ante_mode="dealer_for_all")
    session = BourreSession(rules, [2, 1, 100], button=0)
    # Seat 0 owes 3 (has 2), seat 1 owes 2 (has 1): only seat 2 would be left.
    err = refused_start(session)
    assert err.code == "not_enough_players"


def test_seat_that_cannot_cover_its_ante_sits_out() -> None:
    s = BourreSession(BourreRules(ante=2), [100, 1, 0, 100])
    h = s.start_hand(seed=bytes(32))
    assert h.order == (3, 0) and h.dealer == 0
    assert refused(h, Action(1, "play")).code == "not_your_turn"
    assert h.legal_actions(1) == []


def test_entry_requirement() -> None:
    rules = BourreRules(entry_requirement="trump_or_club")
    hands = dict(FIVE)
    hands[0] = "8S 8H 8D 9S 9H"  # no club (trumps are clubs here)
    h = start(rules, hands)
    err = refused(h, Action(0, "play"))
    assert err.code == "entry_requirement"
    assert [a.kind for a in h.legal_actions(0)] == ["pass"]
    rules2 = BourreRules(entry_requirement="trump_or_club", trump_card="dead")
    h = start(rules2, hands, turned="7S")  # spades trump: seat 0 holds spades
    act(h, 0, "play")
    hands[1] = "AH 2H 6C 6H 7C"  # a club but no trump is enough
    h = start(rules2, hands, turned="7S")
    act(h, 0, "play")
    act(h, 1, "play")


def test_simultaneous_any_undeclared_seat_may_act_and_choices_stay_hidden() -> None:
    h = start(BourreRules(declare="simultaneous"), FIVE)
    assert h.to_act() == (0, 1, 2, 3, 4)
    act(h, 3, "play")
    act(h, 0, "pass")
    assert refused(h, Action(3, "pass")).code == "not_your_turn"
    assert h.to_act() == (1, 2, 4)
    spectator = h.view(None)
    statuses = [s["status"] for s in spectator["seats"]]
    assert statuses == ["committed", "deciding", "deciding", "committed", "deciding"]
    assert "my_declaration" not in h.view(1) and "my_declaration" not in spectator
    assert "revealed" not in str(spectator)
    assert h.view(3)["my_declaration"] == "play"
    act(h, 4, "play")
    act(h, 1, "pass")
    act(h, 2, "pass")
    assert h.phase_name == "draw"
    assert [s["status"] for s in h.view(None)["seats"]] == [
        "passed",
        "passed",
        "passed",
        "playing",
        "playing",
    ]
    assert h.to_act() == (3,)


def test_simultaneous_everyone_passes_pot_stays() -> None:
    session = BourreSession(BourreRules(declare="simultaneous"), [100] * 5, button=4)
    h = session.start_hand(deck=build_deck(5, 4, FIVE))
    for seat in (3, 1, 2, 0, 4):
        act(h, seat, "pass")
    r = session.close_hand()
    assert r.players == () and r.winner is None and r.carry == 5 and r.tricks == {}
    assert r.next_exempt == frozenset()
    h2 = session.start_hand(seed=bytes(32))
    assert h2.pot == 10 and h2.dealer == 0


def test_simultaneous_ace_turned_dealer_cannot_commit_pass() -> None:
    hands = dict(FIVE)
    hands[4] = "4S 4H 4D KH AC"
    h = start(BourreRules(declare="simultaneous"), hands)
    assert refused(h, Action(4, "pass")).code == "dealer_must_play"
    act(h, 4, "play")


def test_sitting_out_seats_are_not_dealt_in() -> None:
    session = BourreSession(BourreRules(), [100] * 4, button=0)
    h = session.start_hand(seed=bytes(32), sitting_out=[0, 2])
    assert h.dealer == 1 and h.order == (3, 1)


def test_simultaneous_double_ante_paid_at_reveal() -> None:
    h = start(BourreRules(declare="simultaneous", double_ante=True), FIVE)
    act(h, 1, "play")
    assert h.pot == 5 and h.stacks[1] == 99  # nothing shows before the reveal
    for seat in (0, 2, 3):
        act(h, seat, "pass")
    act(h, 4, "play")
    assert h.pot == 7 and h.stacks[1] == 98 and h.stacks[4] == 98


def test_simultaneous_one_player_plays() -> None:
    h = start(BourreRules(declare="simultaneous"), FIVE)
    for seat in (0, 2, 3, 4):
        act(h, seat, "pass")
    act(h, 1, "play")
    assert h.result is not None and h.result.winner == 1


def test_draw_with_declare_exchange_in_the_declaring_turn() -> None:
    h = start(BourreRules(draw_with_declare=True), FIVE, stock="2D 3C 4C")
    act(h, 0, "pass")
    act(h, 1, "play")
    assert h.to_act() == (1,)
    assert refused(h, Action(2, "play")).code == "not_your_turn"
    assert refused(h, Action(1, "pass")).code == "wrong_phase"
    assert {a.kind for a in h.legal_actions(1)} == {"discard"}
    act(h, 1, "discard", "5H 5S")
    assert "2D" in h.view(1)["hand"] and "3C" in h.view(1)["hand"]
    act(h, 2, "play")
    act(h, 2, "discard", "")
    act(h, 3, "pass")
    act(h, 4, "pass")
    assert h.phase_name == "tricks"


def test_button_moves_left_and_skips_seats_not_dealt_in() -> None:
    s = BourreSession(BourreRules(), [100, 100, 100], button=1)
    h = s.start_hand(seed=bytes(32))
    assert h.dealer == 1
    while not h.is_over:
        seat = h.to_act()[0]
        h.apply(h.legal_actions(seat)[-1])
    s.close_hand()
    assert s.button == 2
    s.stacks[2] = 0
    h = s.start_hand(seed=bytes(32))
    assert h.dealer == 0


def test_stand_pat_goes_to_tricks() -> None:
    h = start(None, FIVE)
    declare(h, {1, 2})
    stand_pat(h)
    assert h.phase_name == "tricks" and h.turn == 1


def refused_start(session: BourreSession) -> EngineError:
    try:
        session.start_hand(seed=bytes(32))
    except EngineError as err:
        return err
    raise AssertionError("a hand was dealt")
