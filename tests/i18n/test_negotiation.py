"""Which language a request is answered in: the member's, the visitor's choice, the
browser's, the club's, English — in that order."""

from __future__ import annotations

from app.i18n.negotiation import accepted, asked_for, choose, from_browser


def test_accept_language_is_read_by_quality_then_order() -> None:
    header = "fr;q=0.5, fa-IR, el;q=0.9, *;q=0.1, ru;q=0, xx;q=bad, en;q=2"
    assert accepted(header) == ["fa-IR", "el", "fr"]
    assert accepted(None) == [] and accepted("") == []
    # A header far longer than any browser's is cut, not parsed at length.
    assert len(accepted(",".join(["fr"] * 10_000))) <= 20


def test_the_browser_gets_the_nearest_language_salon_speaks() -> None:
    assert from_browser("fa-IR,fa;q=0.9,en;q=0.8") == "fa"
    assert from_browser("ar-EG") == "ar"
    assert from_browser("de-DE, el;q=0.7") == "el"
    assert from_browser("de-DE, ja") is None
    assert from_browser("garbage-!!, ;;;") is None


def test_the_member_then_the_menu_then_the_browser_then_the_club_then_english() -> None:
    assert asked_for("ru", "el", "fa") == "ru"
    assert asked_for(None, "el", "fa") == "el"
    assert asked_for(None, None, "fa-IR") == "fa"
    assert asked_for(None, None, "de") is None
    # A language the installation no longer speaks is passed over, as is a cookie's junk.
    assert asked_for("xx", "el" + "x" * 5000, "fr") == "fr"
    assert choose("ru", "el") == "ru"
    assert choose(None, "el") == "el"
    assert choose(None, None) == "en"
    assert choose("xx", "yy") == "en"
