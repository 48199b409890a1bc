"""Properties over random games with random valid house rules (Hypothesis)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.base import Action, EngineError, Event
from app.engine.bourre import BourreRules, BourreSession
from app.engine.bourre.state import BourreHand
from app.engine.bourre.tablelog import hand_report
from app.engine.cards import CARD_INDEX, FULL_DECK_MASK, names_in
from app.engine.log import hand_entry, replay


@st.composite
def house_rules(draw: st.DrawFn) -> BourreRules:
    hand_size = draw(st.sampled_from([5, 5, 4]))
    declare = draw(st.sampled_from(["in_turn", "simultaneous"]))
    must_trump = draw(st.sampled_from(["to_win", "always"]))
    return BourreRules(
        ante=draw(st.integers(1, 3)),
        pot_limit=draw(st.none() | st.integers(1, 25)),
        ante_mode=draw(st.sampled_from(["each", "dealer_for_all"])),
        double_ante=draw(st.booleans()),
        hand_size=hand_size,
        trump_card=draw(st.sampled_from(["dealer_keeps", "dead", "dealer_may_take"])),
        ace_trump_dealer_must_play=draw(st.booleans()),
        declare=declare,
        draw_with_declare=declare == "in_turn" and draw(st.booleans()),
        entry_requirement=draw(st.sampled_from(["none", "trump_or_club"])),
        second_chance=draw(st.booleans()),
        max_discard=draw(st.none() | st.integers(0, hand_size)),
        must_beat=draw(st.booleans()),
        must_trump=must_trump,
        allow_throw_off=must_trump == "to_win" and draw(st.booleans()),
        cinch_rule=draw(st.booleans()),
    )


def _cards_in(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        if value in CARD_INDEX:
            out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _cards_in(key, out)
            _cards_in(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _cards_in(item, out)
    return out


def _public(hand: BourreHand) -> set[str]:
    return set(names_in(hand.played | hand.public_out | (1 << hand.turned)))


def _visible(hand: BourreHand, seat: int | None, seen: dict[int, set[str]]) -> set[str]:
    visible = _public(hand)
    if seat is not None:
        visible |= set(names_in(hand.hands[seat])) | seen[seat]
    return visible


def _check_state(hand: BourreHand, total: int) -> None:
    assert sum(hand.stacks) + hand.pot == total
    assert min(hand.stacks) >= 0
    union = 0
    for mask in hand.card_zones().values():
        assert not union & mask, "a card is in two places"
        union |= mask
    assert union == FULL_DECK_MASK, "a card is missing"


def _check_turns(hand: BourreHand) -> None:
    acting = hand.to_act()
    assert acting, "a running hand always has a seat to act"
    for seat in range(hand.n):
        if seat in acting:
            assert hand.legal_actions(seat), "the seat to act always has a legal action"
            continue
        assert hand.legal_actions(seat) == []
        for probe in (Action(seat, "pass"), Action(seat, "card", card="AS")):
            try:
                hand.apply(probe)
            except EngineError as err:
                assert err.code == "not_your_turn"
            else:  # pragma: no cover
                raise AssertionError(f"{probe} accepted out of turn")


def _check_views(hand: BourreHand, seen: dict[int, set[str]]) -> None:
    for viewer in [None, *range(hand.n)]:
        shown = _cards_in(hand.view(viewer), set())
        assert shown <= _visible(hand, viewer, seen), (viewer, shown - _visible(hand, viewer, seen))


def _check_events(hand: BourreHand, events: list[Event], seen: dict[int, set[str]]) -> None:
    for event in events:
        cards = _cards_in(dict(event.data), set())
        if event.to is None:
            assert cards <= _public(hand), (event, cards - _public(hand))
        else:
            seen[event.to] |= cards
            assert cards <= _visible(hand, event.to, seen)


def _check_refusal_does_not_leak(hand: BourreHand, seen: dict[int, set[str]]) -> None:
    if hand.phase_name != "tricks":
        return
    seat = hand.turn
    legal = set(hand.legal_cards(seat))
    for card in names_in(hand.hands[seat]):
        if card not in legal:
            try:
                hand.apply(Action(seat, "card", card=card))
            except EngineError as err:
                named = _cards_in(
                    err.message.replace("(", " ")
                    .replace(")", " ")
                    .replace(",", " ")
                    .replace(".", " ")
                    .split(),
                    set(),
                )
                assert named <= _visible(hand, seat, seen)
            else:  # pragma: no cover
                raise AssertionError("an illegal card was accepted")
            return


def _play_session(rules: BourreRules, stacks: list[int], hands: int, seed: int, deep: bool) -> None:
    rng = random.Random(seed)
    n = len(stacks)
    session = BourreSession(rules, stacks, button=rng.randrange(n))
    total = sum(stacks)
    for number in range(hands):
        before = (list(session.stacks), session.button, session.pot, sorted(session.exempt))
        try:
            hand = session.start_hand(seed=rng.randbytes(32))
        except EngineError as err:
            assert err.code == "not_enough_players"
            return
        seen: dict[int, set[str]] = {s: set() for s in range(n)}
        _check_events(hand, hand.start_events, seen)
        while not hand.is_over:
            _check_state(hand, total)
            if deep:
                _check_turns(hand)
                _check_views(hand, seen)
                _check_refusal_does_not_leak(hand, seen)
            seat = rng.choice(hand.to_act())
            events = hand.apply(rng.choice(hand.legal_actions(seat)))
            _check_events(hand, events, seen)
        _check_state(hand, total)
        if deep:
            _check_views(hand, seen)
        result = session.close_hand()
        assert sum(session.stacks) + session.pot == total
        # Replaying the hand's own log reproduces it, from the seed and from the deck.
        names = [f"S{s}" for s in range(n)]
        for as_deck in (False, True):
            doc = {
                "format": "salon.table-log/1",
                "game": "bourre",
                "rules": rules.to_dict(),
                "seats": [{"name": names[s], "stack": before[0][s]} for s in range(n)],
                "dealer": before[1],
                "pot": before[2],
                "exempt": before[3],
                "hands": [hand_entry(hand, as_deck=as_deck)],
            }
            assert replay(doc)["hands"] == [hand_report(result, names)], number


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    rules=house_rules(),
    stacks=st.lists(st.integers(0, 40), min_size=2, max_size=8),
    hands=st.integers(1, 3),
    seed=st.integers(0, 2**32),
)
def test_random_games_keep_every_invariant(
    rules: BourreRules, stacks: list[int], hands: int, seed: int
) -> None:
    _play_session(rules, stacks, hands, seed, deep=True)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32), rules=house_rules())
def test_longer_sessions_conserve_chips_and_cards(
    players: int, seed: int, rules: BourreRules
) -> None:
    _play_session(rules, [60] * players, 8, seed, deep=False)
