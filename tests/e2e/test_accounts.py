"""Joining the club and receiving chips, in a real browser, as members and owner do it."""

from __future__ import annotations

import secrets

from playwright.sync_api import Page, expect

from tests.e2e.ui import (
    PHONE,
    LiveServer,
    NewPage,
    Shot,
    approve,
    grant_chips,
    log_in,
    member_row,
    register,
)

PASSWORD = "correct horse battery"
WELCOME = "Welcome chips"


def unique(prefix: str) -> str:
    """A username no other test on the same server has taken."""
    return f"{prefix}{secrets.token_hex(3)}"


def owner_page(live_server: LiveServer, new_page: NewPage) -> Page:
    page = new_page()
    log_in(page, live_server.base_url, live_server.owner_username, live_server.owner_password)
    return page


def refused_login(page: Page, base: str, username: str) -> None:
    """A membership waiting for approval cannot log in yet."""
    page.goto(f"{base}/login")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("alert")).to_have_text(
        "Your membership is waiting for an admin's approval."
    )


def expect_welcome_chips(page: Page, base: str) -> None:
    """The member's account page shows a balance of 1000 and the grant on the statement."""
    page.goto(f"{base}/account")
    expect(page.get_by_test_id("balance")).to_have_text("1000")
    grant = page.get_by_role("row").filter(has_text=WELCOME)
    expect(grant).to_have_count(1)
    expect(grant.get_by_role("cell").last).to_have_text("+1000")


def test_three_members_join_and_receive_chips(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    members = [(new_page(), unique(name), name.title()) for name in ("ada", "basile", "cora")]
    for page, username, display_name in members:
        assert register(page, base, username, PASSWORD, display_name), "approval is required"
        refused_login(page, base, username)

    owner = owner_page(live_server, new_page)
    for _, username, _ in members:
        approve(owner, username)
        grant_chips(owner, username, 1000, WELCOME)
    for _, username, _ in members:
        chips_column = member_row(owner, username).get_by_role("cell").nth(3)
        expect(chips_column).to_have_text("1000")
    expect(owner.get_by_test_id("audit")).to_have_text("balanced")
    shot(owner, "admin-dashboard")

    for page, username, _ in members:
        log_in(page, base, username, PASSWORD)
        expect_welcome_chips(page, base)
    first_member_page = members[0][0]
    shot(first_member_page, "account")


def test_a_member_joins_on_a_phone(live_server: LiveServer, new_page: NewPage, shot: Shot) -> None:
    base = live_server.base_url
    phone = new_page(PHONE)
    username = unique("dom")
    assert register(phone, base, username, PASSWORD, "Dominique"), "approval is required"

    owner = owner_page(live_server, new_page)
    approve(owner, username)
    grant_chips(owner, username, 1000, WELCOME)

    log_in(phone, base, username, PASSWORD)
    expect_welcome_chips(phone, base)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE.width, f"the account page is {width}px wide on a {PHONE.width}px phone"
    shot(phone, "account-phone")
