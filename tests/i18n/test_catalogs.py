"""The catalogs: one per language, up to date with the sources, complete, and with the
plural forms CLDR gives each language."""

from __future__ import annotations

import pytest

from app.i18n.browser import plural_indices
from app.i18n.languages import available_languages
from tests.i18n.catalog_files import (
    catalog,
    entries,
    extracted,
    msgid,
    translated_languages,
)

SIX = {"en", "fr", "el", "ru", "ar", "fa"}


def test_salon_speaks_its_six_languages_each_in_its_direction() -> None:
    languages = {language.code: language for language in available_languages()}
    assert set(languages) >= SIX
    assert {code for code, language in languages.items() if language.direction == "rtl"} >= {
        "ar",
        "fa",
    }
    assert languages["fa"].name == "فارسی" and languages["el"].name == "Ελληνικά"
    assert languages["fr"].name == "Français"


@pytest.mark.parametrize("code", sorted(SIX))
def test_every_marked_word_is_in_the_catalog(code: str) -> None:
    """`make messages` was run: each word the sources mark is in each catalog."""
    held = {(message.context, msgid(message)) for message in entries(code)}
    missing = sorted(extracted() - held, key=str)
    assert not missing, f"{code}: run `make messages`; missing {missing[:5]}"


@pytest.mark.parametrize("code", sorted(SIX - {"en"}))
def test_every_word_is_translated_and_none_is_a_guess(code: str) -> None:
    untranslated = [
        msgid(message)
        for message in entries(code)
        if not (all(message.string) if isinstance(message.string, tuple) else message.string)
    ]
    fuzzy = [msgid(message) for message in entries(code) if message.fuzzy]
    assert not untranslated, f"{code}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{code}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


def test_the_translated_languages_are_the_catalogs() -> None:
    assert set(translated_languages()) >= SIX - {"en"}


@pytest.mark.parametrize(
    ("code", "forms", "categories"),
    [
        ("ru", 3, {"one": 0, "few": 1, "many": 2}),
        ("ar", 6, {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 4, "other": 5}),
        ("fr", 3, {"one": 0, "many": 1, "other": 2}),  # "many": a million, "de" chips
        ("el", 2, {"one": 0, "other": 1}),
        ("fa", 2, {"one": 0, "other": 1}),
    ],
)
def test_plural_forms_are_cldrs(code: str, forms: int, categories: dict[str, int]) -> None:
    """The catalog's gettext formula and CLDR (which the browser asks, Intl.PluralRules)
    put every number in the same form."""
    assert catalog(code).num_plurals == forms
    assert plural_indices(code) == categories
