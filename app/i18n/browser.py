"""The catalogs as the browser's scripts read them (static/js/i18n.js): one JSON document
per language, with the plural forms keyed by CLDR category, since the browser chooses the
form with ``Intl.PluralRules`` and gettext numbers its forms by its own formula.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

import orjson
from babel import Locale
from babel.messages.catalog import Catalog

from app.i18n.catalogs import read_catalog, translations
from app.i18n.languages import language_named

# Numbers that show every CLDR category of every language's cardinal rules (0 to 200 shows
# all but French's "many", which is a million's).
_SAMPLES = [*range(201), 1_000_000]


def plural_indices(code: str) -> dict[str, int]:
    """Which of the catalog's forms each CLDR category takes: found by asking both the
    gettext formula and CLDR about the same numbers. Raises if they disagree."""
    rule = Locale.parse(code.replace("-", "_")).plural_form
    gettext = translations(code)
    plural = getattr(gettext, "plural", lambda n: int(n != 1))
    found: dict[str, int] = {}
    for n in _SAMPLES:
        category, index = rule(n), int(plural(n))
        if found.setdefault(category, index) != index:
            raise ValueError(
                f"{code}: CLDR's {category!r} takes forms {found[category]} and {index}"
            )
    return found


def _messages(catalog: Catalog | None) -> dict[str, Any]:
    words: dict[str, Any] = {}
    for message in catalog or ():
        if (
            not message.id
            or message.fuzzy
            or not any(path.startswith("static/js/") for path, _ in message.locations)
        ):
            continue
        key = str(message.id[0] if isinstance(message.id, tuple | list) else message.id)
        if message.context:
            key = f"{message.context}\u0004{key}"
        if isinstance(message.string, tuple | list):
            if all(message.string):
                words[key] = list(message.string)
        elif message.string:
            words[key] = message.string
    return words


@cache
def browser_catalog(code: str) -> bytes:
    """The JSON the scripts load for `code` (read once per process)."""
    language = language_named(code)
    if language is None:
        raise KeyError(code)
    return orjson.dumps(
        {
            "language": language.code,
            "direction": language.direction,
            "plural": plural_indices(language.code),
            "messages": _messages(read_catalog(language.code)),
        },
        option=orjson.OPT_SORT_KEYS,
    )


@cache
def browser_catalog_version(code: str) -> str:
    return hashlib.sha256(browser_catalog(code)).hexdigest()[:12]


def browser_catalog_url(code: str) -> str:
    """Versioned like the static files (app/web/assets.py): one URL, one content."""
    return f"/i18n/{code}.json?v={browser_catalog_version(code)}"
