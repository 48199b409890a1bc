"""Table logs: golden replays, errors with hand/action numbers or JSON paths, the writer."""

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.commands.replay import run_replay
from app.engine.base import Action
from app.engine.bourre import BourreRules, BourreSession
from app.engine.log import IllegalLogAction, MalformedLog, hand_entry, new_document, parse, replay

FIXTURES = Path(__file__).parent / "fixtures"
LOGS = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".expected.json"))


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
    assert {"worked_pot", "seeded_session", "reshuffle_eight", "split_then_seeded"} <= names
    assert "dealer_for_all_button_sits_out" in names
    assert any(n.startswith("error_") for n in names)
    assert any(n.startswith("malformed_") for n in names)
    assert "reshuffles" in (FIXTURES / "reshuffle_eight.json").read_text()
    assert '"seed"' in (FIXTURES / "seeded_session.json").read_text()


def test_worked_pot_numbers_of_section_10() -> None:
    result = replay(_load("worked_pot"))
    first, second = result["hands"]
    assert first["pot"] == 5 and first["winner"] == "B" and first["bourre"] == ["C"]
    assert first["tricks"] == {"B": 3, "C": 0, "E": 2}
    assert first["carry"] == 5 and first["stacks"]["C"] == 94 and first["stacks"]["B"] == 104
    assert second["pot"] == 9 and second["stacks"]["C"] == 94  # C exempt from the ante


def test_dealer_for_all_example_of_section_2() -> None:
    """Stacks A 2, B 100, C 100, button A, ante 1: A sits out; B deals for B and C (pays 2,
    pot 2); the next button is C, who owes 3 again (A has chips) and deals."""
    first, second = replay(_load("dealer_for_all_button_sits_out"))["hands"]
    assert first["dealer"] == 1 and first["pot"] == 2 and "A" not in first["players"]
    assert first["stacks"]["A"] == 2
    assert second["dealer"] == 2 and second["pot"] == 3


def test_deck_and_seed_forms_replay_identically() -> None:
    assert replay(_load("reshuffle_eight")) == replay(_load("reshuffle_eight_seeded"))


def test_replay_is_pure_and_repeatable() -> None:
    doc = _load("seeded_session")
    before = copy.deepcopy(doc)
    assert replay(doc) == replay(doc)
    assert doc == before


def test_run_replay_unreadable_and_invalid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_replay(str(tmp_path / "missing.json")) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("$: cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run_replay(str(bad)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("$: invalid JSON")


def test_run_replay_in_a_fresh_interpreter() -> None:
    path = FIXTURES / "error_must_follow_suit.json"
    code = (
        "import sys; from app.commands.replay import run_replay; sys.exit(run_replay(sys.argv[1]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == "hand 1, action 10: seat 2 must follow suit (spades)\n"


def _base() -> dict[str, Any]:
    return _load("worked_pot")


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d.pop("format"), "$.format"),
        (lambda d: d.update(game="chess"), "$.game"),
        (lambda d: d.update(extra=1), "$.extra"),
        (lambda d: d.update(seats=[{"name": "A", "stack": 1}]), "$.seats"),
        (lambda d: d["seats"][1].update(stack=-1), "$.seats[1].stack"),
        (lambda d: d["seats"][1].update(stack=1.5), "$.seats[1].stack"),
        (lambda d: d["seats"][1].update(name="A"), "$.seats[1].name"),
        (lambda d: d.update(dealer=9), "$.dealer"),
        (lambda d: d.update(pot=-1), "$.pot"),
        (lambda d: d.update(exempt=[7]), "$.exempt[0]"),
        (lambda d: d.update(rules={"ante": "one"}), "$.rules.ante"),
        (lambda d: d.update(rules={"renege": "penalized"}), "$.rules.renege"),
        (lambda d: d["hands"][0].update(seed="00"), "$.hands[0]"),
        (lambda d: d["hands"][1].update(seed="xyz"), "$.hands[1].seed"),
        (lambda d: d["hands"][1].update(reshuffles=[]), "$.hands[1].reshuffles"),
        (lambda d: d["hands"][0]["deck"].pop(), "$.hands[0].deck"),
        (
            lambda d: d["hands"][0]["actions"][0].update(action="fold"),
            "$.hands[0].actions[0].action",
        ),
        (lambda d: d["hands"][0]["actions"][0].update(seat="0"), "$.hands[0].actions[0].seat"),
        (lambda d: d["hands"][0]["actions"][0].update(card="AS"), "$.hands[0].actions[0].card"),
        (lambda d: d["hands"][0]["actions"][5].pop("cards"), "$.hands[0].actions[5].cards"),
        (
            lambda d: d["hands"][0]["actions"][5].update(cards=["AS", "AS"]),
            "$.hands[0].actions[5].cards[1]",
        ),
        (lambda d: d["hands"][0]["actions"][8].update(amount=3), "$.hands[0].actions[8].amount"),
        (lambda d: d.update(hands={}), "$.hands"),
    ],
)
def test_malformed_documents_name_the_path(mutate: Any, path: str) -> None:
    doc = _base()
    mutate(doc)
    with pytest.raises(MalformedLog) as info:
        replay(doc)
    assert info.value.path == path
    assert str(info.value).startswith(path + ": ")


