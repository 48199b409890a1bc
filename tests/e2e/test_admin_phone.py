"""The admin dashboard on a phone: nothing wider than the screen, every member action
reachable, and the navigation names the dashboard once."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

from tests.e2e.ui import PHONE, LiveServer, NewPage, Shot, log_in, member_row, open_admin, register


def test_the_admin_page_fits_a_phone(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    member = new_page()
    username = f"phoebe{secrets.token_hex(3)}"
    register(member, base, username, "correct horse battery", "Phoebe Longname-Ferrandière")
    page = new_page(PHONE)
    log_in(page, base, live_server.owner_username, live_server.owner_password)
    open_admin(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "window.innerWidth"
    ), "the admin page is wider than the phone"
    row = member_row(page, username)
    for button in row.get_by_role("button").all():
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
        assert box["height"] >= 44, "tap targets are at least 44 px high"
    nav = page.locator("header.topbar nav")
    expect(nav.get_by_role("link", name="Admin", exact=True)).to_have_count(1)
    assert "admin" not in page.locator("header.topbar .brand").inner_text().lower()
    shot(page, "admin-phone")
