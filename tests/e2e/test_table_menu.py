"""The table on a phone: its first screen is the felt — the trick area, the pot, the
player's own seat and cards — under one compact bar (the club's name, the table's name,
Menu). Everything else of the table's bar (the links, Account and Log out, the commitment,
the options, the rules line) is folded in the menu: out of sight and out of the Tab order
until Menu opens it. Opened, it takes the keyboard; Escape or a second tap closes it and
gives the keyboard back to Menu. On a laptop the bar is laid out whole, as it was.

Measured on the page at 375x667 and 390x844 (phones) and 1280x800 (a laptop), with 2, 5
and 8 seats; the screenshots are saved under var/screenshots/ to be looked at."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.table_ui import act, quick_table, resume, to_act
from tests.e2e.test_phone_layout import TAP, seat_problems
from tests.e2e.ui import (
    DESKTOP,
    PHONE,
    LiveServer,
    NewPage,
    Screen,
    Shot,
    fold_menu,
    log_in,
    open_menu,
    serious_violations,
)

TALL_PHONE = Screen(390, 844, mobile=True)
LAPTOP = Screen(1280, 800)

# The first screen, the page scrolled to its top: boxes in the window (CSS px), and what is
# under the middle of the trick area and of the pot.
FIRST_SCREEN = """() => {
    window.scrollTo(0, 0);
    const box = (el) => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    const under = (el) => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit && {felt: Boolean(hit.closest("#felt")),
                       what: `${hit.tagName.toLowerCase()}.${[...hit.classList].join(".")}`};
    };
    const brand = document.querySelector(".table-brand");
    return {
        width: innerWidth, height: innerHeight,
        felt: box(document.getElementById("felt")),
        me: box(document.querySelector("#seats .seat--me")),
        cards: [...document.querySelectorAll("#my-hand span.card")].map(box),
        bar: box(document.querySelector(".table-bar")),
        under: {"trick area": under(document.getElementById("centre")),
                pot: under(document.querySelector("#centre .pot"))},
        brand: brand && [brand.textContent, brand.scrollWidth, brand.clientWidth],
    };
}"""

Box = list[float]


def in_window(b: Box, width: float, height: float) -> bool:
    return b[0] >= -0.5 and b[1] >= -0.5 and b[2] <= width + 0.5 and b[3] <= height + 0.5


def first_screen_problems(page: Page, *, phone: bool) -> list[str]:
    """What keeps the first screen from being the table: the felt, the player's own seat or
    cards outside the window, something not of the felt over the trick area or the pot,
    and on a phone a bar of more than one line or a club's name cut short."""
    found: dict[str, Any] = page.evaluate(FIRST_SCREEN)
    width, height = found["width"], found["height"]
    problems = [
        f"the {what} at {b} is not inside the {width}x{height} window"
        for what, b in [
            ("felt", found["felt"]),
            ("own seat", found["me"]),
            *(("card", c) for c in found["cards"]),
        ]
        if b is None or not in_window(b, width, height)
    ]
    if not found["cards"]:
        problems.append("no card of the player's shown")
    for what, hit in found["under"].items():
        if not hit or not hit["felt"]:
            problems.append(f"the {what} is covered by {hit and hit['what']}")
    if phone:
        bar = found["bar"]
        if bar[3] - bar[1] > 56:
            problems.append(f"the bar above the felt is {bar[3] - bar[1]:.0f} px high")
        text, scroll_width, client_width = found["brand"]
        if scroll_width > client_width or client_width < 48:
            problems.append(f"the club's name {text!r} is cut ({client_width} px shown)")
    return problems


# Each link and button the open menu shows: its box, and whether its text is whole.
MENU_ITEMS = """() => [...document.querySelectorAll(
        "#table-options a, #table-options button, #table-options .hand-commitment")]
    .filter((el) => el.getClientRects().length)
    .map((el) => {
        const r = el.getBoundingClientRect();
        return {what: el.textContent.trim(), tap: el.matches("a, button"),
                box: [r.left, r.top, r.right, r.bottom],
                cut: el.scrollWidth > el.clientWidth + 0.5 && !el.matches(".hand-commitment")};
    })"""


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def menu_problems(page: Page) -> list[str]:
    """In the open menu: items outside the window, cut, on top of one another, or tap
    targets smaller than 44 px."""
    found: list[dict[str, Any]] = page.evaluate(MENU_ITEMS)
    size = page.viewport_size
    assert size is not None
    problems = []
    for n, item in enumerate(found):
        b = item["box"]
        if not in_window(b, size["width"], size["height"]):
            problems.append(f"{item['what']!r} at {b} is outside the window")
        if item["cut"]:
            problems.append(f"{item['what']!r} is cut")
        if item["tap"] and (b[2] - b[0] < TAP - 0.5 or b[3] - b[1] < TAP - 0.5):
            problems.append(f"{item['what']!r} is {b[2] - b[0]:.0f}x{b[3] - b[1]:.0f}")
        problems += [
            f"{item['what']!r} and {other['what']!r} overlap"
            for other in found[n + 1 :]
            if overlap(b, other["box"])
        ]
    return problems


