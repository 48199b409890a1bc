"""Legal plays and trick winners (rules/bourre.md §5), every option both ways."""

import pytest

from app.engine.base import Action
from app.engine.bourre import BourreRules
from app.engine.bourre.state import BourreHand
from tests.engine.helpers import act, declare, refused, stand_pat, start

DEAD_SPADE = {"trump_card": "dead"}


def _tricks(hands: dict[int, str], **options: object) -> BourreHand:
    """Three players all in, spades trump (dead 2S), nobody exchanges; seat 0 leads."""
    rules = BourreRules.from_dict({**DEAD_SPADE, **options})
    h = start(rules, hands, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    assert h.phase_name == "tricks" and h.turn == 0
    return h


FOLLOW = {0: "9H 3D 4D 5D 6D", 1: "QH 8H 3S 7C 8C", 2: "TH 7D 4S AS 9C"}


def test_must_follow_suit_and_beat() -> None:
    h = _tricks(FOLLOW)
    act(h, 0, "card", "9H")
    assert h.legal_cards(1) == ["QH"]
    err = refused(h, Action(1, "card", card="3S"))
    assert err.code == "must_follow_suit"
    assert err.message == "You hold hearts: you must follow suit."
    assert err.reason == "must follow suit (hearts)"
    err = refused(h, Action(1, "card", card="8H"))
    assert err.code == "must_beat"
    assert err.message == "You must play a heart higher than the 9H (QH)."
    assert err.details["legal"] == ["QH"]
    act(h, 1, "card", "QH")
    assert h.legal_cards(2) == ["TH"]  # cannot beat the QH: any heart
    act(h, 2, "card", "TH")
    assert h.tricks_won[1] == 1 and h.turn == 1


def test_must_beat_false() -> None:
    h = _tricks(FOLLOW, must_beat=False)
    act(h, 0, "card", "9H")
    assert sorted(h.legal_cards(1)) == ["8H", "QH"]


def test_card_not_held_and_bad_card() -> None:
    h = _tricks(FOLLOW)
    assert refused(h, Action(0, "card", card="AH")).code == "card_not_held"
    assert refused(h, Action(0, "card", card="ZZ")).code == "bad_card"
    assert refused(h, Action(0, "play")).code == "wrong_phase"
    assert refused(h, Action(0, "take_back")).code == "take_back_not_allowed"


TRUMPED = {0: "9H 3D 4D 5D 6D", 1: "3S 7C 8C 9C TC", 2: "TH 8H 7D 4S AS"}


def test_once_trumped_any_card_of_the_led_suit() -> None:
    h = _tricks(TRUMPED)
    act(h, 0, "card", "9H")
    assert h.legal_cards(1) == ["3S"]
    err = refused(h, Action(1, "card", card="7C"))
    assert err.code == "must_trump"
    assert err.message == "You cannot follow hearts: you must play a trump (spades)."
    act(h, 1, "card", "3S")
    assert h.legal_cards(2) == ["TH", "8H"]
    act(h, 2, "card", "8H")
    assert h.tricks_won == [0, 1, 0]


OVER = {0: "9H 3D 4D 5D 6D", 1: "QS 7C 8C 9C TC", 2: "KS 4S 7D 8D JC"}
UNDER = {0: "9H 3D 4D 5D 6D", 1: "QS 7C 8C 9C TC", 2: "5S 4S 7D 8D JC"}


def test_must_overtrump() -> None:
    h = _tricks(OVER)
    act(h, 0, "card", "9H")
    act(h, 1, "card", "QS")
    assert h.legal_cards(2) == ["KS"]
    err = refused(h, Action(2, "card", card="4S"))
    assert err.code == "must_overtrump"
    assert err.message == "You must play a trump higher than the QS (KS)."


@pytest.mark.parametrize(
    ("must_trump", "legal"),
    [("to_win", ["5S", "4S", "8D", "7D", "JC"]), ("always", ["5S", "4S"])],
)
def test_must_trump_to_win_or_always(must_trump: str, legal: list[str]) -> None:
    h = _tricks(UNDER, must_trump=must_trump)
    act(h, 0, "card", "9H")
    act(h, 1, "card", "QS")
    assert h.legal_cards(2) == legal


@pytest.mark.parametrize(("throw_off", "legal"), [(False, ["3S"]), (True, None)])
def test_allow_throw_off(throw_off: bool, legal: list[str] | None) -> None:
    h = _tricks(TRUMPED, allow_throw_off=throw_off, cinch_rule=False)
    act(h, 0, "card", "9H")
    assert h.legal_cards(1) == (legal or ["3S", "TC", "9C", "8C", "7C"])


def test_trumps_led_must_beat() -> None:
    h = _tricks({0: "5S 3D 4D 5D 6D", 1: "3S 9S 7C 8C 9C", 2: "TH 8H 7D 4S AH"})
    act(h, 0, "card", "5S")
    assert h.legal_cards(1) == ["9S"]
    act(h, 1, "card", "9S")
    assert h.legal_cards(2) == ["4S"]  # cannot beat: any trump still follows suit
    act(h, 2, "card", "4S")
    assert h.tricks_won == [0, 1, 0] and h.turn == 1


def test_leader_free_and_winner_leads_next() -> None:
    h = _tricks(FOLLOW)
    assert sorted(h.legal_cards(0)) == sorted(["9H", "3D", "4D", "5D", "6D"])
    act(h, 0, "card", "3D")
    act(h, 1, "card", "3S")  # void in diamonds: must trump
    act(h, 2, "card", "7D")
    assert h.turn == 1 and h.tricks_won[1] == 1
    assert [c["card"] for c in h.view(None)["tricks"][0]["cards"]] == ["3D", "3S", "7D"]
