"""The Bourré ``club`` brain: always legal, deterministic, explained, sound, and blind to
everything but its seat's view."""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.bots.base import Decision, seat_view
from app.bots.bourre import club_decision
from app.bots.levels import brain
from app.engine.base import Action
from app.engine.bourre import BourreRules
from app.engine.bourre.config import PRESETS
from app.engine.bourre.session import BourreSession
from app.engine.bourre.state import BourreHand
from tests.engine.helpers import act, declare, start

# Presets, plus options the presets do not reach (draw in the declaring turn, a dealer who
# may take the turned card, must_beat off, a pot limit, a second chance on its own).
RULE_SETS: dict[str, dict[str, Any]] = {
    **{name: rules.to_dict() for name, rules in PRESETS.items()},
    "draw_with_declare": {"draw_with_declare": True},
    "dealer_may_take": {"trump_card": "dealer_may_take", "max_discard": 3},
    "loose": {"must_beat": False, "must_trump": "always", "pot_limit": 6},
    "second_chance_simultaneous": {
        "second_chance": True,
        "declare": "simultaneous",
        "double_ante": True,
    },
}


def view_of(hand: BourreHand, seat: int, rules: Mapping[str, Any]) -> dict[str, Any]:
    return seat_view("bourre", rules, seat, hand.view(seat))


def as_sent(legal: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in legal.items() if k != "seat"}


def assert_explained(decision: Decision) -> None:
    reason = decision.reason
    assert reason and reason[0].isupper() and reason.endswith(".")
    # One sentence: no full stop before the last character.
    assert "." not in reason[:-1], reason


def play_hands(rules: Mapping[str, Any], players: int, hands: int, seed: int) -> int:
    """Club at every other seat, random elsewhere; checks every club decision."""
    rng = random.Random(seed)
    session = BourreSession(BourreRules.from_dict(rules), [60] * players)
    checked = 0
    for _ in range(hands):
        hand = session.start_hand(seed=rng.randbytes(32))
        while not hand.is_over:
            seat = hand.to_act()[0]
            view = view_of(hand, seat, rules)
            level = "club" if seat % 2 == 0 else "random"
            decision = brain("bourre", level)(view, rng)
            if level == "club":
                before = copy.deepcopy(view)
                legal = [as_sent(a) for a in view["hand"]["legal_actions"]]
                assert decision.action in legal, (decision, legal)
                assert_explained(decision)
                assert club_decision(view, random.Random(99)) == decision  # same view, same
                assert view == before  # the brain does not change what it is shown
                checked += 1
            action = decision.action
            cards = action.get("cards")
            hand.apply(
                Action(
                    seat,
                    action["action"],
                    card=action.get("card"),
                    cards=tuple(cards) if cards is not None else None,
                )
            )
        session.close_hand()
        if min(session.stacks) < 20:
            session = BourreSession(session.rules, [60] * players, button=session.button)
    return checked


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_decision_is_legal_and_explained_under_each_house_rule(name: str) -> None:
    assert play_hands(RULE_SETS[name], players=4, hands=25, seed=len(name)) > 100


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    name=st.sampled_from(sorted(RULE_SETS)),
    players=st.integers(2, 8),
)
def test_every_decision_is_legal_at_any_table(seed: int, name: str, players: int) -> None:
    play_hands(RULE_SETS[name], players=players, hands=2, seed=seed)


def test_a_decision_takes_well_under_a_millisecond() -> None:
    rng = random.Random(3)
    session = BourreSession(BourreRules(), [1000] * 5)
    views = []
    for _ in range(30):
        hand = session.start_hand(seed=rng.randbytes(32))
        while not hand.is_over:
            seat = hand.to_act()[0]
            view = view_of(hand, seat, {})
            views.append(view)
            decided = club_decision(view, rng).action
            hand.apply(
                Action(
                    seat,
                    decided["action"],
                    card=decided.get("card"),
                    cards=tuple(decided["cards"]) if "cards" in decided else None,
                )
            )
        session.close_hand()
    started = time.perf_counter()
    for view in views:
        club_decision(view, rng)
    per_decision = (time.perf_counter() - started) / len(views)
    assert per_decision < 0.5e-3, per_decision


