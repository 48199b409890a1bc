"""A lost password in a real browser: the owner makes a member's one-time link on the
member's admin page, and the member chooses a new password through it
(docs/lost-passwords.md)."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

from tests.e2e.ui import LiveServer, NewPage, Shot, approve, confirm, log_in, member_row, register

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a passphrase of her own"


def test_the_owner_hands_a_member_a_link_and_she_chooses_a_new_password(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    username = f"lea{secrets.token_hex(3)}"
    member = new_page()
    assert register(member, base, username, PASSWORD, "Léa"), "approval is required"
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    approve(owner, username)

    member_row(owner, username).get_by_role("link", name="Léa", exact=True).click()
    owner.get_by_role("button", name="Password-reset link", exact=True).click()
    confirm(owner, "Make the link")
    link = owner.get_by_test_id("reset-link").input_value()
    assert link.startswith(f"{base}/reset/")
    shot(owner, "admin-password-reset")

    member.goto(link)
    member.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    member.get_by_label("New password again", exact=True).fill(NEW_PASSWORD)
    member.get_by_role("button", name="Set my new password", exact=True).click()
    expect(member.get_by_test_id("reset-done")).to_contain_text("your new password is set")
    shot(member, "password-reset-done")
    log_in(member, base, username, NEW_PASSWORD)

    # The link is spent: opened again, it says so, and offers nothing to fill in.
    member.goto(link)
    expect(member.get_by_role("alert")).to_contain_text("ask an admin of the club for a new one")
    expect(member.get_by_label("New password", exact=True)).to_have_count(0)
