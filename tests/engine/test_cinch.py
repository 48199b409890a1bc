"""The cinch rule (rules/bourre.md §6), decided only from the player's own knowledge."""

from app.engine.base import Action, EngineError
from app.engine.bourre import BourreRules
from app.engine.bourre.cinch import highest_trump_equivalents, holds_cinch, sure_tricks
from app.engine.cards import SUIT_MASKS, mask_of, names_in, parse_card
from tests.engine.helpers import act, declare, refused, stand_pat, start

SPADES = SUIT_MASKS[0]


def m(cards: str) -> int:
    return mask_of(parse_card(c) for c in cards.split())


def live_except(held: str, out: str = "") -> int:
    return SPADES & ~m(held) & ~m(out)


def test_ace_king_queen_is_a_cinch_from_the_start() -> None:
    assert sure_tricks(m("AS KS QS"), live_except("AS KS QS")) == 3
    assert holds_cinch(0, m("AS KS QS"), live_except("AS KS QS"))


def test_king_queen_ten_nine_eight_with_ace_and_jack_live() -> None:
    held = "KS QS TS 9S 8S"
    assert sure_tricks(m(held), live_except(held)) == 3
    assert holds_cinch(0, m(held), live_except(held))


def test_not_a_cinch() -> None:
    assert sure_tricks(m("KS QS JS"), live_except("KS QS JS")) == 2
    assert not holds_cinch(0, m("KS QS JS"), live_except("KS QS JS"))
    assert holds_cinch(1, m("KS QS JS"), live_except("KS QS JS"))
    assert holds_cinch(0, m("KS QS JS"), live_except("KS QS JS", out="AS"))
    assert holds_cinch(3, 0, 0)  # three tricks already won


def test_equivalent_trumps() -> None:
    assert names_in(highest_trump_equivalents(m("AS KS 9S"), live_except("AS KS 9S"))) == [
        "AS",
        "KS",
    ]
    held = "KS JS"
    assert names_in(highest_trump_equivalents(m(held), live_except(held))) == ["KS"]
    assert names_in(highest_trump_equivalents(m(held), live_except(held, out="QS"))) == [
        "KS",
        "JS",
    ]
    assert highest_trump_equivalents(0, SPADES) == 0


OTHERS = {1: "3H 4H 5H 6H 8H", 2: "3C 4C 5C 6C 7C"}


