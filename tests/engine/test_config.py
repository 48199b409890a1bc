import pytest

from app.engine.bourre import PRESETS, BourreRules, ConfigError, preset
from app.engine.options import MAX_CHIPS


def test_defaults_are_those_of_the_rules() -> None:
    r = BourreRules()
    assert (r.ante, r.pot_limit, r.ante_mode, r.double_ante) == (1, None, "each", False)
    assert (r.hand_size, r.trump_card, r.ace_trump_dealer_must_play) == (5, "dealer_keeps", True)
    assert (r.declare, r.draw_with_declare, r.entry_requirement) == ("in_turn", False, "none")
    assert (r.second_chance, r.discard_cap, r.must_beat, r.must_trump) == (False, 5, True, "to_win")
    assert (r.allow_throw_off, r.cinch_rule, r.renege, r.renege_penalty) == (
        False,
        True,
        "prevented",
        1,
    )
    assert r.to_dict() == {}


def test_to_dict_only_differences_and_round_trip() -> None:
    r = BourreRules.from_dict({"ante": 2, "must_trump": "always", "max_discard": 3})
    assert r.to_dict() == {"ante": 2, "must_trump": "always", "max_discard": 3}
    assert BourreRules.from_dict(r.to_dict()) == r
    # max_discard equal to the hand size is the default (no cap)
    assert BourreRules(max_discard=5).to_dict() == {}
    assert BourreRules(hand_size=4, max_discard=4).to_dict() == {"hand_size": 4}


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({"colour": "red"}, "unknown_option", "colour"),
        ({"ante": 0}, "bad_option", "ante"),
        ({"ante": True}, "bad_option", "ante"),
        ({"ante": "1"}, "bad_option", "ante"),
        ({"ante": 2**62}, "bad_option", "ante"),
        ({"pot_limit": 0}, "bad_option", "pot_limit"),
        ({"pot_limit": 10**21}, "bad_option", "pot_limit"),
        ({"hand_size": 6}, "bad_option", "hand_size"),
        ({"max_discard": 6}, "bad_option", "max_discard"),
        ({"max_discard": -1}, "bad_option", "max_discard"),
        ({"hand_size": 4, "max_discard": 5}, "bad_option", "max_discard"),
        ({"must_trump": "sometimes"}, "bad_option", "must_trump"),
        ({"cinch_rule": 1}, "bad_option", "cinch_rule"),
        ({"renege": "penalized"}, "not_supported_yet", "renege"),
        ({"renege_penalty": 0}, "bad_option", "renege_penalty"),
        ({"renege_penalty": 11}, "bad_option", "renege_penalty"),
        ({"declare": "simultaneous", "draw_with_declare": True}, "conflicting_options", None),
        ({"must_trump": "always", "allow_throw_off": True}, "conflicting_options", None),
    ],
)
def test_bad_configs_refused_with_a_clear_message(
    data: dict[str, object], code: str, field: str | None
) -> None:
    with pytest.raises(ConfigError) as info:
        BourreRules.from_dict(data)
    assert info.value.code == code
    assert info.value.field == field
    assert info.value.message.endswith(".")


INVALID_PAIRS = [
    ({"declare": "simultaneous"}, {"draw_with_declare": True}),
    ({"must_trump": "always"}, {"allow_throw_off": True}),
]


@pytest.mark.parametrize(("one", "other"), INVALID_PAIRS)
def test_the_two_invalid_pairs_are_refused_naming_both_options(
    one: dict[str, object], other: dict[str, object]
) -> None:
    """bourre.md §4, §5: each option alone is valid; together they are a config error,
    whichever way the config is built (a document, a preset with a change, changes)."""
    for alone in (one, other):
        assert BourreRules.from_dict(alone).to_dict() == alone
    attempts = [
        lambda: BourreRules.from_dict({**one, **other}),
        lambda: BourreRules.from_dict(one).with_options(**other),
        lambda: BourreRules.from_dict(other).with_options(**one),
    ]
    for attempt in attempts:
        with pytest.raises(ConfigError) as info:
            attempt()
        assert info.value.code == "conflicting_options" and info.value.field is None
        for key, value in {**one, **other}.items():
            assert f"{key}: {str(value).lower()}" in info.value.message


def test_presets_of_section_9() -> None:
    assert PRESETS["classic_cajun"] == BourreRules()
    assert PRESETS["strict_trumping"].must_trump == "always"
    assert PRESETS["friendly"].allow_throw_off and not PRESETS["friendly"].cinch_rule
    assert PRESETS["dealer_antes"].ante_mode == "dealer_for_all"
    assert PRESETS["double_ante"].double_ante
    assert PRESETS["simultaneous_declaration"].declare == "simultaneous"
    assert PRESETS["separate_trump"].trump_card == "dead"
    assert PRESETS["seven_handed_cap"].discard_cap == 3
    assert preset("pot_limit", pot_limit=20).pot_limit == 20
    indiana = PRESETS["indiana_four_card"]
    assert indiana.to_dict() == {
        "hand_size": 4,
        "trump_card": "dead",
        "max_discard": 3,
        "double_ante": True,
        "renege_penalty": 2,
        "entry_requirement": "trump_or_club",
        "second_chance": True,
    }
    with pytest.raises(ConfigError):
        preset("pot_limit")
    with pytest.raises(ConfigError):
        preset("nope")


def test_the_largest_chip_amounts_are_those_the_ledger_can_move() -> None:
    """An ante or a pot limit above ``MAX_CHIPS`` could never be played (no buy-in covers
    it); at the bound it is still a valid house rule."""
    assert BourreRules.from_dict({"ante": MAX_CHIPS, "pot_limit": MAX_CHIPS}).ante == MAX_CHIPS
    with pytest.raises(ConfigError) as info:
        BourreRules.from_dict({"ante": MAX_CHIPS + 1})
    assert info.value.message == "Ante can be at most 1000000000 chips."
