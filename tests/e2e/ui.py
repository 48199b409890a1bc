"""Drive Salon through the browser only, as a person would: open pages, type, click.

The helpers assert the outcome a person would see (the next page, the notice), so a broken
form fails where it broke rather than in a later step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect


@dataclass(frozen=True, slots=True)
class Screen:
    """A browser window: its viewport, and whether it is a touch phone."""

    width: int
    height: int
    mobile: bool = False


DESKTOP = Screen(1440, 900)
PHONE = Screen(375, 667, mobile=True)


@dataclass(frozen=True, slots=True)
class LiveServer:
    """A running `salon serve` and the club owner's login."""

    base_url: str
    owner_username: str
    owner_password: str
    # Its data directory, which holds its SQLite database.
    data_dir: Path


class NewPage(Protocol):
    """Open a page in a fresh browser context (its own cookies: one person); `locale`: the
    language the browser asks for (e.g. "fa-IR"), else Chromium's own."""

    def __call__(self, viewport: Screen = DESKTOP, *, locale: str | None = None) -> Page: ...


class Shot(Protocol):
    """Save a screenshot of the whole page (`full_page=False`: of the window, the first
    screen as a person sees it) as var/screenshots/<name>.png; return its path."""

    def __call__(self, page: Page, name: str, *, full_page: bool = True) -> Path: ...


def register(page: Page, base: str, username: str, password: str, display_name: str) -> bool:
    """Join the club through /register. True when the membership awaits an admin's approval,
    False when the new member was let in at once (and is logged in)."""
    page.goto(f"{base}/register")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Display name", exact=True).fill(display_name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Join", exact=True).click()
    # Either the welcome page of a membership waiting for approval, or logged in at once.
    waiting = page.get_by_role("heading", name=f"Welcome, {display_name}", exact=True)
    expect(waiting.or_(logged_in(page))).to_be_visible()
    if not waiting.is_visible():
        return False
    expect(page.get_by_text("waiting for an admin's approval")).to_be_visible()
    return True


def logged_in(page: Page) -> Locator:
    """What shows that the page is a member's: the top bar's log-out button."""
    return page.get_by_role("button", name="Log out", exact=True)


def log_in(page: Page, base: str, username: str, password: str) -> None:
    """Log in through /login; the member lands on a page of theirs, logged in."""
    page.goto(f"{base}/login")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(logged_in(page)).to_be_visible()
    expect(page).not_to_have_url(f"{base}/login")


def open_admin(page: Page) -> None:
    """Open the admin dashboard from the top bar (the page must be an admin's; at a table
    on a phone, from the table's menu)."""
    open_menu(page)
    page.get_by_role("link", name="Admin", exact=True).click()
    expect(page.get_by_role("heading", name="Club admin", level=1)).to_be_visible()


def member_row(page: Page, username: str) -> Locator:
    """The admin dashboard's row for one member."""
    rows = page.get_by_test_id("members").get_by_role("row")
    return rows.filter(has_text=re.compile(f"@{re.escape(username)} ·"))


def approve(page: Page, username: str) -> None:
    """As an admin: approve a member waiting for approval, on the admin dashboard."""
    open_admin(page)
    row = member_row(page, username)
    expect(row).to_contain_text("pending")
    row.get_by_role("button", name="approve", exact=True).click()
    expect(page.get_by_role("status")).to_have_text(f"{username}: active.")
    expect(member_row(page, username)).to_contain_text("active")


def grant_chips(page: Page, username: str, amount: int, reason: str) -> None:
    """As an admin: grant chips from the club's bank to a member, on the admin dashboard."""
    open_admin(page)
    # The select's label also holds the options' text, so it is found by its role's name.
    member = page.get_by_role("combobox", name="Member", exact=True)
    option = member.get_by_role("option").filter(has_text=f"(@{username},")
    member.select_option(label=option.inner_text().strip())
    page.get_by_label("Amount", exact=True).fill(str(amount))
    page.get_by_label("Reason", exact=True).fill(reason)
    page.get_by_role("button", name="Grant", exact=True).click()
    confirm(page, "Grant")
    expect(page.get_by_role("status")).to_have_text(f"Granted {amount} to {username}.")


def confirm(page: Page, answer: str) -> None:
    """Say yes to the question an admin action asks before it is sent (a ban, chips
    granted or taken…): press the dialog's `answer` button."""
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=answer, exact=True).click()


def reveal_each_hand(page: Page) -> None:
    """As the owner: the club reveals a hand's seed as soon as the hand is over. The admin
    dashboard has no form for this setting: the page's own session calls the API."""
    status = page.evaluate(
        """async () => {
            const token = document.querySelector('meta[name="csrf-token"]').content;
            const response = await fetch("/api/admin/club", {
                method: "PATCH",
                headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
                body: JSON.stringify({seed_reveal: "hand"}),
            });
            return response.status;
        }"""
    )
    assert status == 200, status


SERIOUS = {"serious", "critical"}


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (axe ships inside
    axe-playwright-python: nothing is downloaded)."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(node["target"][0]) for node in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


def open_menu(page: Page) -> None:
    """At a table on a phone, open the table's menu (where the table's bar is folded)
    unless it is open; on a laptop the bar is whole, other pages have no menu: nothing to
    do."""
    page.wait_for_load_state("domcontentloaded")  # the page's scripts are listening
    menu = page.get_by_role("button", name="Menu", exact=True)
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")


def fold_menu(page: Page) -> None:
    """On a phone, close the table's menu if it is open (Escape, as a keyboard does)."""
    menu = page.locator("#menu-toggle")  # on a laptop too, where it is not shown
    if menu.get_attribute("aria-expanded") == "true":
        page.keyboard.press("Escape")
        expect(menu).to_have_attribute("aria-expanded", "false")
