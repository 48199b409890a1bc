"""Text hygiene for anything a person types.

`has_control_chars` guards codes and keys. `clean_text` is the one rule for text that a
person writes for others to read (a name, a chat line, a reason): every script is welcome,
but nothing may hide or reorder what the others see, and the same text is always stored
the same way.
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

# C0 and C1 controls and DEL: never meaningful in a name, a reason or a code, and NUL is
# refused outright by Postgres.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

ZWNJ, ZWJ = "\u200c", "\u200d"
# Default-ignorable characters that are not format characters (Cf): fillers that draw
# nothing (the Hangul fillers are the classic blank name), the combining grapheme joiner
# and the Khmer inherent vowels, and the code points reserved as ignorable.
_INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u2065\u3164\uffa0\ufff0-\ufff8\U000e0000-\U000e0fff]"
)
# Variation selectors pick a glyph (a heart drawn as text or as an emoji) for the character
# before them.
_VARIATION_SELECTOR = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
# Refused wherever they are: controls (Cc), surrogates (Cs), line and paragraph
# separators (Zl, Zp) and format characters (Cf) such as the bidi controls U+200E,
# U+200F, U+202A-U+202E, U+2066-U+2069 and U+061C, the zero-width space U+200B, the word
# joiner U+2060, the byte-order mark U+FEFF, the soft hyphen and the tag characters.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp", "Cf"})


def has_control_chars(text: str) -> bool:
    return _CONTROL.search(text) is not None


def _noncharacter(char: str) -> bool:
    code = ord(char)
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _graphic(char: str) -> bool:
    """A letter, mark, number, punctuation or symbol that draws something."""
    return unicodedata.category(char)[0] in "LMNPS" and not _INVISIBLE.match(char)


def _visible(char: str) -> bool:
    """Something a reader sees on its own: not a space, a mark, or a blank Braille cell."""
    return unicodedata.category(char)[0] in "LNPS" and char != "\u2800" and _graphic(char)


def _allowed(text: str, at: int) -> bool:
    char = text[at]
    before = text[at - 1] if at > 0 else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    if char in (ZWNJ, ZWJ):
        # Persian puts a ZWNJ inside words (the plural suffix of "tables" is written apart);
        # Indic scripts and emoji sequences use ZWJ. Between two characters a joiner only
        # shapes them.
        return bool(before and after) and _graphic(before) and _graphic(after)
    if _VARIATION_SELECTOR.match(char):
        # One, right after the character it styles: a run of them can carry hidden bytes.
        return bool(before) and _visible(before)
    return (
        unicodedata.category(char) not in _REFUSED_CATEGORIES
        and not _INVISIBLE.match(char)
        and not _noncharacter(char)
    )


def clean_text(text: str, max_length: int) -> str | None:
    """The text as it is stored and shown (NFC, without outer spaces), or None when it may
    not be shown to others.

    Every script is welcome: Arabic, Persian, Greek, Russian... Refused are controls,
    line breaks, bidi controls (which reorder what follows: U+202E then "exe.txt" reads
    "txt.exe"), zero-width and other invisible characters, and text with nothing visible
    in it. The zero-width non-joiner and joiner (U+200C, U+200D) are allowed between two
    characters, where Persian, Indic scripts and emoji need them, and nowhere else. The
    length limit counts the stored (NFC) text.
    """
    normal = unicodedata.normalize("NFC", text)
    if not all(_allowed(normal, at) for at in range(len(normal))):
        return None
    normal = normal.strip()
    if not 1 <= len(normal) <= max_length or not any(_visible(c) for c in normal):
        return None
    return normal


def plain_text(max_length: int) -> AfterValidator:
    """`clean_text` for an input model's field: the field holds the cleaned text."""

    def clean(text: str) -> str:
        cleaned = clean_text(text, max_length)
        if cleaned is None:
            raise PydanticCustomError(
                "plain_text",
                "must be 1 to {max_length} characters of plain text, without control, "
                "invisible or direction-changing characters",
                {"max_length": max_length},
            )
        return cleaned

    return AfterValidator(clean)
