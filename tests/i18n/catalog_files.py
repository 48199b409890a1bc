"""The catalogs as the tests read them, and the words the sources mark, extracted the way
`make messages` extracts them (babel.cfg, the Makefile's keywords)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.pofile import read_po

from app.i18n.languages import LOCALES_DIR, SOURCE_LANGUAGE, available_languages

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = (ROOT / "Makefile").read_text()


def makefile_keywords() -> dict[str, object]:
    found = re.search(r"^MESSAGE_KEYWORDS := (.+?)(?<!\\)$", MAKEFILE, re.M | re.S)
    assert found, "the Makefile names the keywords"
    words = found.group(1).replace("\\\n", " ").split()
    return parse_keywords([w for w in words if w != "-k"])


@cache
def extracted() -> frozenset[tuple[str | None, str]]:
    """(context, msgid) of every marked word in the sources."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = set()
    for _path, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=makefile_keywords()
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        found.add((context, msgid))
    return frozenset(found)


@cache
def catalog(code: str) -> Catalog:
    with (LOCALES_DIR / code.replace("-", "_") / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=code.replace("-", "_"))


def translated_languages() -> list[str]:
    return [language.code for language in available_languages() if language.code != SOURCE_LANGUAGE]


def entries(code: str) -> Iterator[Message]:
    return (message for message in catalog(code) if message.id)


def msgid(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, tuple | list) else message.id)
