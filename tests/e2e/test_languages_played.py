"""A member whose browser asks for Persian (then Greek, Russian, Arabic, French) reads the
login page and the lobby, plays a whole Bourré hand and a Bouillotte hand on a phone, opens
the hand's page and checks its shuffle with Verify, all in that language, right to left
where it reads so. What is checked is what the phone shows: the page's `lang` and `dir`,
the catalog's own words where the page shows a fixed sentence (looked up in the same
catalogs the server reads), no page wider than the screen, the names on the felt isolated
from the text around them. Each step leaves a screenshot (var/screenshots/language-*)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from app.i18n import SOURCE_LANGUAGE, pgettext, use_language
from app.i18n import _ as translated
from tests.e2e.table_ui import act, call_api, quick_table, resume, to_act
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage, Screen, Shot, reveal_each_hand

# The browser's language, the phone player's and the others' names in its script, and the
# direction the page reads in.
LANGUAGES = {
    "fa": ("fa-IR", ["آرش", "بهار", "نگار"], "rtl"),
    "el": ("el-GR", ["Άρης", "Βάσω", "Ελένη"], "ltr"),
    "ru": ("ru-RU", ["Антон", "Борис", "Наташа"], "ltr"),
    "ar": ("ar-EG", ["أحمد", "بشير", "ليلى"], "rtl"),
    "fr": ("fr-FR", ["Aurélie", "Benoît", "Élodie"], "ltr"),
}


def said(code: str, text: str, *, context: str | None = None, **fill: object) -> str:
    """`text` as the catalog of `code` says it; `{name}` placeholders (the scripts' own)
    filled."""
    use_language(code)
    try:
        out = pgettext(context, text) if context else translated(text)
    finally:
        use_language(SOURCE_LANGUAGE)
    for name, value in fill.items():
        out = out.replace("{" + name + "}", str(value))
    return out


def speaking(new_page: NewPage, phone_locale: str) -> NewPage:
    """Pages whose phones ask for `phone_locale`; the laptops stay in Chromium's own
    language (unless asked for another)."""

    def open_page(viewport: Screen = DESKTOP, *, locale: str | None = None) -> Page:
        return new_page(viewport, locale=phone_locale if viewport.mobile else locale)

    return open_page


def reads(page: Page, code: str, direction: str) -> None:
    """The page is in `code`, in its direction, and no wider than the screen."""
    html = page.locator("html")
    expect(html).to_have_attribute("lang", code)
    expect(html).to_have_attribute("dir", direction)
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{page.url} is {wide[0]} px wide on a {wide[1]} px screen"


def names_isolated(page: Page) -> None:
    """Each name on the felt is laid out on its own (a Persian name beside Latin digits,
    or a Latin name in a Persian sentence, keeps its order)."""
    styles: list[str] = page.locator("#felt .seat-name").evaluate_all(
        "els => els.map((el) => getComputedStyle(el).unicodeBidi)"
    )
    assert styles and all(s in ("isolate", "plaintext", "isolate-override") for s in styles)


def play_bourre(pages: list[Page], phone: Page, code: str, shot: Shot) -> None:
    """Everyone plays and keeps their cards, then the first legal card; the phone's
    prompts are its catalog's sentences."""
    shown = False
    for _ in range(200):
        page = to_act(pages, timeout=20)
        if page is None:
            return
        controls = page.locator("#controls")
        play = controls.locator("button[data-action='play']")
        keep = controls.locator("button[data-shortcut='discard']")
        legal = page.locator("#my-hand button.is-legal")
        prompt = page.locator("#prompt")
        if play.count():
            if page is phone:
                expect(prompt).to_have_text(said(code, "Your turn: play this hand or pass?"))
            act(page, play)
        elif keep.count():
            if page is phone:
                expect(keep).to_have_text(said(code, "Keep all"))
            act(page, keep)
        elif legal.count():
            if page is phone and not shown:
                expect(prompt).to_have_text(said(code, "Your turn: play a card."))
                reads(page, code, page.locator("html").get_attribute("dir") or "")
                names_isolated(page)
                shot(page, f"language-{code}-bourre-turn", full_page=False)
                shown = True
            act(page, legal.first)
        else:
            act(page, controls.locator("button:enabled").first)
    raise AssertionError("the Bourré hand did not end")


def play_bouillotte(pages: list[Page], phone: Page, code: str, shot: Shot) -> None:
    """No straddles; whoever may open opens at the minimum, the others call; the phone's
    call button says its catalog's word."""
    for _ in range(200):
        page = to_act(pages, timeout=20)
        if page is None:
            return
        controls = page.locator("#controls")
        decline = controls.locator("button[data-action='decline']")
        opening = controls.locator("button[data-action='open']")
        call = controls.locator("button[data-action='call']")
        if decline.count():
            act(page, decline)
        elif opening.count():
            act(page, opening)
        elif call.count():
            if page is phone:
                names_isolated(page)
                shot(page, f"language-{code}-bouillotte-turn", full_page=False)
            act(page, call)
        else:
            act(page, controls.locator("button:enabled").first)
    raise AssertionError("the Bouillotte hand did not end")


def opens_the_hand_and_verifies(phone: Page, base: str, code: str, game: str, shot: Shot) -> None:
    """From My hands, the hand's page in the language; Verify says it matches, in words."""
    phone.goto(f"{base}/hands")
    reads(phone, code, phone.locator("html").get_attribute("dir") or "")
    phone.locator("#hand-list .hand-link").first.click()
    expect(phone).to_have_url(re.compile(r"/hands/\d+$"))
    expect(phone.locator("#hand-title")).to_contain_text(said(code, "Hand", context="cards dealt"))
    button = phone.locator("#verify-button")
    expect(button).to_have_text(said(code, "Verify"))
    button.scroll_into_view_if_needed()
    button.click()
    result = phone.locator("#verify-result")
    expect(result).to_have_attribute("data-state", "match")
    expect(result).to_have_text(
        said(
            code,
            "Match: the seed fits the commitment published before the deal, "
            "and it deals exactly these cards.",
        )
    )
    reads(phone, code, phone.locator("html").get_attribute("dir") or "")
    shot(phone, f"language-{code}-{game}-hand-page")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_phone_plays_and_verifies_in_its_language(
    live_server: LiveServer, new_page: NewPage, shot: Shot, code: str
) -> None:
    locale, names, direction = LANGUAGES[code]
    base = live_server.base_url

    visitor = new_page(PHONE, locale=locale)
    visitor.goto(f"{base}/login")
    reads(visitor, code, direction)
    expect(visitor.locator("h1")).to_have_text(said(code, "Log in"))
    expect(visitor.locator("form[action='/login'] button[type=submit]")).to_have_text(
        said(code, "Log in")
    )
    shot(visitor, f"language-{code}-login")

    for game in ("bourre", "bouillotte"):
        owner, _, players = quick_table(
            live_server,
            speaking(new_page, locale),
            game=game,
            seats=3,
            names=names,
            screens=[DESKTOP, DESKTOP, PHONE],
        )
        reveal_each_hand(owner)
        pages = [page for page, _, _ in players]
        phone = pages[2]
        if game == "bourre":  # the lobby once, as the member arrives
            phone.goto(f"{base}/lobby")
            reads(phone, code, direction)
            expect(phone.locator("h1").first).to_have_text(said(code, "Tables"))
            shot(phone, f"language-{code}-lobby")
            phone.go_back()
            expect(phone.locator("#connection")).to_have_attribute("data-state", "open")
        reads(phone, code, direction)
        expect(phone.locator("#connection")).to_have_text(said(code, "Connected"))
        resume(owner)
        if game == "bourre":
            play_bourre(pages, phone, code, shot)
        else:
            play_bouillotte(pages, phone, code, shot)
        # The hand is over: the phone's result panel is in the language, and so is its page.
        call_api(owner, "POST", f"/api/tables/{owner.url.rsplit('/', 1)[1]}/pause")
        expect(phone.locator("#result")).to_be_visible()
        shot(phone, f"language-{code}-{game}-result", full_page=False)
        reads(phone, code, direction)
        opens_the_hand_and_verifies(phone, base, code, game, shot)
