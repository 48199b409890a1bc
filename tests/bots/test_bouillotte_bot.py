"""The Bouillotte ``club`` brain: always legal, deterministic, worded in one sentence, sound
in the obvious spots, blind to what its view does not show, and better than random play."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.bots.base import Decision, legal_choices, random_decision, seat_view
from app.bots.bouillotte import club_decision, win_chance
from app.bots.levels import brain
from app.engine.base import Action
from app.engine.bouillotte.config import BouillotteRules, preset
from app.engine.bouillotte.session import BouillotteSession
from app.engine.bouillotte.state import BouillotteHand
from app.engine.cards import parse_card
from tests.bots.bouillotte_match import figure, per_hand, play_match
from tests.engine.bouillotte.helpers import play, start

FOUR = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}

CONFIGS: dict[str, BouillotteRules] = {
    "classic": preset("classic"),
    "high_stakes": preset("high_stakes"),
    "mistigri": preset("mistigri"),
    "buy_back": BouillotteRules(buy_back=True, cave=400),
    "dealer_antes": preset("dealer_antes"),
    "clockwise": preset("clockwise"),
    "short_caves": BouillotteRules(cave=12, bonus_brelan=3, bonus_carre=1),
}


def view_of(hand: BouillotteHand, seat: int, rules: BouillotteRules) -> dict[str, Any]:
    return seat_view("bouillotte", rules.to_dict(), seat, hand.view(seat))


def is_legal(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    for choice in legal:
        if choice["action"] != action["action"]:
            continue
        if "min" in choice:
            amount = action.get("amount")
            return type(amount) is int and choice["min"] <= amount <= choice["max"]
        return set(action) == {"action"}
    return False


def is_one_sentence(reason: str) -> bool:
    body = reason[:-1]
    return (
        bool(body)
        and reason[0].isupper()
        and reason.endswith(".")
        and ". " not in body
        and "\n" not in reason
    )


def test_registered_as_the_club_level() -> None:
    assert brain("bouillotte", "club") is club_decision
    assert brain("bourre", "club") is not club_decision  # not this brain's game
    assert brain("bouillotte", "random") is random_decision


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_decision_is_legal_and_worded(name: str, players: int) -> None:
    """Seeded hands, club and random seats mixed, every phase: each club decision is one of
    the view's legal actions, said in one sentence, and a free stay is never folded."""
    rules = CONFIGS[name]
    rng = random.Random(f"{name}-{players}")
    session = BouillotteSession(rules, [rules.cave] * players)
    club_seats = {0, 2}
    phases: Counter[str] = Counter()
    for _ in range(60):
        hand = session.start_hand(seed=rng.randbytes(32))
        while not hand.is_over:
            seat = hand.turn
            view = view_of(hand, seat, rules)
            if seat in club_seats:
                decision = club_decision(view, rng)
                legal = legal_choices(view)
                assert is_legal(decision.action, legal), (decision, legal)
                assert is_one_sentence(decision.reason), decision.reason
                if view["hand"].get("to_call") == 0 and view["hand"]["phase"] in (
                    "calls",
                    "continuation",
                ):
                    assert decision.action["action"] != "fold", decision
                phases[view["hand"]["phase"]] += 1
            else:
                decision = random_decision(view, rng)
            action = decision.action
            hand.apply(Action(seat, action["action"], amount=action.get("amount")))
        session.close_hand()
        for seat in range(players):
            if session.stacks[seat] == 0:
                session.rebuy(seat)
    assert {"straddle", "opening", "calls"} <= set(phases), phases


def test_buy_back_and_all_in_choices_are_answered_legally() -> None:
    """The rarer offers: a buy-back (§3) and a call that takes the whole cave (§5)."""
    rules = BouillotteRules(buy_back=True)
    hand = start(FOUR, "9S", rules=rules, stacks=[100, 100, 100, 100])
    play(hand, "2 straddle, 1 straddle")
    assert hand.phase_name == "buy_back" and hand.turn == 2
    for seed in range(30):
        decision = club_decision(view_of(hand, 2, rules), random.Random(seed))
        assert decision.action["action"] in ("buy_back", "decline")

    hand = start(FOUR, "9S", stacks=[100, 100, 100, 8])
    play(hand, "2 decline, 2 open 40")
    for seat in (1, 0, 3):
        view = view_of(hand, seat, BouillotteRules())
        decision = club_decision(view, random.Random(seat))
        assert is_legal(decision.action, legal_choices(view)), decision
        hand.apply(Action(seat, decision.action["action"], amount=decision.action.get("amount")))


