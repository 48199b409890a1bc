"""The language of what is being done now (a request, a socket's frame), and the gettext
functions that read it.

The language is a context variable: set once per request when the caller is known
(``app.api.deps``), it is the language of every sentence made during that request, the
refusals' included, without passing it through every call.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from app.i18n.catalogs import translations
from app.i18n.languages import SOURCE_LANGUAGE

_language: ContextVar[str] = ContextVar("language", default=SOURCE_LANGUAGE)


def use_language(code: str) -> None:
    """Speak `code` from now on in this request (or task)."""
    _language.set(code)


def current_language() -> str:
    return _language.get()


def _fill(text: str, params: dict[str, Any]) -> str:
    return text % params if params else text


def _(message: str, /, **params: Any) -> str:
    """`message` in the current language, its ``%(name)s`` placeholders filled."""
    return _fill(translations(_language.get()).ugettext(message), params)


def ngettext(singular: str, plural: str, num: int, /, **params: Any) -> str:
    """The form of `num` in the current language (Russian has three, Arabic six);
    ``%(num)d`` is `num`."""
    text = translations(_language.get()).ungettext(singular, plural, num)
    return _fill(text, {"num": num, **params})


def pgettext(context: str, message: str, /, **params: Any) -> str:
    """`message` where its English is ambiguous: `context` tells the translator which sense
    (``pgettext("bouillotte", "Open")``)."""
    return _fill(translations(_language.get()).upgettext(context, message), params)


def npgettext(context: str, singular: str, plural: str, num: int, /, **params: Any) -> str:
    text = translations(_language.get()).unpgettext(context, singular, plural, num)
    return _fill(text, {"num": num, **params})


# The same, unfilled, for Jinja's i18n extension (it fills the placeholders itself, escaping
# the values on autoescaped pages).
def raw_gettext(message: str) -> str:
    return translations(_language.get()).ugettext(message)


def raw_ngettext(singular: str, plural: str, num: int) -> str:
    return translations(_language.get()).ungettext(singular, plural, num)


def raw_pgettext(context: str, message: str) -> str:
    return translations(_language.get()).upgettext(context, message)


def raw_npgettext(context: str, singular: str, plural: str, num: int) -> str:
    return translations(_language.get()).unpgettext(context, singular, plural, num)
