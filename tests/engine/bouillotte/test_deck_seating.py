"""Packs by player count, the deal order, seeded decks, and seating by draw (§1, §4)."""

import pytest

from app.engine.base import EngineError
from app.engine.bouillotte import BouillotteRules, BouillotteSession
from app.engine.bouillotte.deck import PACKS, DeckError, ScriptedDeck, SeededDeck
from app.engine.bouillotte.seating import (
    draw_seating,
    drawing_cards,
    seat_at_table,
    seat_players,
    seating_from_draw,
)
from app.engine.cards import CARD_NAMES, parse_card, rank_of
from app.engine.rng import shuffled

from .helpers import start


def _ranks(players: int) -> set[str]:
    return {CARD_NAMES[c][0] for c in PACKS[players]}


def test_packs_by_number_of_players() -> None:
    assert len(PACKS[3]) == 16 and _ranks(3) == set("AK98")
    assert len(PACKS[4]) == 20 and _ranks(4) == set("AKQ98")
    assert len(PACKS[5]) == 24 and _ranks(5) == set("AKQJ98")
    for pack in PACKS.values():
        assert list(pack) == sorted(pack)  # canonical order, as the shuffle requires


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_hand_deals_from_the_pack_of_the_players_dealt_in(players: int) -> None:
    # Two extra seats with no chips are not dealt in and do not change the pack.
    session = BouillotteSession(BouillotteRules(), [50] * players + [0, 0], button=0)
    hand = session.start_hand(seed=bytes(32))
    assert len(hand.order) == players
    assert sorted(hand.deck) == list(PACKS[players])
    assert hand.deck == shuffled(PACKS[players], bytes(32), 0)


def test_seeded_deck_is_deterministic_and_differs_by_seed() -> None:
    a = SeededDeck(b"\x01" * 32).deck(4)
    assert a == SeededDeck(b"\x01" * 32).deck(4)
    assert a != SeededDeck(b"\x02" * 32).deck(4)
    assert sorted(a) == list(PACKS[4])


def test_scripted_deck_must_be_the_hands_pack() -> None:
    with pytest.raises(DeckError) as info:
        ScriptedDeck(list(PACKS[4])).deck(3)
    assert "16 cards A K 9 8" in info.value.message
    assert ScriptedDeck(list(PACKS[3])).deck(3) == list(PACKS[3])


def test_deal_is_one_at_a_time_from_the_dealers_right_then_the_upcard() -> None:
    # Seats 0..3, dealer 3: counter-clockwise the order is 2, 1, 0, then the dealer 3.
    hand = start({0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}, "9S")
    assert hand.order == (2, 1, 0, 3)
    deck = [CARD_NAMES[c] for c in hand.deck]
    first_round, second_round, third_round = deck[:4], deck[4:8], deck[8:12]
    assert first_round == ["KD", "QH", "AD", "KH"]  # seats 2, 1, 0, then the dealer
    assert second_round == ["QD", "AC", "9C", "8D"]
    assert third_round == ["AS", "8C", "8H", "QS"]
    assert deck[12] == "9S"  # the next card is the upcard
    # The cards are dealt only after the straddles.
    assert not hand.dealt and hand.upcard == -1
    hand.apply(hand.legal_actions(2)[1])  # decline
    assert hand.dealt and CARD_NAMES[hand.upcard] == "9S"
    assert hand.hands[2] == sum(1 << parse_card(c) for c in ["KD", "QD", "AS"])


def test_clockwise_deals_to_the_left() -> None:
    rules = BouillotteRules(direction="clockwise")
    hand = start({0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}, "9S", rules=rules)
    assert hand.order == (0, 1, 2, 3)
    assert [CARD_NAMES[c] for c in hand.deck[:4]] == ["AD", "QH", "KD", "KH"]


