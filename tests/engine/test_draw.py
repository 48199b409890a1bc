"""The draw (rules/bourre.md §4): caps, the turned card, and the out-of-play reshuffle."""

from app.engine.base import Action
from app.engine.bourre import BourreRules
from app.engine.bourre.deck import SeededDeck
from app.engine.bourre.state import BourreHand
from app.engine.cards import cards_in, mask_of
from tests.engine.helpers import act, declare, refused, stand_pat, start

HANDS = {0: "AS 2H 3H 4H 5H", 1: "6D 7D 8D 9D TD", 2: "2C 3C 4C 5C 6S"}


def test_discard_limits_and_refusals() -> None:
    h = start(BourreRules(max_discard=3), HANDS, stock="JD QD KD AD 7C 8C")
    declare(h, {0, 1, 2})
    assert h.phase_name == "draw" and h.to_act() == (0,)
    assert refused(h, Action(1, "discard", cards=())).code == "not_your_turn"
    assert refused(h, Action(0, "play")).code == "wrong_phase"
    err = refused(h, Action(0, "discard", cards=("2H", "3H", "4H", "5H")))
    assert err.code == "too_many_discards" and err.message == "You may exchange at most 3 cards."
    assert refused(h, Action(0, "discard", cards=("2H", "2H"))).code == "duplicate_card"
    assert refused(h, Action(0, "discard", cards=("2C",))).code == "card_not_held"
    assert refused(h, Action(0, "discard", cards=("XX",))).code == "bad_card"
    assert refused(h, Action(0, "discard")).code == "bad_action"
    sizes = {len(a.cards or ()) for a in h.legal_actions(0)}
    assert sizes == {0, 1, 2, 3}
    assert len(h.legal_actions(0)) == 1 + 5 + 10 + 10
    act(h, 0, "discard", "2H 3H")
    assert h.view(0)["hand"] == ["AS", "5H", "4H", "QD", "JD"]
    assert h.view(0)["my_discards"] == ["3H", "2H"]
    assert h.view(1)["seats"][0]["exchanged"] == 2 and "my_discards" in h.view(1)
    assert "3H" not in str(h.view(1)) and "3H" not in str(h.view(None))


def test_dealer_may_take_the_turned_card() -> None:
    rules = BourreRules(trump_card="dealer_may_take", max_discard=3)
    h = start(rules, HANDS, turned="KS", stock="JD QD KD AD")
    declare(h, {0, 2})
    act(h, 0, "discard", "")
    assert h.to_act() == (2,)
    kinds = [a.kind for a in h.legal_actions(2)]
    assert kinds[0] == "take_trump" and "discard" in kinds
    act(h, 2, "take_trump")
    assert "KS" in h.view(2)["hand"] and len(h.view(2)["hand"]) == 6
    assert refused(h, Action(2, "take_trump")).code == "cannot_take_trump"
    assert refused(h, Action(2, "discard", cards=())).code == "too_few_discards"
    sizes = {len(a.cards or ()) for a in h.legal_actions(2)}
    assert sizes == {1, 2, 3, 4}
    act(h, 2, "discard", "2C 3C 4C 5C")  # discards four, receives three
    assert sorted(h.view(2)["hand"]) == sorted(["KS", "6S", "JD", "QD", "KD"])
    assert h.phase_name == "tricks"


def test_only_the_dealer_takes_and_only_with_dealer_may_take() -> None:
    rules = BourreRules(trump_card="dealer_may_take")
    h = start(rules, HANDS, turned="KS")
    declare(h, {0, 2})
    assert refused(h, Action(0, "take_trump")).code == "cannot_take_trump"
    h = start(BourreRules(trump_card="dead"), HANDS, turned="KS")
    declare(h, {0, 2})
    act(h, 0, "discard", "")
    assert refused(h, Action(2, "take_trump")).code == "cannot_take_trump"


