"""The games' glossary (docs/glossary.md) and the catalogs agree: every sentence of a catalog
that names a core term of the games (marked ★ in the glossary) uses the word the glossary
gives for it in that language, in some inflected form. A translator who writes another word
for the pot, a trick or the straddle in one sentence fails this test."""

# ruff: noqa: RUF001 (Greek and Russian letters, as meant)

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import pytest

from tests.i18n.catalog_files import ROOT, entries, msgid

GLOSSARY = ROOT / "docs" / "glossary.md"
COLUMNS = {"French": "fr", "Greek": "el", "Russian": "ru", "Arabic": "ar", "Persian": "fa"}
CORE = "★"
# What an English word may end with where a sentence inflects it (tricks, straddled, antes).
ENGLISH_ENDINGS = r"(?:s|es|d|ed|r|rs|ing)?"
# Placeholders are not words of the sentence ("{pot}" is an amount).
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)[sd]")
# The last letter an inflection replaces (взятка → взяток, μπάζα → μπάζες, mise → misé).
CHANGING_ENDING = re.compile(r"(?<=\w{3})[aeiouyаеиоуыэюяьαεηιουω]$")


@dataclass(frozen=True, slots=True)
class Term:
    english: str
    core: bool
    words: dict[str, tuple[str, ...]]  # by language: the word, and its other forms


def plain(text: str) -> str:
    """Lower case without accents or Arabic and Persian vowel marks (hamza seats too), so
    that a word and its inflected forms compare by their letters."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def stem(word: str, language: str) -> str:
    """The part of a glossary word every inflected form keeps."""
    word = plain(word)
    if language == "ar":
        word = re.sub(r"^ال", "", word)
        return re.sub(r"(?<=\w{2})(ة|ات)$", "", word)
    if language in ("fr", "el", "ru"):
        return CHANGING_ENDING.sub("", word)
    return word


def cell_words(cell: str) -> tuple[str, ...]:
    """A cell's word and its other forms ("atout / couper (to trump)"): parentheses are
    explanations."""
    bare = re.sub(r"\([^)]*\)", "", cell)
    return tuple(part.strip() for part in bare.split("/") if part.strip())


@cache
def glossary() -> tuple[Term, ...]:
    terms: list[Term] = []
    header: list[str] = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "English":
            header = cells
            continue
        english = re.sub(r"\([^)]*\)", "", cells[0]).replace(CORE, "").strip()
        words = {
            COLUMNS[name]: cell_words(cell)
            for name, cell in zip(header, cells, strict=True)
            if name in COLUMNS
        }
        terms.append(Term(english, cells[0].startswith(CORE), words))
    return tuple(terms)


def english_pattern(term: str) -> re.Pattern[str]:
    word = re.escape(term).replace("é", "[ée]")
    return re.compile(rf"(?<![\w{{]){word}{ENGLISH_ENDINGS}\b", re.IGNORECASE)


def uses(translation: str, words: tuple[str, ...], language: str) -> bool:
    """Whether the translation holds one of the words (each part of a phrase)."""
    text = plain(translation)
    return any(all(stem(part, language) in text for part in w.split()) for w in words)


def test_the_glossary_names_every_language_and_its_core_terms() -> None:
    terms = glossary()
    assert len(terms) >= 30
    assert all(set(term.words) == set(COLUMNS.values()) for term in terms)
    assert all(all(term.words.values()) for term in terms), "every cell holds a word"
    core = {term.english for term in terms if term.core}
    assert {"pot", "ante", "trick", "trump", "Bourré", "straddle", "cave", "brelan"} <= core


@pytest.mark.parametrize("language", list(COLUMNS.values()))
def test_every_sentence_naming_a_core_term_uses_the_glossary_s_word(language: str) -> None:
    strays: list[str] = []
    for term in (term for term in glossary() if term.core):
        pattern = english_pattern(term.english)
        for message in entries(language):
            if not pattern.search(PLACEHOLDER.sub(" ", msgid(message))):
                continue
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                if not uses(form, term.words[language], language):
                    strays.append(f"{term.english}: {msgid(message)!r} → {form!r}")
    assert strays == []


def test_a_stray_word_is_found() -> None:
    """The check itself: another word for the trick or the pot is caught, an inflected
    form of the glossary's word is not."""
    trick = next(term for term in glossary() if term.english == "trick")
    assert uses("Последняя взятка", trick.words["ru"], "ru")
    assert uses("Карты этой взятки", trick.words["ru"], "ru")
    assert uses("الأكلة {number}", trick.words["ar"], "ar")
    assert not uses("اللمّة {number}", trick.words["ar"], "ar")
    pot = next(term for term in glossary() if term.english == "pot")
    assert uses("{n} پات", pot.words["fa"], "fa")
    assert not uses("{n} ژتون در وسط", pot.words["fa"], "fa")