# ---------------------------------------------------------------- tactical cases


def decide(hand: BourreHand, seat: int, rules: Mapping[str, Any] | None = None) -> Decision:
    view = view_of(hand, seat, rules or {})
    decision = club_decision(view, random.Random(0))
    assert decision.action in [as_sent(a) for a in view["hand"]["legal_actions"]]
    assert_explained(decision)
    return decision


def test_plays_holding_the_top_trumps() -> None:
    # Dealer 3 turns the 2S: spades are trumps. Seat 0 holds A-K-Q of trumps: a cinch.
    hand = start(
        None,
        {0: "AS KS QS 2H 3D", 1: "4H 5H 6H 7H 8H", 2: "4D 5D 6D 7D 8D", 3: "4C 5C 6C 7C 2S"},
    )
    decision = decide(hand, 0)
    assert decision.action == {"action": "play"}
    assert "three sure tricks" in decision.reason


def test_passes_a_junk_hand_against_two_players_already_in() -> None:
    hand = start(
        None,
        {0: "AS KS 9S 2H 3D", 1: "QS JS AH KH 8H", 2: "2C 4D 5H 7D 8C", 3: "4C 5C 6C 7C 2S"},
        pot=20,
    )
    act(hand, 0, "play")
    act(hand, 1, "play")
    decision = decide(hand, 2)
    assert decision.action == {"action": "pass"}
    assert decision.reason.startswith("Pass:") and "bourré" in decision.reason


def test_plays_a_strong_hand_last_when_few_are_in() -> None:
    hand = start(
        None,
        {0: "2C 3C 4C 5C 6C", 1: "AS KS 9H 2H 3D", 2: "7D 8D 9D TD 2D", 3: "4H 5H 6H 7H 2S"},
        n=4,
        dealer=3,
    )
    act(hand, 0, "pass")
    decision = decide(hand, 1)
    assert decision.action == {"action": "play"}


def test_keeps_trumps_and_side_aces_and_throws_the_low_cards() -> None:
    hand = start(
        None,
        {0: "AS 9S AH 4D 2C", 1: "QS JS KH QH 8H", 2: "3C 4H 5H 7D 8C", 3: "4C 5C 6C 7C 2S"},
    )
    declare(hand, {0, 1, 3})
    decision = decide(hand, 0)
    assert decision.action["action"] == "discard"
    assert sorted(decision.action["cards"]) == ["2C", "4D"]
    assert "Exchange two cards" in decision.reason


def test_the_dealer_takes_the_turned_trump_when_allowed() -> None:
    rules = {"trump_card": "dealer_may_take"}
    hand = start(
        BourreRules.from_dict(rules),
        {0: "AS 9S AH 4D 2C", 1: "QS JS KH QH 8H"},
        turned="KS",
        n=2,
        dealer=1,
    )
    declare(hand, {0, 1})
    act(hand, 0, "discard", "4D 2C")
    decision = decide(hand, 1, rules)
    assert decision.action == {"action": "take_trump"}
    act(hand, 1, "take_trump")
    decision = decide(hand, 1, rules)
    # Six cards, all but the low heart worth keeping: one goes.
    assert decision.action == {"action": "discard", "cards": ["8H"]}


def tricks_ready(hands: dict[int, str], rules: BourreRules | None = None) -> BourreHand:
    hand = start(rules, hands)
    declare(hand, set(hands))
    while hand.phase_name == "draw":
        act(hand, hand.turn, "discard", "")
    assert hand.phase_name == "tricks"
    return hand