def test_dealer_may_take_not_taken_is_dead() -> None:
    rules = BourreRules(trump_card="dealer_may_take")
    h = start(rules, HANDS, turned="KS")
    declare(h, {0, 2})
    stand_pat(h)
    assert h.turned_dead and h.view(None)["turned_card"] == "KS"


class RecordingDeck(SeededDeck):
    """A seeded deck that remembers which cards each reshuffle was asked to shuffle."""

    __slots__ = ("asked",)

    def __init__(self, seed: bytes) -> None:
        super().__init__(seed)
        self.asked: list[list[int]] = []

    def reshuffle(self, index: int, cards: list[int]) -> list[int]:
        self.asked.append(list(cards))
        return super().reshuffle(index, cards)


def test_deck_exhaustion_eight_players_all_exchanging_five() -> None:
    source = RecordingDeck(b"exhaust")
    h = BourreHand(BourreRules(), [100] * 8, 7, source)
    declare(h, range(8))
    assert len(h.stock) == 12
    seen_discards: dict[int, int] = {}
    expected_pools: list[int] = []
    pool = 0
    for seat in h.queue:
        hand_before = h.hands[seat]
        stock_before = len(h.stock)
        if stock_before < 5:
            expected_pools.append(pool)  # earlier players' discards only
            pool = 0
        discard = cards_in(hand_before)
        h.apply(Action(seat, "discard", cards=tuple(_names(discard))))
        seen_discards[seat] = mask_of(discard)
        # never handed back one's own discards
        assert not h.hands[seat] & seen_discards[seat]
        pool |= seen_discards[seat]
    assert [mask_of(c) for c in source.asked] == expected_pools
    assert len(source.asked) >= 2
    assert h.phase_name == "tricks"
    assert h.reshuffles and len(h.reshuffles) == len(source.asked)


def test_reshuffle_includes_folded_hands() -> None:
    source = RecordingDeck(b"folded")
    h = BourreHand(BourreRules(), [100] * 8, 7, source)
    folded = 0
    while h.phase_name == "declare":
        seat = h.turn
        if seat in (1, 2):
            folded |= h.hands[seat]
            act(h, seat, "pass")
        else:
            act(h, seat, "play")
    pool = folded
    for seat in h.queue:
        if len(h.stock) < 5:
            expected = pool
            h.apply(Action(seat, "discard", cards=tuple(_names(cards_in(h.hands[seat])))))
            assert mask_of(source.asked[0]) == expected
            return
        discard = h.hands[seat]
        h.apply(Action(seat, "discard", cards=tuple(_names(cards_in(discard)))))
        pool |= discard
    raise AssertionError("the stock never ran out")


def _names(cards: list[int]) -> list[str]:
    from app.engine.cards import CARD_NAMES

    return [CARD_NAMES[c] for c in cards]


def test_discard_choices_are_exactly_the_legal_discards_in_order() -> None:
    from itertools import combinations

    from app.engine.base import Action as A
    from app.engine.bourre.choices import DiscardChoices

    held = ["AS", "KS", "2H", "3D", "4C", "5C"]
    take = (A(3, "take_trump"),)
    for low, high, lead in [(0, 5, ()), (1, 4, take), (0, 0, ()), (2, 3, ())]:
        choices = DiscardChoices(3, held, low, high, lead)
        eager = list(lead) + [
            A(3, "discard", cards=c)
            for size in range(low, min(high, len(held)) + 1)
            for c in combinations(held, size)
        ]
        assert len(choices) == len(eager)
        assert list(choices) == eager
        assert [choices[i] for i in range(len(eager))] == eager
        assert choices[-1] == eager[-1] and list(choices[1:3]) == eager[1:3]
        assert eager[len(eager) // 2] in choices
    try:
        DiscardChoices(0, held, 0, 1, ())[99]
    except IndexError:
        pass
    else:  # pragma: no cover
        raise AssertionError("out of range")
