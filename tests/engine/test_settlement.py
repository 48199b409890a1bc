"""Settling the hand (rules/bourre.md §7), the worked pot of §10 and the Indiana game (§9)."""

from app.engine.base import Action
from app.engine.bourre import BourreRules, BourreSession
from app.engine.bourre.deck import ScriptedDeck
from app.engine.cards import parse_card
from tests.engine.helpers import act, build_deck, declare, play_script, stand_pat, start

# §10: A..E = seats 0..4, E deals. B, C and E play; B takes 3 tricks, E 2, C none.
WORKED = {
    0: "8S 8H 8D 9S 9H",
    1: "AS AH AD 5H 5S",
    2: "3S 3H 3D 6D 7D",
    3: "TS TH TD JS JH",
    4: "4S 4H 4D KH 2C",
}
WORKED_PLAY = {1: "AS AH AD 5H 5S", 2: "3S 3H 3D 6D 7D", 4: "4S 4H 4D KH 2C"}


def _worked_hand(rules: BourreRules | None = None) -> BourreSession:
    rules = rules or BourreRules()
    session = BourreSession(rules, [100] * 5, button=4)
    deck = build_deck(5, 4, WORKED)
    h = session.start_hand(deck=deck)
    declare(h, {1, 2, 4})
    stand_pat(h)
    play_script(h, WORKED_PLAY)
    return session


def test_worked_pot_of_section_10() -> None:
    session = _worked_hand()
    r = session.close_hand()
    assert r.pot == 5 and r.tricks == {1: 3, 2: 0, 4: 2}
    assert r.winner == 1 and r.won == 5 and r.bourre == (2,) and r.bourre_payment == 5
    assert r.carry == 5
    assert list(r.stacks) == [99, 104, 94, 99, 99]
    assert r.next_exempt == {2}
    h2 = session.start_hand(seed=bytes(32))
    assert h2.pot == 9 and h2.dealer == 0
    assert h2.stacks == [98, 103, 94, 98, 98]


def test_pot_limit_caps_the_take_and_the_bourre_payment() -> None:
    session = _worked_hand(BourreRules(pot_limit=3))
    r = session.close_hand()
    assert r.won == 3 and r.bourre_payment == 3
    assert r.carry == 5 - 3 + 3
    assert list(r.stacks) == [99, 102, 96, 99, 99]


def test_chips_conserved_in_worked_hand() -> None:
    session = _worked_hand()
    r = session.close_hand()
    assert sum(r.stacks) + r.carry == 500


# 1-1-1-1-1: every player takes one trick (clubs trump, the dealer's 7C turned).
FIVE_WAY = {
    0: "AS 2H 2D 2C 2S",
    1: "3S AH 3D 3C 4S",
    2: "5S 4H AD 4C 6S",
    3: "7S 5H 5D AC 8S",
    4: "9S 6H 6D KS 7C",
}
FIVE_WAY_PLAY = {
    0: "AS 2H 2D 2C 2S",
    1: "3S AH 3D 3C 4S",
    2: "5S 4H AD 4C 6S",
    3: "7S 5H 5D AC 8S",
    4: "9S 6H 6D 7C KS",
}


def test_split_pot_one_each() -> None:
    session = BourreSession(BourreRules(), [100] * 5, button=4)
    h = session.start_hand(deck=build_deck(5, 4, FIVE_WAY))
    declare(h, range(5))
    stand_pat(h)
    play_script(h, FIVE_WAY_PLAY)
    r = session.close_hand()
    assert r.tricks == {0: 1, 1: 1, 2: 1, 3: 1, 4: 1}
    assert r.winner is None and r.carry == 5 and r.bourre == ()
    assert r.next_exempt == {0, 1, 2, 3, 4}
    h2 = session.start_hand(seed=bytes(32))
    assert h2.pot == 5 and h2.stacks == [99] * 5  # nobody antes: all tied


# 2-2-1 with three players (clubs trump, dealer 2 turns the 4C); seat 3 sits by passing.
TWO_TWO = {0: "AS AH 2D 2C 2S", 1: "4S 3H AD AC 3S", 2: "5S 4H 4D KS 4C", 3: "9D TD JD QD KD"}
TWO_TWO_PLAY = {0: "AS AH 2D 2C 2S", 1: "4S 3H AD AC 3S", 2: "5S 4H 4D 4C KS"}


def test_split_pot_two_two_one_and_exemption_next_hand() -> None:
    session = BourreSession(BourreRules(), [100] * 4, button=2)
    h = session.start_hand(deck=build_deck(4, 2, TWO_TWO))
    assert h.order == (3, 0, 1, 2)
    declare(h, {0, 1, 2})
    stand_pat(h)
    assert h.turn == 0
    play_script(h, TWO_TWO_PLAY)
    r = session.close_hand()
    assert r.tricks == {0: 2, 1: 2, 2: 1}
    assert r.winner is None and r.carry == 4 and r.next_exempt == {0, 1}
    h2 = session.start_hand(seed=bytes(32))
    assert h2.pot == 4 + 2 and h2.stacks == [99, 99, 98, 98]