def test_leads_the_top_trump() -> None:
    hand = tricks_ready(
        {0: "AS KS 5H 3D 4C", 1: "QS 7H 8H 9H TH", 2: "7D 8D 9D TD JD", 3: "6C 7C 8C 9C 2S"}
    )
    decision = decide(hand, 0)
    assert decision.action == {"action": "card", "card": "AS"}
    assert decision.reason.startswith("Lead the ace of spades")


def test_ducks_with_the_lowest_card_when_it_cannot_win() -> None:
    hand = tricks_ready(
        {0: "AH KS 5S 3D 4C", 1: "QS 7H 8H 9H TH", 2: "7D 8D 9D TD JD", 3: "6C 7C 8C 9C 2S"}
    )
    act(hand, 0, "card", "AH")  # the ace of hearts: seat 1 must follow, and cannot beat it
    decision = decide(hand, 1)
    assert decision.action == {"action": "card", "card": "7H"}
    assert decision.reason.startswith("Duck with the seven of hearts")


def test_throws_the_cheapest_side_card_when_void_and_trumpless() -> None:
    hand = tricks_ready(
        {0: "AH KS 5S 3D 4C", 1: "QS 7H 8H 9H TH", 2: "7D 8D 9D TD JD", 3: "6C 7C 8C 9C 2S"}
    )
    act(hand, 0, "card", "AH")
    act(hand, 1, "card", "7H")
    decision = decide(hand, 2)  # no heart, no trump: anything goes
    assert decision.action == {"action": "card", "card": "7D"}


def test_wins_cheaply_when_playing_last() -> None:
    hand = tricks_ready(
        {0: "9H KS 5S 3D 4C", 1: "QS 7H 8H 2D 3C", 2: "7D 8D 9D TD JD", 3: "TH KH AH 7C 2S"}
    )
    act(hand, 0, "card", "9H")
    act(hand, 1, "card", "7H")
    act(hand, 2, "card", "7D")
    # Seat 3 plays last and must beat the nine: ten, king or ace all win; the ten will do.
    decision = decide(hand, 3)
    assert decision.action == {"action": "card", "card": "TH"}
    assert "play last" in decision.reason


def test_takes_the_trick_with_the_cheapest_card_that_holds_it() -> None:
    # Hearts led (9H); seat 1 holds the ace and king of hearts, so the king is as sure to
    # hold as the ace against the hearts (only a trump could beat either): the king.
    hand = tricks_ready(
        {0: "9H KS 5S 3D 4C", 1: "QS 7H 8H AH KH", 2: "7D 8D 9D TD JD", 3: "6H 7C 8C 9C 2S"}
    )
    act(hand, 0, "card", "9H")
    decision = decide(hand, 1)
    assert decision.action == {"action": "card", "card": "KH"}


# ---------------------------------------------------------------- only the view


def test_decides_from_the_view_alone() -> None:
    """Two hands whose hidden parts differ (the other seats' cards, the stock) but whose
    views for seat 0 are equal get the same decisions from seat 0's brain."""
    first = start(
        None,
        {0: "AS 9S AH 4D 2C", 1: "QS JS KH QH 8H", 2: "3C 4H 5H 7D 8C", 3: "4C 5C 6C 7C 2S"},
        stock="TH JH 6D",
    )
    second = start(
        None,
        {0: "AS 9S AH 4D 2C", 1: "3C 4H 5H 7D 8C", 2: "QS JS KH QH 8H", 3: "KD QD JD 7C 2S"},
        stock="3H 5D 9D",
    )
    for hand in (first, second):
        assert hand.hands[1] != 0
    assert first.hands[1:] != second.hands[1:]
    assert view_of(first, 0, {}) == view_of(second, 0, {})
    assert decide(first, 0) == decide(second, 0)
    for hand in (first, second):
        act(hand, 0, "play")
        act(hand, 1, "play")
        act(hand, 2, "pass")
        act(hand, 3, "play")
    assert view_of(first, 0, {}) == view_of(second, 0, {})
    assert decide(first, 0) == decide(second, 0)


def test_is_registered_as_the_club_level() -> None:
    assert brain("bourre", "club") is club_decision
