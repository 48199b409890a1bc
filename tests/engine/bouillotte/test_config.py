"""Rules config: defaults, validation with clear messages, presets."""

import pytest

from app.engine.bouillotte import PRESETS, BouillotteRules, ConfigError, preset


def test_defaults_are_those_of_the_rules() -> None:
    r = BouillotteRules()
    assert (r.direction, r.cave, r.seating, r.ante_mode) == (
        "counter_clockwise",
        100,
        "draw",
        "all_plus_dealer",
    )
    assert (r.buy_back, r.mistigri, r.brelans, r.bonus_carre, r.bonus_brelan) == (
        False,
        False,
        True,
        2,
        1,
    )
    assert r.to_dict() == {}
    assert r.step == -1 and BouillotteRules(direction="clockwise").step == 1


def test_to_dict_only_differences_and_round_trip() -> None:
    r = BouillotteRules.from_dict({"cave": 50, "mistigri": True, "ante_mode": "dealer_only"})
    assert r.to_dict() == {"cave": 50, "mistigri": True, "ante_mode": "dealer_only"}
    assert BouillotteRules.from_dict(r.to_dict()) == r
    assert r.with_options(cave=100).to_dict() == {"mistigri": True, "ante_mode": "dealer_only"}


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({"colour": "red"}, "unknown_option", "colour"),
        ({"cave": 0}, "bad_option", "cave"),
        ({"cave": True}, "bad_option", "cave"),
        ({"cave": "100"}, "bad_option", "cave"),
        ({"cave": 2**62}, "bad_option", "cave"),
        ({"bonus_brelan": 10**21}, "bad_option", "bonus_brelan"),
        ({"direction": "left"}, "bad_option", "direction"),
        ({"ante_mode": "each"}, "bad_option", "ante_mode"),
        ({"seating": "random"}, "bad_option", "seating"),
        ({"buy_back": 1}, "bad_option", "buy_back"),
        ({"mistigri": "yes"}, "bad_option", "mistigri"),
        ({"brelans": None}, "bad_option", "brelans"),
        ({"bonus_carre": -1}, "bad_option", "bonus_carre"),
        ({"bonus_brelan": 1.5}, "bad_option", "bonus_brelan"),
    ],
)
def test_bad_configs_refused_with_a_clear_message(
    data: dict[str, object], code: str, field: str | None
) -> None:
    with pytest.raises(ConfigError) as info:
        BouillotteRules.from_dict(data)
    assert info.value.code == code
    assert info.value.field == field
    assert info.value.message.endswith(".")


@pytest.mark.parametrize(
    "data",
    [
        {"brelans": False, "mistigri": True},
        {"brelans": False, "bonus_carre": 4},
        {"brelans": False, "bonus_carre": 0, "bonus_brelan": 7},
        {"brelans": False, "mistigri": True, "bonus_carre": 1, "bonus_brelan": 3},
        {"bonus_carre": 1, "bonus_brelan": 2},
        {"bonus_carre": 0, "bonus_brelan": 0},
    ],
)
def test_every_combination_of_valid_values_is_valid(data: dict[str, object]) -> None:
    """bouillotte.md §6, §7, §8 "Rules config": options that then have no effect, and
    bonuses in any order, are house rules, not errors."""
    rules = BouillotteRules.from_dict(data)
    assert rules.to_dict() == data
    assert BouillotteRules.from_dict(rules.to_dict()) == rules
    assert BouillotteRules().with_options(**data) == rules


def test_not_a_mapping_and_unknown_with_options() -> None:
    with pytest.raises(ConfigError) as info:
        BouillotteRules.from_dict([])  # type: ignore[arg-type]
    assert info.value.code == "bad_rules"
    with pytest.raises(ConfigError) as info:
        BouillotteRules().with_options(ante=2)
    assert info.value.code == "unknown_option"
    with pytest.raises(ConfigError):
        BouillotteRules().with_options(cave="x")


def test_high_stakes_defaults_are_accepted() -> None:
    r = BouillotteRules(brelans=False)
    assert r.to_dict() == {"brelans": False}


def test_presets() -> None:
    assert PRESETS["classic"] == BouillotteRules()
    assert PRESETS["high_stakes"].brelans is False
    assert PRESETS["mistigri"].mistigri is True
    assert PRESETS["buy_back"].buy_back is True
    assert PRESETS["dealer_antes"].ante_mode == "dealer_only"
    assert PRESETS["clockwise"].direction == "clockwise"
    assert preset("mistigri", cave=40) == BouillotteRules(mistigri=True, cave=40)
    assert preset("classic") is PRESETS["classic"]
    with pytest.raises(ConfigError) as info:
        preset("poker")
    assert info.value.code == "unknown_preset"
