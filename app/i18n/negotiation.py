"""Which language to speak to someone: theirs if they chose one (their account, else the
language menu on this browser), else the first their browser asks for that Salon speaks
(``Accept-Language``), else the club's, else English.
"""

from __future__ import annotations

from babel import Locale, UnknownLocaleError, negotiate_locale

from app.i18n.languages import SOURCE_LANGUAGE, available_languages, language_named

# Accept-Language is short in practice; a longer one is cut, not parsed at length.
MAX_HEADER = 512
MAX_RANGES = 20


def accepted(header: str | None) -> list[str]:
    """The language ranges of an Accept-Language header, most wanted first (RFC 9110
    §12.5.4); ``*`` and ranges with q=0 dropped, malformed ones ignored."""
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "")[:MAX_HEADER].split(",")[:MAX_RANGES]):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value)
            except ValueError:
                continue
        if not tag or tag == "*" or not 0 < quality <= 1:
            continue
        ranked.append((-quality, position, tag))
    return [tag for _, _, tag in sorted(ranked)]


def from_browser(header: str | None) -> str | None:
    """The language Salon speaks that the browser prefers: "fa-IR" finds "fa", and "pt"
    finds "pt-BR" when that is the one there is."""
    codes = [language.code for language in available_languages()]
    wanted = accepted(header)
    found = negotiate_locale(wanted, codes, sep="-") or negotiate_locale(
        [tag.replace("_", "-") for tag in wanted], codes, sep="-"
    )
    if found:
        return found
    for tag in wanted:  # "fa-IR" where only "fa" is spoken
        try:
            language = Locale.parse(tag, sep="-").language
        except (ValueError, UnknownLocaleError):
            continue
        if language_named(language):
            return language
    return None


def asked_for(account: str | None, cookie: str | None, header: str | None) -> str | None:
    """The language a person asked for, of those Salon speaks: the one on their account,
    else the one chosen on this browser (the language menu's cookie), else the first their
    browser asks for. None when they asked for none Salon speaks."""
    for code in (account, (cookie or "")[:16]):
        language = language_named(code)
        if language:
            return language.code
    return from_browser(header)


def choose(asked: str | None, club_default: str | None) -> str:
    """The language of a request: the one the person asked for (``asked_for``), else the
    club's, else English (the code's own)."""
    for code in (asked, club_default):
        language = language_named(code)
        if language:
            return language.code
    return SOURCE_LANGUAGE
