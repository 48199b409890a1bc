"""Form strings to typed options, by the engine's option kinds; refusals name the field."""

from __future__ import annotations

import pytest

from app.services import rule_words


def test_form_strings_become_the_options_kinds() -> None:
    parsed = rule_words.parse_form(
        "bourre", {"ante": " 3 ", "pot_limit": "", "cinch_rule": "false", "declare": "in_turn"}
    )
    assert parsed == {"ante": 3, "pot_limit": None, "cinch_rule": False, "declare": "in_turn"}
    assert rule_words.check("bourre", parsed) == {"ante": 3, "cinch_rule": False}


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"ante": "--5"}, "ante"),
        ({"ante": "٣"}, "ante"),
        ({"ante": ""}, "ante"),  # the ante cannot be "none"
        ({"must_beat": "maybe"}, "must_beat"),
    ],
)
def test_a_value_not_of_its_kind_is_refused_on_its_field(form: dict[str, str], field: str) -> None:
    with pytest.raises(rule_words.InvalidRules) as refused:
        rule_words.parse_form("bourre", form)
    assert refused.value.fields == [field]
    assert refused.value.details["reason"] == "bad_option"
