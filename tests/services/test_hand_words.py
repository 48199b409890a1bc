"""A hand's record in the rules' words: a Bouillotte *stay* is not a declined straddle, an
opening names the stake it reaches, va tout is said so, a showdown's category is written
as people say it (brelan carré, not a code), one chip is one chip, and a Bourré draw of no
card is said as the table's hand log says it."""

from __future__ import annotations

from app.i18n import SOURCE_LANGUAGE, use_language
from app.services.hand_replay import Viewer, action_from_log, action_label, result_label
from app.services.hand_text import chip_count, showdown_words


def said(action: str, phase: str, amount: int | None = None, cards: list[str] | None = None) -> str:
    data = {"seat": 0, "action": action, "amount": amount, "cards": cards}
    return action_label(action_from_log(data), "Ann", Viewer(seat=None), phase)


def test_a_decline_is_said_as_the_rules_call_it_in_each_phase() -> None:
    assert said("decline", "straddle") == "Ann declines to straddle."
    assert said("decline", "buy_back") == "Ann declines to buy back."
    assert said("decline", "continuation") == "Ann stays."


def test_openings_raises_and_va_tout_in_words() -> None:
    assert said("open", "opening", 5) == "Ann opens to 5."
    assert said("raise", "calls", 12) == "Ann raises to 12."
    assert said("all_in", "calls") == "Ann goes va tout."


def test_showdown_categories_and_chip_counts_in_words() -> None:
    assert showdown_words("carre") == "brelan carré"
    assert showdown_words("mistigri") == "mistigri brelan"
    assert chip_count(1) == "1 chip"
    assert chip_count(0) == "0 chips"
    assert chip_count(1616) == "1616 chips"


def test_a_draw_of_no_card_keeps_all_cards_as_at_the_table() -> None:
    assert said("discard", "draw", cards=[]) == "Ann keeps all cards."
    assert said("discard", "draw", cards=["2H", "3H"]) == "Ann exchanges 2 cards."


def test_the_steps_and_the_end_are_told_in_the_readers_language() -> None:
    use_language("ru")
    try:
        assert said("call", "calls") == "Ann уравнивает."
        assert said("discard", "draw", cards=["2H", "3H", "4H"]) == "Ann сбрасывает 3 карты."
        assert result_label(
            "bourre", {"players": ["a"], "winner": "a", "pot": 9}, {"a": "Ann"}
        ) == ("Ann забирает банк: 9.")
    finally:
        use_language(SOURCE_LANGUAGE)
    assert result_label("bouillotte", {"pots": []}, {}) == "Thrown in: the pot stays."
    assert result_label(
        "bourre", {"players": ["a", "b"], "bourre": ["a", "b"]}, {"a": "Ann", "b": "Bo"}
    ) == ("Tied for most tricks: the pot stays. Bourré: Ann, Bo.")
