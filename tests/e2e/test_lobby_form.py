"""The lobby's form that opens a table: every house-rule choice it offers opens a table,
the pot-limit preset with the limit the form asks for (rules/bourre.md §1, §7, §9)."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.e2e.table_ui import table_row
from tests.e2e.ui import LiveServer, NewPage, Shot, log_in


def house_rules(page: Page) -> Locator:
    """The form's house-rules choice for the game chosen (the other game's is hidden)."""
    return page.locator("#create-table").get_by_label("House rules").filter(visible=True)


def open_bourre_table(page: Page, base: str, name: str, rules: str) -> int:
    """As an admin, from the lobby's form: a Bourré table with these house rules."""
    page.goto(f"{base}/lobby")
    form = page.locator("#create-table")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Bourré", exact=True).check()
    house_rules(page).select_option(label=rules)
    form.get_by_label("Turn timer (s)").fill("300")
    return submit(page)


def submit(page: Page) -> int:
    """Open the table; the page goes to it (else the form's error is the failure)."""
    page.locator("#create-table").get_by_role("button", name="Open the table").click()
    try:
        expect(page).to_have_url(re.compile(r"/tables/\d+$"))
    except AssertionError:
        problem = page.locator("#create-error").inner_text()
        raise AssertionError(f"the table did not open: {problem}") from None
    return int(page.url.rsplit("/", 1)[1])


def test_a_pot_limit_table_opens_from_the_lobby(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    page = new_page()
    log_in(page, base, live_server.owner_username, live_server.owner_password)
    page.goto(f"{base}/lobby")
    form = page.locator("#create-table")
    limit = form.get_by_label("Pot limit", exact=True)
    expect(limit).to_be_hidden()  # asked for only with the pot-limit house rules
    form.get_by_label("Name").fill("Capped")
    house_rules(page).select_option(label="Pot limit")
    expect(limit).to_be_visible()
    limit.fill("40")
    # The table's own gathering before play (blank would be the club's setting).
    form.get_by_label("Gathering before play (s)").fill("20")
    shot(page, "lobby-pot-limit")
    table_id = submit(page)
    opened = page.request.get(f"{base}/api/tables/{table_id}").json()
    assert opened["gathering_seconds"] == 20
    page.goto(f"{base}/lobby")
    expect(table_row(page, table_id)).to_contain_text("pot limit 40")
    # Another choice hides the field again, and it is not sent.
    house_rules(page).select_option(label="Friendly")
    expect(limit).to_be_hidden()


def test_every_house_rule_choice_of_the_form_is_a_valid_table(
    live_server: LiveServer, new_page: NewPage
) -> None:
    """The forbidden pairs (bourre.md §4, §5) cannot be chosen together: the form's house
    rules are one preset at a time, none of which holds a forbidden pair, so each one opens
    a table."""
    base = live_server.base_url
    page = new_page()
    log_in(page, base, live_server.owner_username, live_server.owner_password)
    page.goto(f"{base}/lobby")
    choices = house_rules(page)
    assert choices.evaluate("select => select.multiple") is False
    labels = [label.strip() for label in choices.locator("option").all_inner_texts()]
    assert "Pot limit" in labels and len(labels) == len(set(labels))
    for label in labels:
        table_id = open_bourre_table(page, base, f"Rules {label}"[:60], label)
        assert table_id > 0
