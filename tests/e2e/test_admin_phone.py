"""The admin pages on a phone: nothing wider than the screen, every list a column of cards
with its actions in reach of a thumb, and the actions that cannot be taken back (a ban, a
role change, chips taken) ask first, naming what they do."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.admin_scene import club_with_history, key, sign_up
from tests.e2e.table_ui import PASSWORD, call_api
from tests.e2e.ui import PHONE, LiveServer, NewPage, Shot, log_in, member_row, open_admin, register

# Where a button is, and whether a tap at its centre lands on it (nothing covers it).
REACH = """(button) => {
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return {
        left: box.left, right: box.right, height: box.height,
        hit: hit === button || button.contains(hit),
    };
}"""


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


def test_every_admin_list_is_cards_with_its_actions_in_reach(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    scene = club_with_history(live_server, new_page)
    phone = new_page(PHONE)
    log_in(phone, base, live_server.owner_username, live_server.owner_password)
    pages = {
        "dashboard": "/admin",
        "chip-requests": "/admin/chip-requests",
        "ledger": "/admin/ledger",
        "sessions": "/admin/sessions",
        "log": "/admin/log",
        "member": f"/admin/members/{scene.member_id}",
        "table": f"/admin/tables/{scene.table_id}",
        "rules": "/admin/rules",
    }
    for name, path in pages.items():
        phone.goto(f"{base}{path}")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{path} is {width} px wide on a 375 px phone"
        # No list scrolls sideways inside its card either.
        for region in phone.locator(".table-scroll").all():
            inner: dict[str, int] = region.evaluate(
                "(el) => ({scroll: el.scrollWidth, client: el.clientWidth})"
            )
            assert inner["scroll"] <= inner["client"], f"a list on {path} scrolls sideways"
        buttons = phone.locator("main button:visible").all()
        assert buttons or name == "member", f"{path} shows no action"
        for button in buttons:
            button.scroll_into_view_if_needed()
            where: dict[str, Any] = button.evaluate(REACH)
            words = button.inner_text()
            assert where["left"] >= 0 and where["right"] <= 375, f"{words!r} on {path}: {where}"
            assert where["hit"], f"{words!r} on {path} is covered where it would be tapped"
            assert where["height"] >= 44, f"{words!r} on {path} is too small a tap target"
        shot(phone, f"admin-phone-{name}")
    # The lists are cards: a member's role and status each under its name.
    phone.goto(f"{base}/admin")
    row = member_row(phone, scene.member_username)
    role = row.locator("td[data-label=Role]")
    assert role.evaluate("(el) => getComputedStyle(el, '::before').content") == '"Role "'
    assert phone.get_by_test_id("members").locator("thead").is_hidden()


def member_status(admin: Page, member_id: int) -> str:
    """What the server says of the member now."""
    listed = call_api(admin, "GET", "/api/admin/members")
    return next(str(m["status"]) for m in listed if m["id"] == member_id)


def balance_of(admin: Page, member_id: int) -> int:
    listed = call_api(admin, "GET", "/api/admin/members")
    return next(int(m["balance"]) for m in listed if m["id"] == member_id)


def test_a_ban_asks_first_and_only_a_confirmed_ban_bans(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    member = new_page()
    member_id, username = sign_up(member, base, "Carol Banned")
    call_api(owner, "POST", f"/api/admin/members/{member_id}/approve")
    log_in(member, base, username, PASSWORD)

    phone = new_page(PHONE)
    log_in(phone, base, live_server.owner_username, live_server.owner_password)
    open_admin(phone)
    ban = member_row(phone, username).get_by_role("button", name="ban", exact=True)
    dialog = phone.get_by_role("dialog")

    # A tap asks, naming what a ban does; Cancel sends nothing.
    ban.tap()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(
        "Ban Carol Banned? Carol Banned is logged out at once and cannot log in until unbanned."
    )
    shot(phone, "admin-phone-ban-confirmation")
    dialog.get_by_role("button", name="Cancel").tap()
    expect(dialog).to_be_hidden()
    assert member_status(owner, member_id) == "active"
    # Escape is a cancel too (the dialog is a keyboard's as much as a finger's).
    ban.tap()
    expect(dialog).to_be_visible()
    phone.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert member_status(owner, member_id) == "active"
    member.reload()
    expect(member.get_by_role("button", name="Log out")).to_be_visible()

    # Confirmed, it bans: the member is out at once.
    ban.tap()
    dialog.get_by_role("button", name="Ban Carol Banned").tap()
    expect(phone.get_by_role("status")).to_have_text(f"{username}: banned.")
    assert member_status(owner, member_id) == "banned"
    member.reload()
    expect(member.get_by_role("button", name="Log out")).to_have_count(0)


def test_chips_taken_and_a_role_changed_ask_first(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    member_id, username = sign_up(new_page(), base, "Dora Deducted")
    call_api(owner, "POST", f"/api/admin/members/{member_id}/approve")
    grant = {"member_id": member_id, "amount": 500, "reason": "Club night"}
    call_api(owner, "POST", "/api/admin/chips/grant", {**grant, "idempotency_key": key()})

    phone = new_page(PHONE)
    log_in(phone, base, live_server.owner_username, live_server.owner_password)
    open_admin(phone)
    dialog = phone.get_by_role("dialog")
    chooser = phone.get_by_role("combobox", name="Member", exact=True)
    option = chooser.get_by_role("option").filter(has_text=f"(@{username},")
    chooser.select_option(label=option.inner_text().strip())
    phone.get_by_label("Amount", exact=True).fill("200")
    phone.get_by_label("Reason", exact=True).fill("Left early")
    phone.get_by_role("button", name="Deduct", exact=True).tap()
    expect(dialog).to_contain_text("Take 200 chips from Dora Deducted's balance?")
    shot(phone, "admin-phone-deduct-confirmation")
    dialog.get_by_role("button", name="Cancel").tap()
    expect(dialog).to_be_hidden()
    assert balance_of(owner, member_id) == 500
    phone.get_by_role("button", name="Deduct", exact=True).tap()
    dialog.get_by_role("button", name="Deduct").tap()
    expect(phone.get_by_role("status")).to_have_text(f"Deducted 200 from {username}.")
    assert balance_of(owner, member_id) == 300

    # The owner's role change asks too, saying what an admin may do.
    promote = member_row(phone, username).get_by_role("button", name="make admin", exact=True)
    promote.tap()
    expect(dialog).to_contain_text("Make Dora Deducted an admin?")
    expect(dialog).to_contain_text("ban members, move chips")
    dialog.get_by_role("button", name="Cancel").tap()
    listed = call_api(owner, "GET", "/api/admin/members")
    assert next(m["role"] for m in listed if m["id"] == member_id) == "member"