def folded(page: Page) -> list[Locator]:
    """What the phone folds in the menu: the commitment, the table's options, the links,
    the rules line."""
    options = page.locator("#table-options")
    return [
        page.locator("#hand-commitment"),
        *(
            options.get_by_role("button", name=name, exact=True)
            for name in ("Sound", "4-colour deck", "Sit out", "Top up", "Stand up", "Log out")
        ),
        *(
            options.get_by_role("link", name=name, exact=True)
            for name in ("Back to the lobby", "My hands", "Account")
        ),
        page.get_by_test_id("table-rules"),
    ]


FOCUS = """() => {
    const el = document.activeElement;
    if (el?.closest("#my-hand button")) return "card";
    if (el?.closest("#table-options")) return "menu item";
    return el?.id || el?.tagName.toLowerCase() || "nothing";
}"""


def tabs_to_the_cards(page: Page) -> list[str]:
    """Tab from the top of a freshly loaded page until the keyboard is on a card of the
    player's hand: where each press landed."""
    stops: list[str] = []
    while len(stops) < 12 and (not stops or stops[-1] != "card"):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUS))
    return stops


def test_the_phones_first_screen_is_the_felt_and_the_rest_is_in_the_menu(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    owner, table_id, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=3,
        names=["Ida", "Jules", "Kiki"],
        screens=[PHONE, TALL_PHONE, LAPTOP],
    )
    phone, tall, laptop = (page for page, _, _ in players)
    resume(owner)
    for page in (phone, tall, laptop):
        expect(page.locator("#my-hand span.card").first).to_be_visible(timeout=20_000)
        expect(page.locator("#hand-commitment")).not_to_have_attribute("data-commitment", "")

    # The keyboard: Menu, then the cards (nothing folded in the menu on the way).
    assert tabs_to_the_cards(phone) == ["menu-toggle", "card"]

    menu = phone.get_by_role("button", name="Menu", exact=True)
    for page in (phone, tall):
        assert first_screen_problems(page, phone=True) == []
        expect(page.get_by_role("heading", name="Ida's bourre", level=1)).to_be_visible()
        for hidden in folded(page):
            expect(hidden).to_be_hidden()
    shot(phone, "table-menu-phone-first-screen", full_page=False)
    shot(tall, "table-menu-tall-phone-first-screen", full_page=False)

    # Opened, the menu shows all of it, whole and tappable, and has the keyboard.
    menu.tap()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(menu).to_have_attribute("aria-controls", "table-options")
    assert phone.evaluate(FOCUS) == "menu item"
    for shown in folded(phone):
        expect(shown).to_be_visible()
        expect(shown).to_be_in_viewport()
    assert menu_problems(phone) == []
    assert serious_violations(phone) == []
    shot(phone, "table-menu-phone-open", full_page=False)
    # Escape closes it and gives the keyboard back to Menu; a second tap closes it too.
    phone.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    assert phone.evaluate(FOCUS) == "menu-toggle"
    for hidden in folded(phone):
        expect(hidden).to_be_hidden()
    menu.tap()
    expect(phone.locator("#hand-commitment")).to_be_visible()
    menu.tap()
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(phone.locator("#hand-commitment")).to_be_hidden()
    # A tap on the table folds it as well.
    menu.tap()
    expect(menu).to_have_attribute("aria-expanded", "true")
    phone.locator("#me").tap(position={"x": 8, "y": 8})
    expect(menu).to_have_attribute("aria-expanded", "false")

    # `H` takes the keyboard to the cards from the open menu too, which folds behind it.
    open_menu(phone)
    phone.keyboard.press("h")
    assert phone.evaluate(FOCUS) == "card"
    expect(menu).to_have_attribute("aria-expanded", "false")

    # A laptop's bar is whole: no menu, every option and link in sight, the club's bar
    # (with the account and Log out) above it.
    assert first_screen_problems(laptop, phone=False) == []
    expect(laptop.get_by_role("button", name="Menu", exact=True)).to_be_hidden()
    bar = laptop.locator("#table-options")
    for shown in [
        laptop.locator("#hand-commitment"),
        *(
            bar.get_by_role("button", name=name, exact=True)
            for name in ("Keys", "Sound", "4-colour deck", "Sit out", "Top up", "Stand up")
        ),
        bar.get_by_role("link", name="Back to the lobby", exact=True),
        bar.get_by_role("link", name="My hands", exact=True),
        laptop.get_by_test_id("table-rules"),
        laptop.locator("header.topbar").get_by_role("link", name="Kiki", exact=True),
    ]:
        expect(shown).to_be_visible()
    # Account and Log out once, in the club's bar.
    expect(laptop.get_by_role("button", name="Log out", exact=True)).to_have_count(1)
    expect(bar.get_by_role("link", name="Account", exact=True)).to_be_hidden()
    shot(laptop, "table-menu-laptop", full_page=False)

    # An admin's menu has the admin's link and controls too; a member's has none of them.
    base = live_server.base_url
    admin = new_page(PHONE)
    log_in(admin, base, live_server.owner_username, live_server.owner_password)
    admin.goto(f"{base}/tables/{table_id}")
    expect(admin.locator("#connection")).to_have_text("Connected")
    open_menu(admin)
    for shown in [
        admin.locator("#table-options").get_by_role("link", name="Admin", exact=True),
        admin.locator("#table-options").get_by_role("button", name="Pause", exact=True),
        admin.locator("#table-options").get_by_role("button", name="Close table", exact=True),
    ]:
        expect(shown).to_be_visible()
    assert menu_problems(admin) == []
    shot(admin, "table-menu-phone-admin", full_page=False)
    open_menu(phone)
    expect(phone.locator("#table-options").get_by_role("link", name="Admin")).to_have_count(0)
    expect(phone.locator("#table-options").get_by_role("button", name="Pause")).to_have_count(0)

    # Account and Log out, from the phone's menu.
    open_menu(phone)
    phone.locator("#table-options").get_by_role("link", name="Account", exact=True).tap()
    expect(phone).to_have_url(f"{base}/account")
    expect(phone.get_by_role("heading", name="Ida", level=1)).to_be_visible()
    phone.goto(f"{base}/tables/{table_id}")
    expect(phone.locator("#connection")).to_have_text("Connected")
    open_menu(phone)
    phone.locator("#table-options").get_by_role("button", name="Log out", exact=True).tap()
    expect(phone).to_have_url(f"{base}/login")
    phone.goto(f"{base}/tables/{table_id}")
    expect(phone).to_have_url(f"{base}/login")
    expect(phone.get_by_role("button", name="Log in", exact=True)).to_be_visible()


