"""The languages Salon speaks: English, in which the code is written, and one more for each
catalog under ``locales/``. A language is added by adding its catalog (README, "Adding a
language"); nothing lists the languages by hand.

Each is named in its own words ("فارسی", "Ελληνικά") and reads left to right or right to
left, as CLDR (through Babel) says.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
# The language the code, the templates and the scripts are written in.
SOURCE_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Language:
    code: str  # a BCP 47 tag as the catalogs are named: "fa", "pt_BR" is written "pt-BR"
    name: str  # in the language itself
    direction: str  # "ltr" or "rtl"


def catalog_path(code: str, root: Path = LOCALES_DIR) -> Path:
    return root / code.replace("-", "_") / "LC_MESSAGES" / "messages.po"


def _described(code: str) -> Language:
    locale = Locale.parse(code.replace("-", "_"))
    name = locale.get_display_name(locale) or code
    return Language(code, name[:1].upper() + name[1:], locale.text_direction)


@cache
def available_languages(root: Path = LOCALES_DIR) -> tuple[Language, ...]:
    """English first, then every language with a catalog, by code."""
    codes = {SOURCE_LANGUAGE}
    if root.is_dir():
        for po in root.glob("*/LC_MESSAGES/messages.po"):
            code = po.parts[-3].replace("_", "-")
            try:
                Locale.parse(code.replace("-", "_"))
            except (ValueError, UnknownLocaleError):
                continue  # a folder that names no language: not offered
            codes.add(code)
    ordered = [SOURCE_LANGUAGE, *sorted(codes - {SOURCE_LANGUAGE})]
    return tuple(_described(code) for code in ordered)


def language_named(code: str | None) -> Language | None:
    """The language of that code, if Salon speaks it (case as the catalogs have it)."""
    if not code:
        return None
    for language in available_languages():
        if language.code.lower() == code.lower():
            return language
    return None