def test_same_view_and_seed_give_the_same_decision() -> None:
    rules = BouillotteRules()
    hand = start(FOUR, "9S")
    play(hand, "2 decline")
    view = view_of(hand, 2, rules)
    first = [club_decision(view, random.Random(seed)) for seed in range(20)]
    again = [club_decision(view, random.Random(seed)) for seed in range(20)]
    assert first == again


def test_a_brelan_never_folds_to_a_big_bet() -> None:
    hands = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KH KD KS", 3: "QD 8D QS"}
    rules = BouillotteRules()
    hand = start(hands, "9S")
    play(hand, "2 decline, 2 pass, 1 open 60")  # a random-looking big opening
    assert hand.turn == 0
    play(hand, "0 call")
    assert hand.turn == 3
    play(hand, "3 fold")
    assert hand.turn == 2
    for seed in range(10):
        decision = club_decision(view_of(hand, 2, rules), random.Random(seed))
        assert decision.action["action"] in ("call", "raise", "all_in"), decision
        assert "brelan of kings" in decision.reason


def test_a_brelan_opens_for_value() -> None:
    hands = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KH KD KS", 3: "QD 8D QS"}
    hand = start(hands, "9S")
    play(hand, "2 decline")
    decision = club_decision(view_of(hand, 2, BouillotteRules()), random.Random(1))
    assert decision.action["action"] == "open" and decision.action["amount"] > 2
    assert decision.reason.startswith(f"Open at {decision.action['amount']}: you hold a brelan")


def test_the_weakest_hand_folds_to_a_big_raise() -> None:
    # Seat 0's two kings are dead (the upcard is the third king: no brelan for it) and it
    # owns no suit worth having; seat 1 shoves its whole cave.
    hands = {0: "KH KS 8D", 1: "AH AC 9C", 2: "QD AD 9S", 3: "QS 8S 9H"}
    rules = BouillotteRules()
    hand = start(hands, "KC")
    play(hand, "2 decline, 2 pass, 1 open 99")
    assert hand.turn == 0
    view = view_of(hand, 0, rules)
    own = sum(1 << parse_card(card) for card in view["hand"]["hand"])
    order = [2, 1, 0, 3]
    chance = win_chance(own, parse_card("KC"), 0, order, order, 4, rules, random.Random(0))
    assert chance < 0.15
    for seed in range(10):
        decision = club_decision(view, random.Random(seed))
        assert decision.action == {"action": "fold"}, decision
        assert decision.reason.startswith("Fold: ")


def test_a_free_call_is_never_folded() -> None:
    # The level dealer after an opening at his two chips (§8 worked sequence 1), with the
    # weakest cards: he calls for free (or raises), never folds.
    hands = {0: "KH KS 8D", 1: "AH AC 9C", 2: "QD AD 9S", 3: "QS 8S 9H"}
    rules = BouillotteRules()
    hand = start(hands, "KC")
    play(hand, "2 decline, 2 open 2, 1 fold, 0 fold")
    assert hand.turn == 3 and hand.owed(3) == 0
    for seed in range(10):
        decision = club_decision(view_of(hand, 3, rules), random.Random(seed))
        assert decision.action["action"] in ("call", "raise"), decision


def test_passes_rather_than_opens_a_hopeless_hand() -> None:
    hands = {0: "KH KS 8D", 1: "AH AC 9C", 2: "QD AD 9S", 3: "QS 8S 9H"}
    hand = start(hands, "KC", dealer=3)
    play(hand, "2 decline, 2 pass, 1 pass")
    decision = club_decision(view_of(hand, 0, BouillotteRules()), random.Random(3))
    assert decision.action == {"action": "pass"}


def test_sees_only_its_view() -> None:
    """Two deals that give seat 2 the same cards and upcard but the other seats different
    ones show seat 2 the same view; its decisions are then the same."""
    rules = BouillotteRules()
    other = {0: "QH AC 8C", 1: "AD 9C 8H", 2: "KD QD AS", 3: "8D KH QS"}
    for script in ("2 decline", "2 decline, 2 open 7, 1 call, 0 raise 20, 3 fold"):
        one, two = start(FOUR, "9S"), start(other, "9S")
        play(one, script)
        play(two, script)
        assert one.hands != two.hands
        seat = one.turn
        view_one, view_two = view_of(one, seat, rules), view_of(two, seat, rules)
        assert view_one == view_two
        for seed in range(10):
            assert club_decision(view_one, random.Random(seed)) == club_decision(
                view_two, random.Random(seed)
            )


