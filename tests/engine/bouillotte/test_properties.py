"""Properties over random games with random valid rules (Hypothesis)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.base import Action, EngineError, Event
from app.engine.bouillotte import BouillotteRules, BouillotteSession
from app.engine.bouillotte import tablelog as bouillotte_log
from app.engine.bouillotte.choices import Choices
from app.engine.bouillotte.deck import PACK_MASKS
from app.engine.bouillotte.state import BouillotteHand
from app.engine.cards import CARD_NAMES, names_in

from .test_view import cards_shown


@st.composite
def house_rules(draw: st.DrawFn) -> BouillotteRules:
    # Every combination of valid values is a valid config (bouillotte.md §8 "Rules config").
    return BouillotteRules(
        direction=draw(st.sampled_from(["counter_clockwise", "clockwise"])),
        ante_mode=draw(st.sampled_from(["all_plus_dealer", "dealer_only"])),
        buy_back=draw(st.booleans()),
        brelans=draw(st.booleans()),
        mistigri=draw(st.booleans()),
        bonus_carre=draw(st.integers(0, 5)),
        bonus_brelan=draw(st.integers(0, 5)),
    )


def _public(hand: BouillotteHand) -> set[str]:
    if not hand.dealt:
        return set()
    shown = {CARD_NAMES[hand.upcard]}
    if hand.result is not None and hand.result.showdown:
        for seat in hand.order:
            shown |= set(names_in(hand.hands[seat]))
    return shown


def _visible(hand: BouillotteHand, viewer: int | None) -> set[str]:
    shown = _public(hand)
    if viewer is not None and hand.dealt:
        shown |= set(names_in(hand.hands[viewer]))
    return shown


def _check_state(hand: BouillotteHand, total: int) -> None:
    assert sum(hand.stacks) + hand.pot == total
    assert min(hand.stacks) >= 0
    assert hand.pot == hand.dead + sum(hand.stakes) or hand.is_over
    union = 0
    for mask in hand.card_zones().values():
        assert not union & mask, "a card is in two places"
        union |= mask
    assert union == PACK_MASKS[len(hand.order)], "a card is missing"
    assert len(hand.deck) == len(set(hand.deck))


def _check_views(hand: BouillotteHand) -> None:
    for viewer in [None, *range(hand.n)]:
        shown = cards_shown(hand.view(viewer))
        assert shown <= _visible(hand, viewer), (viewer, shown - _visible(hand, viewer))


def _check_events(hand: BouillotteHand, events: list[Event]) -> None:
    for event in events:
        cards = cards_shown(dict(event.data))
        if event.to is None:
            assert cards <= _public(hand), (event, cards - _public(hand))
        else:
            assert cards <= _visible(hand, event.to)


def _snapshot(hand: BouillotteHand) -> tuple[Any, ...]:
    return (list(hand.stacks), list(hand.stakes), hand.pot, hand.phase, hand.turn, hand.version)


def _check_turns(hand: BouillotteHand) -> None:
    (turn,) = hand.to_act()
    before = _snapshot(hand)
    for seat in range(hand.n):
        if seat == turn:
            continue
        assert hand.legal_actions(seat) == []
        for probe in (Action(seat, "call"), Action(seat, "pass"), Action(seat, "straddle")):
            try:
                hand.apply(probe)
            except EngineError as err:
                assert err.code == "not_your_turn"
            else:  # pragma: no cover
                raise AssertionError(f"{probe} accepted out of turn")
    assert _snapshot(hand) == before


def _check_range(hand: BouillotteHand, legal: Choices) -> None:
    """Amounts just outside the legal range are refused and change nothing."""
    if legal.bet_kind is None:
        return
    seat = legal.seat
    before = _snapshot(hand)
    for amount in (legal.low - 1, legal.high + 1, -5):
        action = Action(seat, legal.bet_kind, amount=amount)
        assert action not in legal
        try:
            hand.apply(action)
        except EngineError as err:
            assert err.code == "bet_out_of_range", err
        else:  # pragma: no cover
            raise AssertionError(f"{action} accepted outside {legal.low}..{legal.high}")
    assert _snapshot(hand) == before


def _choose(rng: random.Random, legal: Choices) -> Action:
    options = len(legal.fixed) + (1 if legal.bet_kind else 0)
    pick = rng.randrange(options)
    if pick < len(legal.fixed):
        return legal.fixed[pick]
    amount = rng.choice([legal.low, legal.high, rng.randint(legal.low, legal.high)])
    action = legal[len(legal.fixed) + amount - legal.low]
    assert action.amount == amount and action in legal
    return action


def _play_session(
    rules: BouillotteRules, stacks: list[int], hands: int, seed: int, deep: bool
) -> None:
    rng = random.Random(seed)
    n = len(stacks)
    session = BouillotteSession(rules, stacks, button=rng.randrange(n))
    total = sum(stacks)
    names = [f"S{s}" for s in range(n)]
    for number in range(hands):
        before = (list(session.stacks), session.button, session.pot)
        try:
            hand = session.start_hand(seed=rng.randbytes(32))
        except EngineError as err:
            assert err.code in ("not_enough_players", "too_many_players")
            return
        _check_events(hand, hand.start_events)
        while not hand.is_over:
            _check_state(hand, total)
            (seat,) = hand.to_act()
            legal = hand.legal_actions(seat)
            assert isinstance(legal, Choices) and len(legal) > 0
            if deep:
                _check_turns(hand)
                _check_views(hand)
                _check_range(hand, legal)
            events = hand.apply(_choose(rng, legal))
            _check_events(hand, events)
        _check_state(hand, total)
        _check_views(hand)
        result = session.close_hand()
        assert sum(session.stacks) + session.pot == total
        # Replaying the hand's own log reproduces it, from the seed and from the deck.
        for as_deck in (False, True):
            doc = {
                "format": "salon.table-log/1",
                "game": "bouillotte",
                "rules": rules.to_dict(),
                "seats": [{"name": names[s], "stack": before[0][s]} for s in range(n)],
                "dealer": before[1],
                "pot": before[2],
                "hands": [bouillotte_log.hand_entry(hand, as_deck=as_deck)],
            }
            report = bouillotte_log.replay(
                bouillotte_log.parse_rules(doc["rules"], "$.rules"),
                names,
                before[0],
                before[1],
                before[2],
                (),
                [bouillotte_log.parse_hand(json.loads(json.dumps(doc["hands"][0])), "$.hands[0]")],
            )
            assert report["hands"] == [bouillotte_log.hand_report(result, names)], number


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=house_rules(),
    stacks=st.lists(st.integers(0, 40), min_size=3, max_size=7),
    hands=st.integers(1, 3),
    seed=st.integers(0, 2**32),
)
def test_random_games_keep_every_invariant(
    rules: BouillotteRules, stacks: list[int], hands: int, seed: int
) -> None:
    _play_session(rules, stacks, hands, seed, deep=True)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32), rules=house_rules())
def test_longer_sessions_conserve_chips_and_cards(
    players: int, seed: int, rules: BouillotteRules
) -> None:
    _play_session(rules, [60] * players, 10, seed, deep=False)
