"""What a person may write where others read it: any script, no hidden or reordering
characters, and the same text always stored the same way (NFC)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.security.text import clean_text

ZWNJ, ZWJ = "\u200c", "\u200d"
# Persian: "table" and the plural suffix, written apart with a ZWNJ.
TABLE, PLURAL = "میز", "ها"  # noqa: RUF001 (Arabic letters)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("مرحبا", "مرحبا"),  # Arabic
        (f"{TABLE}{ZWNJ}{PLURAL}", f"{TABLE}{ZWNJ}{PLURAL}"),  # Persian "tables"
        ("Τραπέζι", "Τραπέζι"),  # Greek
        ("Стол", "Стол"),  # Russian
        ("Cafe\u0301", "Café"),  # decomposed (NFD) is stored composed (NFC)
        ("  Le Cercle  ", "Le Cercle"),
        ("Le\u00a0Cercle", "Le\u00a0Cercle"),  # a no-break space is a visible space
        ("क्ष", "क्ष"),  # Devanagari conjunct
        (f"क्{ZWJ}ष", f"क्{ZWJ}ष"),  # ZWJ after a virama asks for the half form
        (f"👨{ZWJ}👩{ZWJ}👧", f"👨{ZWJ}👩{ZWJ}👧"),  # one family emoji
        ("❤\ufe0f", "❤\ufe0f"),  # a variation selector after its character
        ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),  # keycap one
        ("x" * 60, "x" * 60),
    ],
)
def test_any_script_is_welcome_and_stored_in_nfc(typed: str, stored: str) -> None:
    assert clean_text(typed, 60) == stored


@pytest.mark.parametrize(
    "typed",
    [
        "\u202eevil.exe",  # right-to-left override: shows "exe.live"
        "a\u202ab\u202c",  # embeddings
        "\u2066x\u2069",  # isolates
        "a\u200eb",  # left-to-right mark
        "a\u200fb",  # right-to-left mark
        f"\u061c{TABLE}",  # Arabic letter mark
        "Zero\u200bwidth",  # zero-width space
        "\ufeffhello",  # byte-order mark
        "a\u2060b",  # word joiner
        "soft\u00adhyphen",
        "tag\U000e0041",  # tag characters hide ASCII
        "\u3164",  # Hangul filler: looks like nothing
        "name\u3164",
        ZWNJ,
        f"{ZWNJ}{TABLE}",  # a joiner control must sit between two characters
        f"{TABLE}{ZWNJ}",
        f"{TABLE}{ZWNJ}{ZWNJ}{PLURAL}",
        f"a {ZWJ} b",
        "\u200b\u200b",
        "",
        "   ",
        "\u3000",  # an ideographic space, and nothing else
        "\u2800",  # a blank Braille cell, and nothing else
        "\u0301",  # a combining accent on nothing
        "x\ufe0f\ufe0f",  # a run of variation selectors can smuggle bytes
        "two\nlines",
        "tab\there",
        "nul\x00",
        "c1\x85control",
        "line\u2028separator",
        "para\u2029separator",
        "lone\ud800surrogate",
        "x" * 61,
    ],
)
def test_hidden_and_reordering_characters_are_refused(typed: str) -> None:
    assert clean_text(typed, 60) is None


def test_the_limit_counts_the_stored_text() -> None:
    assert clean_text("e\u0301" * 60, 60) == "é" * 60
    # U+0958 (Devanagari qa) is one character in, two after NFC (it never recomposes).
    assert clean_text("\u0958" * 30, 60) == unicodedata.normalize("NFC", "\u0958" * 30)
    assert clean_text("\u0958" * 31, 60) is None


@given(st.text(max_size=40))
def test_what_is_accepted_is_stored_once_and_for_all(typed: str) -> None:
    cleaned = clean_text(typed, 80)
    if cleaned is not None:
        assert cleaned == unicodedata.normalize("NFC", cleaned) == cleaned.strip()
        assert clean_text(cleaned, 80) == cleaned
        assert not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in cleaned)