def test_double_ante_ignores_split_exemptions() -> None:
    session = BourreSession(BourreRules(double_ante=True), [100] * 4, button=2)
    h = session.start_hand(deck=build_deck(4, 2, TWO_TWO))
    declare(h, {0, 1, 2})
    stand_pat(h)
    play_script(h, TWO_TWO_PLAY)
    r = session.close_hand()
    assert r.pot == 7 and r.carry == 7
    h2 = session.start_hand(seed=bytes(32))
    assert h2.pot == 7 + 4


def test_bourre_payment_taken_even_if_the_player_then_has_little_left() -> None:
    session = BourreSession(BourreRules(), [100, 100, 6, 100, 100], button=4)
    h = session.start_hand(deck=build_deck(5, 4, WORKED))
    declare(h, {1, 2, 4})  # seat 2 has 5 after the ante: covers a bourré of 5
    stand_pat(h)
    play_script(h, WORKED_PLAY)
    r = session.close_hand()
    assert r.stacks[2] == 0 and r.carry == 5
    h2 = session.start_hand(seed=bytes(32))
    assert 2 not in h2.order  # a stack of zero sits out


INDIANA_SPLIT = {0: "AH KH 2C 3C", 1: "2D 3D KC AC", 2: "2H 3H 4C 5D"}


def test_indiana_four_cards_two_two_splits() -> None:
    rules = BourreRules.from_dict(
        {
            "hand_size": 4,
            "trump_card": "dead",
            "max_discard": 3,
            "double_ante": True,
            "renege_penalty": 2,
            "entry_requirement": "trump_or_club",
            "second_chance": True,
        }
    )
    deck = build_deck(3, 2, INDIANA_SPLIT, turned="2S", hand_size=4)
    h = start_from(rules, deck, 3, 2)
    assert len(h.view(0)["hand"]) == 4
    declare(h, {0, 1, 2})
    assert h.pot == 6
    stand_pat(h)
    assert h.phase_name == "second_chance" and h.to_act() == (0,)
    act(h, 0, "play")
    act(h, 1, "play")
    act(h, 2, "play")
    assert h.pot == 9 and h.stacks == [97, 97, 97]
    play_script(h, INDIANA_SPLIT)
    r = h.result
    assert r is not None and r.tricks == {0: 2, 1: 2, 2: 0}
    assert r.winner is None and r.bourre == (2,) and r.carry == 9 + 9


def test_indiana_two_one_one_wins() -> None:
    rules = BourreRules(hand_size=4, trump_card="dead", max_discard=3)
    hands = {0: "AH KH 2C 3C", 1: "3D 4D 5D AD", 2: "2H 3H 4C 6D", 3: "8D 9D AC 2D"}
    deck = build_deck(4, 3, hands, turned="2S", hand_size=4)
    h = start_from(rules, deck, 4, 3)
    declare(h, {0, 1, 2, 3})
    stand_pat(h)
    play_script(h, hands)
    r = h.result
    assert r is not None and r.tricks == {0: 2, 1: 1, 2: 0, 3: 1}
    assert r.winner == 0


def start_from(rules: BourreRules, deck: list[str], n: int, dealer: int):  # type: ignore[no-untyped-def]
    from app.engine.bourre.state import BourreHand

    return BourreHand(rules, [100] * n, dealer, ScriptedDeck([parse_card(c) for c in deck]))


def test_second_chance_all_but_one_pass_and_liability() -> None:
    rules = BourreRules(second_chance=True)
    h = start(rules, {0: "AS 2H 3H 4H 5H", 1: "6D 7D 8D 9D TD", 2: "2C 3C 4C 5C 6S"})
    declare(h, {0, 1, 2})
    stand_pat(h)
    assert h.phase_name == "second_chance"
    act(h, 0, "pass")
    assert h.turn == 1
    act(h, 1, "pass")
    r = h.result
    assert r is not None and r.winner == 2 and r.players == (2,)
    assert r.tricks == {2: 5}


def test_second_chance_refuses_play_that_cannot_be_covered() -> None:
    rules = BourreRules(second_chance=True)
    h = start(
        rules,
        {0: "AS 2H 3H 4H 5H", 1: "6D 7D 8D 9D TD", 2: "2C 3C 4C 5C 6S"},
        stacks=[7, 100, 100],
    )
    declare(h, {0, 1, 2})
    stand_pat(h)
    # seat 0 has 6; worst: its extra ante 1 + pot 3 + 3 extra antes = 7 > 6
    assert [a.kind for a in h.legal_actions(0)] == ["pass"]
    assert h.apply(Action(0, "pass"))


def test_dealer_antes_for_all_across_hands_ignore_exemptions() -> None:
    session = BourreSession(BourreRules(ante_mode="dealer_for_all"), [100] * 5, button=4)
    h = session.start_hand(deck=build_deck(5, 4, WORKED))
    assert h.stacks == [100, 100, 100, 100, 95]
    declare(h, {1, 2, 4})
    stand_pat(h)
    play_script(h, WORKED_PLAY)
    session.close_hand()
    h2 = session.start_hand(seed=bytes(32))
    assert h2.dealer == 0 and h2.pot == 5 + 5 and h2.stacks[0] == 95