def test_seating_draw_king_deals_and_the_others_sit_to_his_right() -> None:
    k, q, j, nine = (parse_card(c) for c in ("KS", "QS", "JS", "9S"))
    # Players in join order drew J, K, 9, Q.
    seating = seating_from_draw([j, k, nine, q], king_seat=1)
    # King (player 1) on seat 1 deals; Q on his right (seat 0), then J (seat 3), 9 (seat 2).
    assert seating.dealer == 1
    assert seating.players_by_seat == (3, 1, 2, 0)
    assert seating.drawn == ("JS", "KS", "9S", "QS")
    clockwise = seating_from_draw([j, k, nine, q], direction="clockwise", king_seat=1)
    assert clockwise.players_by_seat == (2, 1, 3, 0)


def test_seating_draw_from_a_seed_is_pure() -> None:
    seed = bytes(range(32))
    first = draw_seating(5, seed)
    assert first == draw_seating(5, seed)
    assert sorted(first.players_by_seat) == [0, 1, 2, 3, 4]
    king = first.players_by_seat[first.dealer]
    assert first.drawn[king] == "KS"
    assert {rank_of(c) for c in drawing_cards(3)} == {
        rank_of(parse_card(x)) for x in ["KS", "QS", "JS"]
    }
    ranks = [CARD_NAMES.index(first.drawn[p]) % 13 for p in first.players_by_seat]
    # Going right from the king (seat - 1), the cards descend.
    seq = [ranks[(first.dealer - i) % 5] for i in range(5)]
    assert seq == sorted(seq, reverse=True)


def test_seat_players_by_rule() -> None:
    assert seat_players(BouillotteRules(seating="as_joined"), 4).players_by_seat == (0, 1, 2, 3)
    assert seat_players(BouillotteRules(), 4, b"\x05" * 32) == draw_seating(4, b"\x05" * 32)
    with pytest.raises(EngineError):
        seat_players(BouillotteRules(), 4)
    with pytest.raises(EngineError):
        seat_players(BouillotteRules(), 6, b"\x05" * 32)
    with pytest.raises(EngineError):
        seating_from_draw([parse_card("KS"), parse_card("KH"), parse_card("QS")])
    with pytest.raises(EngineError):
        seating_from_draw([parse_card(c) for c in ("KS", "QS", "JS")], king_seat=3)


def test_seated_as_joined_nobody_moves_and_the_first_to_join_deals() -> None:
    seating = seat_at_table(BouillotteRules(seating="as_joined"), [2, 0, 4], b"\x01" * 32)
    assert seating.moves == {2: 2, 0: 0, 4: 4} and seating.dealer == 2 and seating.drawn == {}


@pytest.mark.parametrize("direction", ["counter_clockwise", "clockwise"])
@pytest.mark.parametrize("joined", [[0, 1, 2, 3], [3, 0, 2], [4, 1, 3, 0, 2], [2, 7, 5]])
def test_seated_by_draw_the_king_keeps_his_seat_and_the_others_sit_to_his_right(
    direction: str, joined: list[int]
) -> None:
    """§1 at a club table: players move only among the seats they took; the king keeps his
    and deals first; going right from him round those seats, the cards descend."""
    rules = BouillotteRules(direction=direction)
    for n in range(20):
        seed = bytes([n]) * 32
        seating = seat_at_table(rules, joined, seed)
        assert seat_at_table(rules, joined, seed) == seating  # pure: the seed decides
        assert sorted(seating.moves) == sorted(seating.moves.values()) == sorted(joined)
        cards = seating.drawn
        assert sorted(cards) == sorted(joined) and cards[seating.dealer][0] == "K"
        came_from = {now: taken for taken, now in seating.moves.items()}
        assert came_from[seating.dealer] == seating.dealer  # the king did not move
        ring = sorted(joined)
        step = rules.step
        going_right = [
            ring[(ring.index(seating.dealer) + step * k) % len(ring)] for k in range(len(ring))
        ]
        ranks = [rank_of(parse_card(cards[seat])) for seat in going_right]
        assert ranks == sorted(ranks, reverse=True)
        # The draw is the seed's: player p (join order) drew card p of the shuffle.
        shuffle = [CARD_NAMES[c] for c in shuffled(drawing_cards(len(joined)), seed, 0)]
        assert [cards[seating.moves[seat]] for seat in joined] == shuffle