def test_hand_built_view_is_enough() -> None:
    """A view written by hand, as a socket sends it, with only the documented fields."""
    view = {
        "table": {"game": "bouillotte", "rules": {"cave": 50}},
        "you": {"seat": 1},
        "hand": {
            "phase": "calls",
            "order": [2, 1, 0],
            "upcard": "AS",
            "hand": ["AH", "AD", "AC"],
            "seats": [
                {"seat": 0, "stack": 40, "stake": 10, "status": "in", "cards": 3},
                {"seat": 1, "stack": 49, "stake": 1, "status": "in", "cards": 3},
                {"seat": 2, "stack": 49, "stake": 1, "status": "in", "cards": 3},
            ],
            "pot": 12,
            "dead_money": 0,
            "highest_stake": 10,
            "to_call": 9,
            "opened": True,
            "legal_actions": [
                {"action": "call"},
                {"action": "fold"},
                {"action": "all_in"},
                {"action": "raise", "min": 11, "max": 50},
            ],
        },
    }
    decision = club_decision(view, random.Random(0))
    assert decision.action == {"action": "raise", "amount": 50}  # a brelan carré of aces
    assert "brelan carré of aces" in decision.reason
    assert isinstance(decision, Decision)


@pytest.mark.parametrize("name", ["classic", "high_stakes"])
def test_club_beats_random(name: str) -> None:
    """Two club seats and two random seats, fixed seeds: club's chips per hand, with its
    95 % interval, is above zero (the full measure plays thousands of hands)."""
    rules = preset(name)
    samples: list[float] = []
    for layout, seed in (((0, 2), 11), ((0, 1), 12)):
        brains = [club_decision if s in layout else random_decision for s in range(4)]
        samples += per_hand(play_match(rules, brains, 200, seed), layout)
    result = figure(samples)
    assert result.low > 0, result


def test_straddles_now_and_then_but_never_as_the_dealer() -> None:
    """§3: the first in the order gains the last word by a straddle and sometimes takes it;
    the dealer, who speaks last anyway, always declines."""
    rules = BouillotteRules()
    hand = start(FOUR, "9S")
    kinds = Counter(
        club_decision(view_of(hand, 2, rules), random.Random(seed)).action["action"]
        for seed in range(200)
    )
    assert kinds["straddle"] > 10 and kinds["decline"] > 100, kinds
    play(hand, "2 straddle, 1 straddle, 0 straddle")
    assert hand.turn == 3 and hand.phase_name == "straddle"
    for seed in range(50):
        decision = club_decision(view_of(hand, 3, rules), random.Random(seed))
        assert decision.action == {"action": "decline"}
        assert "dealer" in decision.reason


def test_an_unforeseen_offer_is_answered_with_the_cheapest_legal_move() -> None:
    hand = start(FOUR, "9S")
    play(hand, "2 decline")
    view = view_of(hand, 2, BouillotteRules())
    view["hand"]["legal_actions"] = [{"action": "open", "min": 3, "max": 9}]
    decision = club_decision(view, random.Random(0))
    assert decision.action == {"action": "open", "amount": 3}
    assert is_one_sentence(decision.reason)


def test_a_short_call_weighs_only_the_main_pot() -> None:
    """§5: a call with the whole cave plays for the main pot alone; the price it is worth
    is measured against that pot, not against chips it could never win."""
    hands = {0: "AD 9C 8H", 1: "QH AC 8C", 2: "KD QD AS", 3: "KH 8D QS"}
    rules = BouillotteRules()
    hand = start(hands, "9S", stacks=[100, 100, 100, 11])
    play(hand, "2 decline, 2 open 60, 1 call, 0 call")
    assert hand.turn == 3 and hand.owed(3) == 9  # all it has left
    decision = club_decision(view_of(hand, 3, rules), random.Random(0))
    assert "main pot of 35 (all you can win)" in decision.reason, decision.reason


def test_the_continuation_round_is_answered_without_a_fold() -> None:
    """§5.3, §8: three or more left and level, each may raise again or decline; declining
    is free, so the brain raises or declines, never folds."""
    rules = BouillotteRules()
    hand = start(FOUR, "9S")
    play(hand, "2 decline, 2 open 2, 1 call, 0 call, 3 call")
    assert hand.phase_name == "continuation" and hand.turn == 1
    for seed in range(20):
        view = view_of(hand, 1, rules)
        decision = club_decision(view, random.Random(seed))
        assert is_legal(decision.action, legal_choices(view)), decision
        assert decision.action["action"] in ("decline", "raise"), decision