def test_cinch_lead_from_the_start_and_after_a_trick() -> None:
    h = start(BourreRules(trump_card="dead"), {0: "AS KS QS 7H 2D", **OTHERS}, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    err = refused(h, Action(0, "card", card="7H"))
    assert err.code == "cinch_lead"
    assert err.message == "You hold a cinch: lead your highest trump (AS, KS or QS)."
    act(h, 0, "card", "QS")  # an equivalent of the ace is accepted
    act(h, 1, "card", "3H")
    act(h, 2, "card", "3C")
    err = refused(h, Action(0, "card", card="7H"))
    assert err.message == "You hold a cinch: lead your highest trump (AS or KS)."
    act(h, 0, "card", "AS")
    act(h, 1, "card", "4H")
    act(h, 2, "card", "4C")
    # won 2, KS is a sure trick: still a cinch
    assert h.legal_cards(0) == ["KS"]


def test_cinch_lead_king_or_queen_once_ace_played() -> None:
    h = start(BourreRules(trump_card="dead"), {0: "AS KS QS 7H 2D", **OTHERS}, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "AS")
    act(h, 1, "card", "3H")
    act(h, 2, "card", "3C")
    err = refused(h, Action(0, "card", card="2D"))
    assert err.message == "You hold a cinch: lead your highest trump (KS or QS)."


def test_cinch_rule_off() -> None:
    rules = BourreRules(trump_card="dead", cinch_rule=False)
    h = start(rules, {0: "AS KS QS 7H 2D", **OTHERS}, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "7H")


KQJ = {0: "KS QS JS 7H 2D", 2: "3C 4C 5C 6C 7C"}


def test_trump_in_a_folded_hand_counts_as_live() -> None:
    h = start(BourreRules(trump_card="dead"), {**KQJ, 1: "AS 4H 5H 6H 8H"}, turned="2S")
    declare(h, {0, 2})
    stand_pat(h)
    act(h, 0, "card", "7H")  # the ace may be anywhere for seat 0: no cinch


def test_dead_turned_card_is_known_out_of_play() -> None:
    h = start(BourreRules(trump_card="dead"), {**KQJ, 1: "3H 4H 5H 6H 8H"}, turned="AS")
    declare(h, {0, 2})
    stand_pat(h)
    assert refused(h, Action(0, "card", card="7H")).code == "cinch_lead"


def test_turned_ace_kept_by_dealer_is_live_until_discarded_face_up() -> None:
    hands = {**KQJ, 1: "3H 4H 5H 6H 8H", 2: "3C 4C 5C 6C AS"}  # dealer 2 turns the AS
    h = start(None, hands, stock="9D")
    declare(h, {0, 2})
    stand_pat(h)
    act(h, 0, "card", "7H")  # the dealer may play the ace: no cinch
    h = start(None, hands, stock="9D")
    declare(h, {0, 2})
    act(h, 0, "discard", "")
    act(h, 2, "discard", "AS")
    assert h.view(0)["face_up_discards"] == ["AS"]
    assert refused(h, Action(0, "card", card="7H")).code == "cinch_lead"


def test_own_discard_known_until_reshuffled() -> None:
    """Seat 0 discards the AS: out of play for them, until a reshuffle brings it back."""
    hands = {s: "" for s in range(8)}
    hands[0] = "AS KS QS JS 7H"
    fillers = [
        "2H 3H 4H 5H 6H",
        "2D 3D 4D 5D 6D",
        "2C 3C 4C 5C 6C",
        "8H 9H TH JH QH",
        "8D 9D TD JD QD",
        "8C 9C TC JC QC",
        "KH AH KD AD KC",
    ]
    for seat, cards in enumerate(fillers, start=1):
        hands[seat] = cards
    # dealer 7 keeps the KC: clubs are trump, so use spades-free clubs? Keep spades trump:
    hands[7] = "KH AH KD AD 2S"  # dealer's last card, the 2S, is turned: spades trump
    stock = "7D 8S 9S TS 3S 4S 5S 6S 7S 7C AC"

    def play_out(discards: dict[int, str], reshuffles: tuple[str, ...] = ()) -> bool:
        h = start(None, hands, n=8, dealer=7, stock=stock, reshuffles=reshuffles)
        declare(h, set(range(8)))
        for seat in range(8):
            act(h, seat, "discard", discards.get(seat, ""))
        assert h.phase_name == "tricks"
        try:
            h.apply(Action(0, "card", card="7H"))
        except EngineError as err:
            assert err.code == "cinch_lead"
            return True
        return False

    # Without a reshuffle seat 0 (KS QS JS + 7D) knows the ace is out: a cinch.
    assert play_out({0: "AS"})
    # Seats 1 and 2 exchange five each and seat 3 runs the stock out: the reshuffle holds
    # seat 0's ace again (at the bottom, so nobody draws it), so it is live: no cinch.
    discards = {0: "AS", 1: "2H 3H 4H 5H 6H", 2: "2D 3D 4D 5D 6D", 3: "2C 3C 4C 5C 6C"}
    reshuffle = "2H 3H 4H 5H 6H 2D 3D 4D 5D 6D AS"
    assert not play_out(discards, (reshuffle,))


CINCH_LAST = {0: "9H 3D 4D 5D 6D", 1: "2H 7C 8C 9C TC", 2: "AH 3H AS KS QS"}


def test_last_to_play_with_a_cinch_must_win_even_without_must_beat() -> None:
    h = start(BourreRules(trump_card="dead", must_beat=False), CINCH_LAST, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "9H")
    act(h, 1, "card", "2H")
    assert h.legal_cards(2) == ["AH"]
    err = refused(h, Action(2, "card", card="3H"))
    assert err.code == "cinch_must_win"
    assert err.message == "You hold a cinch and play last: you must win the trick (AH)."


def test_last_to_play_with_a_cinch_must_win_even_with_throw_off() -> None:
    hands = {0: "9H 3D 4D 5D 6D", 1: "2H 7C 8C 9C TC", 2: "4D 5C AS KS 9S"}
    hands[0] = "9H 3D 2D 5D 6D"
    hands[2] = "7D 5C AS KS QS"
    h = start(BourreRules(trump_card="dead", allow_throw_off=True), hands, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "9H")
    act(h, 1, "card", "2H")
    assert h.legal_cards(2) == ["AS", "KS", "QS"]
    assert refused(h, Action(2, "card", card="7D")).code == "cinch_must_win"


def test_following_with_a_cinch_and_void_plays_highest_trump() -> None:
    hands = {0: "9H 3D 2D 5D 6D", 1: "AS KS QS 9S 4D", 2: "2H 7C 8C 9C TC"}
    h = start(BourreRules(trump_card="dead"), hands, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "9H")
    assert h.legal_cards(1) == ["AS", "KS", "QS"]  # 9S is not equivalent: JS, TS live
    err = refused(h, Action(1, "card", card="9S"))
    assert err.code == "cinch_highest_trump"
    assert err.message == "You hold a cinch: play your highest trump (AS, KS or QS)."
    h = start(BourreRules(trump_card="dead", cinch_rule=False), hands, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "9H")
    assert h.legal_cards(1) == ["AS", "KS", "QS", "9S"]


def test_refusals_never_name_hidden_cards() -> None:
    hands = {0: "9H 3D 2D 5D 6D", 1: "AS KS QS 9S 4D", 2: "2H 7C 8C 9C TC"}
    h = start(BourreRules(trump_card="dead"), hands, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "9H")
    err = refused(h, Action(1, "card", card="4D"))
    visible = set(h.view(1)["hand"]) | {"9H", "2S"}
    words = err.message.replace("(", " ").replace(")", " ").replace(",", " ").replace(".", " ")
    cards = {w for w in words.split() if len(w) == 2 and w[0] in "23456789TJQKA"}
    assert cards <= visible


def test_indiana_cinch_threshold_stays_three() -> None:
    rules = BourreRules(hand_size=4, trump_card="dead", max_discard=3)
    hands = {0: "AS KS QS 7H", 1: "3H 4H 5H 6H", 2: "3C 4C 5C 6C"}
    h = start(rules, hands, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    assert refused(h, Action(0, "card", card="7H")).code == "cinch_lead"
    hands[0] = "AS KS 8H 7H"  # two sure tricks of four: not a cinch
    h = start(rules, hands, turned="2S")
    declare(h, {0, 1, 2})
    stand_pat(h)
    act(h, 0, "card", "7H")
