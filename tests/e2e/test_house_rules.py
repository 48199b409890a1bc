"""An admin makes the club's own Bourré rules from the generated form (a refused pair first,
its explanation beside the fields), opens a table with them, and the table shows its rules
in one line and, behind the "rules" link, each option in words. Laptop and phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.table_ui import table_option
from tests.e2e.ui import (
    DESKTOP,
    PHONE,
    LiveServer,
    NewPage,
    Screen,
    Shot,
    log_in,
    open_menu,
    serious_violations,
)


def fits(page: Page) -> None:
    """No wider than the screen, and nothing axe-core finds serious."""
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{page.url} is wider than the screen: {wide}"
    assert serious_violations(page) == [], page.url


def option(page: Page, label: str):  # type: ignore[no-untyped-def]
    """A field of the generated form, found by its label (the rules section follows it)."""
    return page.get_by_label(re.compile(rf"^{re.escape(label)} §"))


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["laptop", "phone"])
def test_an_admin_makes_house_rules_and_opens_a_table_with_them(
    live_server: LiveServer, new_page: NewPage, shot: Shot, screen: Screen
) -> None:
    base = live_server.base_url
    name = "Cajun Tuesdays" if screen is DESKTOP else "Cajun phone"
    device = "laptop" if screen is DESKTOP else "phone"
    page = new_page(screen)
    log_in(page, base, live_server.owner_username, live_server.owner_password)
    page.goto(f"{base}/admin")
    page.get_by_role("link", name="House rules", exact=True).click()
    expect(page.get_by_role("heading", name="House rules", level=1)).to_be_visible()
    expect(page.get_by_test_id("preset").filter(has_text="Indiana four card")).to_be_visible()
    fits(page)
    shot(page, f"house-rules-list-{device}")

    page.get_by_role("link", name="New Bourré rules").click()
    page.get_by_label("Name", exact=True).fill(name)
    option(page, "Ante").fill("2")
    option(page, "Trump card").select_option(label="an extra card that belongs to no one")
    option(page, "Most cards exchanged").fill("3")
    option(page, "Play or pass").select_option(label="committed secretly, all at once")
    option(page, "Draw when declaring").select_option(label="yes")
    page.get_by_role("button", name="Create").click()

    # Refused: the reason stands beside both fields, and what was typed is kept.
    draw = page.locator('[data-option="draw_with_declare"]')
    expect(draw.get_by_test_id("field-error")).to_contain_text(
        "would reveal a commitment that must stay secret"
    )
    expect(page.locator('[data-option="declare"]').get_by_test_id("field-error")).to_be_visible()
    expect(page.get_by_test_id("field-error")).to_have_count(2)
    expect(option(page, "Ante")).to_have_value("2")
    fits(page)
    draw.scroll_into_view_if_needed()
    shot(page, f"house-rules-refused-pair-{device}")

    option(page, "Draw when declaring").select_option(label="no")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()

    page.get_by_role("link", name="← All house rules").click()
    mine = page.get_by_test_id("ruleset").filter(has_text=name)
    expect(mine).to_contain_text("play or pass: committed secretly, all at once")
    mine.get_by_text("Open a table with these rules").click()
    opener = mine.get_by_test_id("open-table")
    opener.get_by_label("Table name").fill(f"{name} table")
    opener.get_by_label("Seats").fill("5")
    expect(opener.get_by_label("Ante")).to_have_value("2")
    fits(page)
    shot(page, f"house-rules-open-table-{device}")
    opener.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+$"))
    table_id = int(page.url.rsplit("/", 1)[1])

    expect(page.locator("#connection")).to_have_text("Connected")
    line = page.get_by_test_id("table-rules")
    expect(line).to_contain_text("Ante 2 chips")
    expect(line).to_contain_text("play or pass: committed secretly, all at once")
    expect(line).to_contain_text("trump card: an extra card that belongs to no one")
    open_menu(page)  # on a phone the rules line is in the table's menu
    shot(page, f"house-rules-table-{device}")
    table_option(page, "link", "rules").click()
    expect(page.get_by_role("heading", name=f"House rules of {name} table")).to_be_visible()
    listing = page.get_by_test_id("rules-listing")
    for label, words in [
        ("Most cards exchanged", "3"),
        ("Trump card", "an extra card that belongs to no one"),
        ("Play or pass", "committed secretly, all at once"),
        ("Cinch rule", "yes"),
    ]:
        expect(listing.get_by_role("row").filter(has_text=label)).to_contain_text(words)
    fits(page)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"house-rules-listing-{device}")

    page.goto(f"{base}/lobby")
    row = page.locator(f'[data-table-id="{table_id}"]')
    expect(row).to_contain_text("play or pass: committed secretly, all at once")
    expect(row.get_by_role("link", name="rules", exact=True)).to_have_attribute(
        "href", f"/tables/{table_id}/rules"
    )
    fits(page)

    # The lobby's form offers the club's rules too, starting from their stakes.
    form = page.locator("#create-table")
    form.get_by_label("Name").fill(f"{name} again")
    choice = form.get_by_label("House rules").filter(visible=True)
    choice.select_option(label=name)
    ante = form.get_by_role("spinbutton", name="Ante")
    expect(ante).to_have_value("2")
    ante.fill("3")
    form.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+$"))
    line = page.get_by_test_id("table-rules")
    expect(line).to_contain_text("Ante 3 chips")
    expect(line).to_contain_text("play or pass: committed secretly, all at once")
    fits(page)
