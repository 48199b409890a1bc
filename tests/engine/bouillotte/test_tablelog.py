"""Bouillotte table logs: golden replays, errors with hand/action numbers or JSON paths, the
writer, and the replay output of spec/table-log.md."""

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.commands.replay import run_replay
from app.engine import log
from app.engine.base import Action
from app.engine.bouillotte import BouillotteRules, BouillotteSession
from app.engine.bouillotte import tablelog as bouillotte_log
from app.engine.logdoc import IllegalLogAction, MalformedLog

FIXTURES = Path(__file__).parent / "fixtures"
LOGS = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Route "game": "bouillotte" documents to this engine for the generic replay path."""
    plugin = log.GameLog(
        bouillotte_log.parse_rules,
        bouillotte_log.parse_hand,
        bouillotte_log.replay,
        bouillotte_log.parse_action,
    )
    monkeypatch.setitem(log.GAMES, "bouillotte", plugin)
    yield


def _load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return doc


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_golden_replay(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    code = run_replay(str(path))
    out, err = capsys.readouterr()
    assert code == expected["exit"]
    if code == 0:
        assert json.loads(out) == expected["stdout"]
        assert err == ""
    else:
        assert out == ""
        assert err == expected["stderr"] + "\n"
        assert "\n" not in err.rstrip("\n")


def test_fixture_set_covers_what_it_must() -> None:
    names = {p.stem for p in LOGS}
    assert {"worked_points", "side_pots", "several_all_ins", "buy_back_carre"} <= names
    assert {"seeded_session", "worked_level_dealer", "worked_last_straddler"} <= names
    assert {"house_rules_without_brelans", "bonus_brelan_above_carre"} <= names
    assert any(n.startswith("error_") for n in names)
    assert any(n.startswith("malformed_") for n in names)
    assert '"seed"' in (FIXTURES / "seeded_session.json").read_text()


def test_worked_points_numbers() -> None:
    first, thrown, carried = log.replay(_load("worked_points"))["hands"]
    assert first["suit_points"] == {"S": 30, "H": 28, "D": 39, "C": 28}
    assert first["pots"] == [{"amount": 7, "winner": "C"}] and first["players"] == ["B", "C"]
    assert first["showdown"]["A"] == {"rank": "points", "cards": ["AD", "9C", "8H"]}
    assert thrown["pots"] == [] and thrown["showdown"] == {} and thrown["carry"] == 5
    assert carried["dealer"] == 1 and carried["pots"] == [{"amount": 52, "winner": "C"}]
    assert carried["showdown"]["C"]["rank"] == "brelan" and carried["suit_points"] == {}
    assert len(carried["bonuses"]) == 3


def _replace_tail(name: str, keep: int, tail: list[tuple[int, str, int | None]]) -> Any:
    doc = _load(name)
    actions = doc["hands"][0]["actions"][:keep]
    for seat, kind, amount in tail:
        actions.append({"seat": seat, "action": kind, **({"amount": amount} if amount else {})})
    doc["hands"][0]["actions"] = actions
    return log.replay(doc)["hands"][0]


def test_worked_sequence_1_every_answer_of_the_level_dealer() -> None:
    """bouillotte.md §8, worked sequence 1 (seats: C 0, B 1, A 2, D 3 the dealer)."""
    (called,) = log.replay(_load("worked_level_dealer"))["hands"]
    assert called["players"] == ["A", "D"] and called["pots"] == [{"amount": 6, "winner": "A"}]
    assert len(called["showdown"]) == 4
    raised = _replace_tail("worked_level_dealer", 4, [(3, "raise", 5), (2, "call", None)])
    assert raised["pots"] == [{"amount": 12, "winner": "A"}] and raised["showdown"]
    folded = _replace_tail("worked_level_dealer", 4, [(3, "fold", None)])
    assert folded["pots"] == [{"amount": 6, "winner": "A"}] and folded["showdown"] == {}


def test_worked_sequence_2_the_last_straddler_raises() -> None:
    """bouillotte.md §8, worked sequence 2: A raises to 12; B, C and D answer in that order,
    then three are left and the continuation round asks B and D."""
    (called,) = log.replay(_load("worked_last_straddler"))["hands"]
    assert called["players"] == ["A", "D"] and called["pots"] == [{"amount": 14, "winner": "A"}]
    tail = [(2, "raise", 12), (1, "call", None), (0, "fold", None), (3, "call", None)]
    continuation = [(1, "decline", None), (3, "decline", None)]
    raised = _replace_tail("worked_last_straddler", 5, [*tail, *continuation])
    assert raised["pots"][0]["amount"] == 37
    with pytest.raises(IllegalLogAction, match="seat 0 acted out of turn"):
        _replace_tail("worked_last_straddler", 5, [(2, "raise", 12), (0, "fold", None)])


def test_side_pot_numbers() -> None:
    (hand,) = log.replay(_load("side_pots"))["hands"]
    assert [p["amount"] for p in hand["pots"]] == [17, 14]


def test_buy_back_carre_bonuses_with_a_short_payer() -> None:
    (hand,) = log.replay(_load("buy_back_carre"))["hands"]
    assert hand["showdown"]["D"]["rank"] == "carre"
    assert {"from": "E", "to": "D", "amount": 1} in hand["bonuses"]
    assert hand["stacks"]["E"] == 0


def test_replay_is_pure_and_repeatable() -> None:
    doc = _load("seeded_session")
    before = copy.deepcopy(doc)
    assert log.replay(doc) == log.replay(doc)
    assert doc == before


def _base() -> dict[str, Any]:
    return _load("worked_points")


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d.update(rules={"cave": 0}), "$.rules.cave"),
        (lambda d: d.update(rules=[]), "$.rules"),
        (lambda d: d.update(exempt=[1]), "$.exempt"),
        (lambda d: d["hands"][0].update(seed="00"), "$.hands[0]"),
        (lambda d: d["hands"][0].pop("deck"), "$.hands[0]"),
        (lambda d: d["hands"][0].update(extra=1), "$.hands[0].extra"),
        (lambda d: d["hands"][1].update(deck="AS"), "$.hands[1].deck"),
        (lambda d: d["hands"][1]["deck"].pop(), "$.hands[1].deck"),
        (lambda d: d["hands"][1]["deck"].__setitem__(3, "ZZ"), "$.hands[1].deck[3]"),
        (
            lambda d: d["hands"][1]["deck"].__setitem__(3, d["hands"][1]["deck"][0]),
            "$.hands[1].deck[3]",
        ),
        (lambda d: d["hands"][0].pop("actions"), "$.hands[0].actions"),
        (lambda d: d["hands"][0]["actions"][0].update(seat="2"), "$.hands[0].actions[0].seat"),
        (lambda d: d["hands"][0]["actions"][0].update(card="AS"), "$.hands[0].actions[0].card"),
        (lambda d: d["hands"][0]["actions"][1].update(amount="2"), "$.hands[0].actions[1].amount"),
        (lambda d: d["hands"][0]["actions"][1].update(amount=2.0), "$.hands[0].actions[1].amount"),
        (lambda d: d["hands"][0]["actions"][2].update(amount=2), "$.hands[0].actions[2].amount"),
    ],
)
def test_malformed_documents_name_the_path(mutate: Any, path: str) -> None:
    doc = _base()
    mutate(doc)
    with pytest.raises(MalformedLog) as info:
        log.replay(doc)
    assert info.value.path == path
    assert str(info.value).startswith(path + ": ")


def test_seed_forms() -> None:
    doc = _base()
    doc["hands"] = [{"seed": "xyz", "actions": []}]
    with pytest.raises(MalformedLog) as info:
        log.replay(doc)
    assert info.value.path == "$.hands[0].seed"
    doc["hands"] = [{"seed": 12, "actions": []}]
    with pytest.raises(MalformedLog) as info:
        log.replay(doc)
    assert info.value.path == "$.hands[0].seed"


def test_illegal_actions_carry_hand_and_action_numbers() -> None:
    doc = _base()
    doc["hands"][2]["actions"].append({"seat": 0, "action": "call"})
    with pytest.raises(IllegalLogAction) as info:
        log.replay(doc)
    assert (info.value.hand, info.value.action) == (3, len(doc["hands"][2]["actions"]))
    assert "after the end of the hand" in str(info.value)
    doc = _base()
    doc["hands"][0]["actions"][0]["seat"] = 9
    with pytest.raises(IllegalLogAction) as info:
        log.replay(doc)
    assert str(info.value) == "hand 1, action 1: seat 9 is not a seat at the table"
    doc = _base()
    doc["hands"][0]["actions"][1] = {"seat": 2, "action": "open", "amount": -3}
    with pytest.raises(IllegalLogAction) as info:
        log.replay(doc)
    assert info.value.code == "bet_out_of_range"


def test_hand_that_cannot_be_dealt() -> None:
    doc = _base()
    for seat in doc["seats"][1:3]:
        seat["stack"] = 0
    with pytest.raises(IllegalLogAction) as info:
        log.replay(doc)
    assert str(info.value).startswith("hand 1, action 1: cannot be dealt")


def test_a_carried_pot_in_the_header() -> None:
    doc = _base()
    doc["pot"] = 5
    doc["hands"] = [doc["hands"][2]]
    doc["dealer"] = 1
    doc["seats"] = [{"name": n, "stack": s} for n, s in zip("ABCD", (98, 97, 103, 97), strict=True)]
    assert log.replay(doc)["hands"][0] == log.replay(_base())["hands"][2]


def test_writer_round_trip_seed_and_deck() -> None:
    rules = BouillotteRules(buy_back=True, cave=50)
    session = BouillotteSession(rules, [50, 50, 50], button=2)
    doc = bouillotte_log.new_document(rules, [("X", 50), ("Y", 50), ("Z", 50)], 2)
    hand = session.start_hand(seed=bytes(32))
    first = hand.to_act()[0]
    hand.apply(Action(first, "decline"))
    while not hand.is_over:
        seat = hand.to_act()[0]
        hand.apply(Action(seat, "pass"))
    seeded = bouillotte_log.hand_entry(hand)
    as_deck = bouillotte_log.hand_entry(hand, as_deck=True)
    assert seeded["seed"] == "00" * 32 and len(as_deck["deck"]) == 16
    assert doc["rules"] == {"buy_back": True, "cave": 50}
    results = []
    for entry in (seeded, as_deck):
        doc["hands"] = [entry]
        results.append(log.replay(json.loads(json.dumps(doc))))
    assert results[0] == results[1]
    report = results[0]["hands"][0]
    assert report["pots"] == [] and report["carry"] == 4 and results[0]["pot"] == 4
    assert report["players"] == ["X", "Y", "Z"]
    with_pot = bouillotte_log.new_document(rules, [("X", 1)], 0, pot=3)
    assert with_pot["pot"] == 3 and with_pot["hands"] == []


def test_sitting_out_is_written_and_replayed() -> None:
    rules = BouillotteRules()
    session = BouillotteSession(rules, [30] * 5, button=0)
    hand = session.start_hand(seed=b"\x09" * 32, sitting_out=[3])
    assert 3 not in hand.order and len(hand.deck) == 20
    while not hand.is_over:
        seat = hand.to_act()[0]
        hand.apply(Action(seat, "decline" if hand.phase_name == "straddle" else "pass"))
    entry = bouillotte_log.hand_entry(hand)
    assert entry["sitting_out"] == [3]
    doc = bouillotte_log.new_document(rules, [(n, 30) for n in "ABCDE"], 0)
    doc["hands"] = [entry]
    report = log.replay(doc)["hands"][0]
    assert report == bouillotte_log.hand_report(session.close_hand(), list("ABCDE"))
    doc["hands"][0]["sitting_out"] = ["x"]
    with pytest.raises(MalformedLog) as info:
        log.replay(doc)
    assert info.value.path == "$.hands[0].sitting_out[0]"
