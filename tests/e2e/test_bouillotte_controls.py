"""Bouillotte controls that cost chips say what they cost, and the one that stakes a whole
cave takes two taps: the straddle button names the pot it puts in, and "Va tout" first
arms itself (naming the stack) and only a second tap sends it."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import act, acting, expect_usable, seat_players, stack_of, version
from tests.e2e.ui import LiveServer, NewPage, Shot


def pot_of(page: Page) -> int:
    return int(page.locator("[data-testid=pot] strong").inner_text().replace("\u202f", ""))


def test_a_straddle_names_its_price_and_va_tout_asks_twice(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bouillotte", names=["Gil", "Hana", "Ivo"], buy_in=100
    )
    pages = [p for p, _, _ in players]
    names = {p: name for p, _, name in players}

    page = acting(pages)
    straddle = page.locator("#controls button[data-action='straddle']")
    pot = pot_of(page)
    expect(straddle).to_have_text(f"Straddle {pot}")
    expect(page.locator("#prompt")).to_contain_text(f"put in {pot}")
    straddle.scroll_into_view_if_needed()
    expect_usable(straddle)
    stack = stack_of(page, names[page])
    act(page, straddle)
    assert stack_of(page, names[page]) == stack - pot
    while not pages[0].locator("#centre .upcard [data-card]").count():
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Decline"))

    page = acting(pages)
    if page.viewport_size and page.viewport_size["width"] >= 1000:
        # On a laptop screen every control of the turn is on screen without scrolling.
        page.evaluate("window.scrollTo(0, 0)")
        for control in page.locator("#controls button").all():
            expect(control).to_be_in_viewport(ratio=1)
    all_in = page.locator("#controls button[data-action='all_in']")
    all_in.scroll_into_view_if_needed()  # on the phone the controls may sit below the fold
    expect_usable(all_in)
    expect(all_in).to_have_text("Va tout")
    before = version(page)
    all_in.click()
    stack = stack_of(page, names[page])
    expect(all_in).to_have_text(f"Tap again: all in for {stack}")
    expect(all_in).to_have_attribute("data-armed", "true")
    assert version(page) == before, "one tap must not send it"
    shot(page, "bouillotte-va-tout-armed")
    act(page, all_in)
    expect(page.locator(".seat--me [data-testid=stack]")).to_have_text("0")
