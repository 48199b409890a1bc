"""Views are whitelists: own cards, public cards, counts; nothing hidden (DESIGN.md)."""

import json

from app.engine.base import Action
from app.engine.bourre import BourreRules
from tests.engine.helpers import act, declare, stand_pat, start

HANDS = {0: "AS 2H 3H 4H 5H", 1: "6D 7D 8D 9D TD", 2: "2C 3C 4C 5C KS"}


def test_seat_view_shows_own_cards_counts_and_legal_actions() -> None:
    h = start(None, HANDS, stock="JD QD KD")
    v = h.view(0)
    assert v["hand"] == ["AS", "5H", "4H", "3H", "2H"]
    assert v["turned_card"] == "KS" and v["trump"] == "S"
    assert [s["cards"] for s in v["seats"]] == [5, 5, 5]
    assert v["to_act"] == [0] and v["phase"] == "declare" and v["pot"] == 3
    assert v["legal_actions"] == [{"seat": 0, "action": "play"}, {"seat": 0, "action": "pass"}]
    assert h.view(1)["legal_actions"] == []
    text = json.dumps(v)
    for hidden in ["6D", "7D", "8D", "9D", "TD", "2C", "3C", "4C", "5C", "JD", "QD"]:
        assert hidden not in text


def test_spectator_sees_nothing_private() -> None:
    h = start(None, HANDS, stock="JD QD KD")
    v = h.view(None)
    assert "hand" not in v and "legal_actions" not in v and "my_discards" not in v
    text = json.dumps(v)
    cards = {"AS", "2H", "6D", "2C", "JD"}
    assert not any(c in text for c in cards)
    assert "KS" in text  # the turned card is public


def test_folded_cards_are_never_shown() -> None:
    h = start(None, HANDS, stock="JD QD KD")
    declare(h, {0, 2})
    assert h.view(None)["seats"][1]["status"] == "passed"
    stand_pat(h)
    act(h, 0, "card", "AS")
    for viewer in (None, 0, 2):
        text = json.dumps(h.view(viewer))
        assert "6D" not in text and "TD" not in text
        assert "AS" in text  # played cards are public


def test_result_is_shown_when_over() -> None:
    h = start(None, HANDS)
    act(h, 0, "pass")
    act(h, 1, "pass")
    v = h.view(None)
    assert v["phase"] == "over" and v["to_act"] == []
    assert v["result"]["winner"] == 2 and v["result"]["tricks"] == {"2": 5}
    assert "5C" not in json.dumps(v)


def test_events_say_who_may_hear_them() -> None:
    h = start(None, HANDS, stock="JD QD KD")
    events = h.start_events
    dealt = [e for e in events if e.kind == "dealt"]
    assert [(e.seat, e.to) for e in dealt] == [(0, 0), (1, 1), (2, 2)]
    assert all(e.to is None for e in events if e.kind != "dealt")
    declare(h, {0, 2})
    out = h.apply(Action(0, "discard", cards=("2H", "3H")))
    public = [e for e in out if e.to is None]
    private = [e for e in out if e.to is not None]
    assert public[0].data == {"count": 2, "received": 2, "face_up": []}
    assert private[0].to == 0 and private[0].data["received"] == ["QD", "JD"]


def test_discarded_turned_card_is_face_up() -> None:
    h = start(BourreRules(), HANDS, stock="JD QD KD")
    declare(h, {0, 2})
    act(h, 0, "discard", "")
    out = h.apply(Action(2, "discard", cards=("KS",)))
    assert out[0].data["face_up"] == ["KS"] and out[0].to is None
    assert h.view(0)["face_up_discards"] == ["KS"]


def test_a_hand_is_a_game() -> None:
    from app.engine.base import Game

    assert isinstance(start(None, HANDS), Game)


def test_everyone_sees_who_has_drawn_even_a_draw_of_no_card() -> None:
    h = start(BourreRules(max_discard=3), HANDS, stock="JD QD KD")
    declare(h, {0, 1, 2})
    assert [s["drawn"] for s in h.view(None)["seats"]] == [False, False, False]
    act(h, 0, "discard", "")  # keeps all: drawn, though nothing was exchanged
    act(h, 1, "discard", "6D")
    for viewer in (None, 0, 2):
        seats = h.view(viewer)["seats"]
        assert [(s["drawn"], s["exchanged"]) for s in seats] == [(True, 0), (True, 1), (False, 0)]


def test_drawing_with_the_declaration_is_drawn_once_the_exchange_is_made() -> None:
    h = start(BourreRules(draw_with_declare=True), HANDS, stock="JD QD KD")
    act(h, 0, "play")
    assert h.view(None)["seats"][0]["drawn"] is False  # declared, exchange still to come
    act(h, 0, "discard", "")
    assert [s["drawn"] for s in h.view(None)["seats"]] == [True, False, False]
