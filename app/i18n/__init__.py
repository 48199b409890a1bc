"""Salon in its players' languages: gettext catalogs (PO files under ``locales/``), the
language of each request, and the words of the browser's scripts.

Code marks what a person reads with the functions exported here, evaluated when the words
are needed (the language is the request's, set once it is known)::

    from app.i18n import _, ngettext, pgettext

    _("Table %(name)s is closed.", name=table.name)
    ngettext("%(num)d chip", "%(num)d chips", n)
    pgettext("bouillotte", "Open")  # a word that means something else elsewhere

Named placeholders only (``%(name)s``): translators move them where their language puts
them. Machine words (error codes, JSON keys, CSV columns) are never translated.
"""

from app.i18n.current import (
    _,
    current_language,
    ngettext,
    npgettext,
    pgettext,
    use_language,
)
from app.i18n.languages import SOURCE_LANGUAGE, Language, available_languages, language_named

__all__ = [
    "SOURCE_LANGUAGE",
    "Language",
    "_",
    "available_languages",
    "current_language",
    "language_named",
    "ngettext",
    "npgettext",
    "pgettext",
    "use_language",
]
