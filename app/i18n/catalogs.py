"""The catalogs, compiled once per process from the PO files in the repository (nothing
compiled is committed: the PO file is the one copy of a translation).

A missing translation falls back to the English it translates; the completeness test
(tests/i18n) keeps that from happening to a language Salon offers.
"""

from __future__ import annotations

import io
from functools import cache

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from app.i18n.languages import SOURCE_LANGUAGE, catalog_path


@cache
def read_catalog(code: str) -> Catalog | None:
    """The language's PO file as Babel reads it (None: English without a catalog)."""
    path = catalog_path(code)
    if not path.is_file():
        return None
    with path.open("rb") as po:
        return read_po(po, locale=code.replace("-", "_"))


@cache
def translations(code: str) -> NullTranslations:
    """The language's compiled catalog, for gettext. Fuzzy entries are left out: a guess is
    not a translation."""
    catalog = read_catalog(code)
    if catalog is None or (code == SOURCE_LANGUAGE and not len(catalog)):
        return NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled)
