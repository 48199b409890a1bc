"""An admin moderates a table's chat from the dashboard and finds it in the audit log; the
new admin pages fit a phone."""

from __future__ import annotations

import secrets

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import PASSWORD, join_from_lobby, member_at_table, open_paused_table
from tests.e2e.ui import (
    PHONE,
    LiveServer,
    NewPage,
    Shot,
    approve,
    grant_chips,
    log_in,
    open_admin,
    register,
)


def fits(page: Page) -> bool:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    screen: int = page.evaluate("window.innerWidth")
    return width <= screen


def test_an_admin_removes_a_chat_line_and_finds_it_in_the_log(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    member = new_page()
    username = f"rude{secrets.token_hex(3)}"
    assert register(member, base, username, PASSWORD, "Rude Ralph")
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    approve(owner, username)
    grant_chips(owner, username, 500, "Club night")
    table_name = f"Moderated {secrets.token_hex(2)}"
    table_id = open_paused_table(owner, base, name=table_name, game="bourre", seats=3)
    member_at_table(member, base, username, PASSWORD)
    join_from_lobby(member, base, table_id, 100, 500)
    member.get_by_label("Chat message").fill("something rude")
    member.get_by_role("button", name="Send").click()
    line = member.locator("#chat-log li.chat-line").filter(has_text="something rude")
    expect(line).to_have_count(1)

    # From the dashboard to the table's admin page, without sitting there.
    open_admin(owner)
    tables = owner.get_by_test_id("admin-tables")
    tables.get_by_role("listitem").filter(has_text=table_name).get_by_role(
        "link", name="chat and controls"
    ).click()
    expect(owner.get_by_role("heading", name=table_name, level=1)).to_be_visible()
    said = (
        owner.get_by_test_id("chat-admin").get_by_role("listitem").filter(has_text="something rude")
    )
    said.get_by_role("button", name="remove").click()
    expect(owner.get_by_role("status")).to_contain_text("The line was removed")
    expect(said).to_contain_text("removed by @owner")
    shot(owner, "admin-table-chat")

    # The member's page replaced the line at once, and a reload shows the same.
    removed = member.locator("#chat-log li.chat-removed")
    expect(removed.locator(".chat-text")).to_have_text("removed by an admin")
    expect(member.get_by_text("something rude")).to_have_count(0)
    member.reload()
    expect(member.locator("#connection")).to_have_text("Connected")
    expect(member.locator("#chat-log li.chat-removed .chat-text")).to_have_text(
        "removed by an admin"
    )
    expect(member.get_by_text("something rude")).to_have_count(0)
    shot(member, "table-chat-removed")

    # The audit log has it, filtered by its action.
    owner.goto(f"{base}/admin/log")
    owner.get_by_test_id("log-filters").locator("select[name=action]").select_option("chat.remove")
    owner.get_by_role("button", name="Filter").click()
    rows = owner.get_by_test_id("log").locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("something rude")
    expect(rows.first).to_contain_text("@owner")
    shot(owner, "admin-log-laptop")

    # On a phone: the log and the table's admin page fit the screen.
    phone = new_page(PHONE)
    log_in(phone, base, live_server.owner_username, live_server.owner_password)
    for path in ("/admin", "/admin/log", f"/admin/tables/{table_id}"):
        phone.goto(f"{base}{path}")
        assert fits(phone), f"{path} is wider than the phone"
    shot(phone, "admin-table-phone")
    phone.goto(f"{base}/admin/log")
    shot(phone, "admin-log-phone")
