"""Views built from a whitelist: own cards only before the showdown, everything at it."""

from typing import Any

from app.engine.cards import CARD_INDEX

from .helpers import play, start

HANDS = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}


def cards_shown(value: Any, out: set[str] | None = None) -> set[str]:
    out = set() if out is None else out
    if isinstance(value, str):
        if value in CARD_INDEX:
            out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            cards_shown(key, out)
            cards_shown(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            cards_shown(item, out)
    return out


def test_before_the_deal_nobody_sees_a_card() -> None:
    hand = start(HANDS, "9S")
    assert hand.phase_name == "straddle"
    for viewer in (None, 0, 1, 2, 3):
        view = hand.view(viewer)
        assert cards_shown(view) == set()
        assert view["upcard"] is None
    assert hand.view(2)["legal_actions"] == [{"action": "straddle"}, {"action": "decline"}]


def test_each_seat_sees_its_own_cards_and_the_upcard() -> None:
    hand = start(HANDS, "9S")
    play(hand, "2 decline")
    for seat, cards in HANDS.items():
        view = hand.view(seat)
        assert set(view["hand"]) == set(cards.split())
        assert cards_shown(view) == set(cards.split()) | {"9S"}
        assert view["upcard"] == "9S"
    spectator = hand.view(None)
    assert cards_shown(spectator) == {"9S"} and "hand" not in spectator
    assert "legal_actions" not in spectator
    assert hand.view(2)["legal_actions"] == [
        {"action": "pass"},
        {"action": "all_in"},
        {"action": "open", "min": 2, "max": 100},
    ]
    assert hand.view(1)["legal_actions"] == []


def test_folded_cards_stay_hidden_until_the_showdown() -> None:
    hand = start(HANDS, "9S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 fold")
    for viewer in (None, 1, 2, 3):
        assert not cards_shown(hand.view(viewer)) & set(HANDS[0].split())
    assert set(hand.view(0)["hand"]) == set(HANDS[0].split())
    assert hand.view(0)["seats"][0]["status"] == "folded"
    play(hand, "3 fold")
    # The showdown shows every hand dealt in, folded ones too, to everyone.
    every = {c for cards in HANDS.values() for c in cards.split()} | {"9S"}
    for viewer in (None, 0, 1, 2, 3):
        view = hand.view(viewer)
        assert cards_shown(view) == every
        assert view["showdown"]["0"] == {"rank": "points", "cards": ["AD", "9C", "8H"]}
    assert hand.view(None)["result"]["pots"] == [{"amount": 7, "winner": 2}]


def test_a_hand_won_without_showdown_shows_nothing() -> None:
    hand = start(HANDS, "9S")
    play(hand, "2 decline, 2 open 5, 1 fold, 0 fold, 3 fold")
    assert hand.is_over
    spectator = hand.view(None)
    assert cards_shown(spectator) == {"9S"} and "showdown" not in spectator
    assert cards_shown(hand.view(1)) == set(HANDS[1].split()) | {"9S"}


def test_view_fields() -> None:
    hand = start(HANDS, "9S", n=5, stacks=[100, 100, 100, 100, 0])
    play(hand, "2 straddle, 1 decline")
    view = hand.view(1)
    assert view["game"] == "bouillotte" and view["phase"] == "opening"
    assert view["pot"] == 10 and view["dead_money"] == 0 and view["highest_stake"] == 6
    assert view["opening_minimum"] == 6 and view["last_straddler"] == 2
    assert view["straddles"] == [{"action": "straddle", "seat": 2, "added": 5}]
    assert view["seats"][4] == {"seat": 4, "stack": 0, "stake": 0, "status": "out", "cards": 0}
    assert view["to_act"] == [1] and view["to_call"] == 5
    assert "hand" not in hand.view(4)
