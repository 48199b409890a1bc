"""Every house-rule option carries what the house-rules form and a table's rules listing
need: a label, the section of the rules page, one sentence, and its allowed values."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from app.engine.bouillotte import config as bouillotte
from app.engine.bourre import config as bourre
from app.engine.options import ConfigError, RuleOptions

GAMES = [(bourre, bourre.BourreRules), (bouillotte, bouillotte.BouillotteRules)]


@pytest.mark.parametrize(("module", "rules_type"), GAMES)
def test_every_option_has_its_words(module: object, rules_type: type[RuleOptions]) -> None:
    info = module.OPTION_INFO  # type: ignore[attr-defined]
    names = [f.name for f in fields(rules_type)]
    assert sorted(info) == sorted(names)
    default = rules_type()
    for name in names:
        entry = info[name]
        assert entry.label and entry.explanation.endswith(".")
        assert re.fullmatch(r"§[0-9]+|introduction", entry.section), name
        value = getattr(default, name)
        if entry.kind == "int":
            assert value is None or entry.minimum is None or value >= entry.minimum
            assert value is None or entry.maximum is None or value <= entry.maximum
            assert value is not None or entry.none_words, name
        else:
            assert value in entry.words, name


@pytest.mark.parametrize(("module", "rules_type"), GAMES)
def test_every_allowed_choice_is_said_in_words(
    module: object, rules_type: type[RuleOptions]
) -> None:
    choices = module._CHOICES  # type: ignore[attr-defined]
    for name, allowed in choices.items():
        assert set(module.OPTION_INFO[name].words) == set(allowed)  # type: ignore[attr-defined]
    for name in module._BOOLS:  # type: ignore[attr-defined]
        assert set(module.OPTION_INFO[name].words) == {True, False}  # type: ignore[attr-defined]


def test_a_value_is_described_in_words() -> None:
    info = bourre.OPTION_INFO
    assert info["trump_card"].describe("dead") == "an extra card that belongs to no one"
    assert info["pot_limit"].describe(None) == "no limit"
    assert info["ante"].describe(5) == "5 chips"
    assert info["cinch_rule"].describe(False) == "no"
    # A stored value the engine refuses (an audit row of a repaired configuration).
    assert info["cinch_rule"].describe([]) == "[]"


@pytest.mark.parametrize("refused", bourre.REFUSED_COMBINATIONS)
def test_each_refused_combination_is_what_the_validator_refuses(
    refused: object,
) -> None:
    first, second = refused.first, refused.second  # type: ignore[attr-defined]
    with pytest.raises(ConfigError) as info:
        bourre.BourreRules.from_dict(dict([first, second]))
    assert info.value.code == "conflicting_options"
    assert info.value.message == refused.message  # type: ignore[attr-defined]
    # Either value alone is allowed.
    bourre.BourreRules.from_dict(dict([first]))
    bourre.BourreRules.from_dict(dict([second]))