@pytest.mark.parametrize(
    ("game", "seats"), [("bourre", 2), ("bouillotte", 5), ("bourre", 8)], ids=str
)
def test_the_first_screen_at_two_five_and_eight_seats(
    live_server: LiveServer, new_page: NewPage, shot: Shot, game: str, seats: int
) -> None:
    """Mid-hand, seen on the two phones and on a laptop: on the phones the felt and the
    player's own place fill the first screen, no seat over another or over the felt's
    edge, and the open menu is whole; the laptop shows its whole bar."""
    names = ["Amandine", "Barnabé", "Cunégonde", "Désiré", "Eulalie", "Fulbert", "Gudule"]
    screens = [PHONE, LAPTOP, TALL_PHONE, *[DESKTOP] * 5][:seats]
    owner, _, players = quick_table(
        live_server,
        new_page,
        game=game,
        seats=seats,
        names=[*names[: seats - 1], "Hyacinthe"],
        screens=screens,
    )
    pages = [page for page, _, _ in players]
    resume(owner)
    # Bouillotte's straddles come before its deal: everyone declines them.
    while game == "bouillotte" and not pages[0].locator("#my-hand span.card").count():
        turn = to_act(pages, timeout=20)
        assert turn is not None, "the hand ended before its deal"
        act(turn, turn.locator("#controls button[data-action='decline']"))
    for page in pages[:3]:
        expect(page.locator("#my-hand span.card").first).to_be_visible(timeout=20_000)
    for page, screen in zip(pages[:3], screens, strict=False):
        size = f"{screen.width}x{screen.height}"
        name = f"table-menu-{game}-{seats}-seats-{size}"
        if screen is LAPTOP:
            assert first_screen_problems(page, phone=False) == [], size
            expect(page.get_by_role("button", name="Sound", exact=True)).to_be_visible()
            shot(page, name, full_page=False)
            continue
        assert first_screen_problems(page, phone=True) == [], size
        assert seat_problems(page, touch=True) == [], size
        shot(page, name, full_page=False)
        open_menu(page)
        assert menu_problems(page) == [], size
        assert re.match(r"Commitment [0-9a-f]{16}…", page.locator("#hand-commitment").inner_text())
        shot(page, f"{name}-menu", full_page=False)
        fold_menu(page)
        assert page.evaluate(FOCUS) == "menu-toggle"