def test_not_an_object() -> None:
    with pytest.raises(MalformedLog) as info:
        parse([1, 2])
    assert info.value.path == "$"


def test_illegal_actions_carry_hand_and_action_numbers() -> None:
    doc = _base()
    doc["hands"][1]["actions"].append({"seat": 0, "action": "play"})
    with pytest.raises(IllegalLogAction) as info:
        replay(doc)
    assert (info.value.hand, info.value.action) == (2, len(doc["hands"][1]["actions"]))
    assert "after the end of the hand" in str(info.value)
    doc = _base()
    doc["hands"][0]["actions"][0]["seat"] = 9
    with pytest.raises(IllegalLogAction) as info:
        replay(doc)
    assert str(info.value) == "hand 1, action 1: seat 9 is not a seat at the table"


def test_hand_that_cannot_be_dealt() -> None:
    doc = _base()
    for seat in doc["seats"][1:]:
        seat["stack"] = 0
    with pytest.raises(IllegalLogAction) as info:
        replay(doc)
    assert str(info.value).startswith("hand 1, action 1: cannot be dealt")


def test_writer_round_trip_with_nobody_playing() -> None:
    rules = BourreRules(declare="simultaneous", ante=2)
    session = BourreSession(rules, [20, 20, 20], button=2)
    doc = new_document("bourre", rules, [("X", 20), ("Y", 20), ("Z", 20)], 2)
    hand = session.start_hand(seed=bytes(32))
    for seat in (0, 1, 2):
        hand.apply(Action(seat, "pass"))
    doc["hands"].append(hand_entry(hand))
    assert doc["rules"] == {"declare": "simultaneous", "ante": 2}
    assert doc["hands"][0] == {
        "seed": "00" * 32,
        "actions": [{"seat": s, "action": "pass"} for s in (0, 1, 2)],
    }
    result = replay(json.loads(json.dumps(doc)))
    report = result["hands"][0]
    assert report["players"] == [] and report["tricks"] == {} and report["winner"] is None
    assert report["carry"] == 6 and result["pot"] == 6


def test_writer_mid_session_header() -> None:
    doc = new_document("bourre", {}, [("A", 5), ("B", 7)], 1, pot=3, exempt=[1])
    assert doc["pot"] == 3 and doc["exempt"] == [1] and doc["hands"] == []
    with pytest.raises(ValueError):
        new_document("chess", {}, [("A", 5), ("B", 7)], 0)


def test_sitting_out_seats_are_recorded_and_replayed() -> None:
    """A seat with chips that sits a hand out is listed in the hand's `sitting_out`, so the
    history replays the hand exactly as it was dealt."""
    from app.engine.bourre import BourreRules, BourreSession
    from app.engine.log import new_document

    session = BourreSession(BourreRules(), [10, 10, 10, 10], button=0)
    hand = session.start_hand(seed=bytes(32), sitting_out={2})
    assert 2 not in hand.order
    while not hand.is_over:
        seat = hand.to_act()[0]
        hand.apply(hand.legal_actions(seat)[0])
    entry = hand_entry(hand)
    assert entry["sitting_out"] == [2]
    result = session.close_hand()
    doc = new_document("bourre", BourreRules(), [(f"P{s}", 10) for s in range(4)], 0)
    doc["hands"].append(entry)
    report = replay(doc)
    assert report["stacks"]["P2"] == 10
    assert [report["stacks"][f"P{s}"] for s in range(4)] == list(result.stacks)
    del doc["hands"][0]["sitting_out"]
    with pytest.raises(IllegalLogAction):  # dealt in, seat 2 would change the whole hand
        replay(doc)
