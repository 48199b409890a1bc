"""A club evening, as its admin runs it, laptop and phone: house rules made from the form (a
refused pair first), a table opened with them, two members playing a hand under those rules,
a chat line removed, a chip request approved — and all of it found afterwards in the audit
log and the sessions CSV. Every admin page fits the screen."""

from __future__ import annotations

import csv
import io
import re
import secrets

import pytest
from fastapi.routing import APIRoute
from playwright.sync_api import Page, expect

from app.config import Settings
from app.main import create_app
from tests.e2e.table_ui import (
    PASSWORD,
    START,
    act,
    acting,
    call_api,
    join_from_lobby,
    member_at_table,
    to_act,
)
from tests.e2e.test_house_rules import fits, option
from tests.e2e.ui import (
    DESKTOP,
    PHONE,
    LiveServer,
    NewPage,
    Screen,
    Shot,
    approve,
    confirm,
    grant_chips,
    log_in,
    register,
)

BUY_IN = 100


def admin_page_paths() -> list[str]:
    """Every page under /admin, read from the app's own router table."""
    app = create_app(Settings(env="test", secret_key="x" * 40))
    paths = []
    for route in app.routes:
        methods: set[str] = getattr(route, "methods", None) or set()
        if isinstance(route, APIRoute) and "GET" in methods and route.path.startswith("/admin"):
            paths.append(route.path)
    return sorted(paths)


def play_the_hand(pages: list[Page]) -> None:
    """Everyone plays; nobody exchanges (the draw says its cap); then the legal cards."""
    for _ in pages:
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Play"))
    for _ in pages:
        page = acting(pages)
        page.locator("#my-hand button").first.click()
        # The configuration caps the exchange at 3 cards (§4), and the picker says so.
        expect(page.locator("#controls")).to_contain_text("of at most 3 chosen")
        page.locator("#my-hand button").first.click()
        act(page, page.locator("#controls").get_by_role("button", name="Keep all"))
    while (turn := to_act(pages)) is not None:
        held = turn.locator("#my-hand button").count()
        turn.locator("#my-hand button.is-legal").first.click()
        expect(turn.locator("#my-hand button")).to_have_count(held - 1)


def stop_dealing(admin: Page, pages: list[Page], table_id: int) -> None:
    """The admin pauses the table, so that the treasurer's figures read later are read
    between hands: the sessions export counts a hand's antes at the table until the hand is
    settled, while the felt shows them in the pot. A hand dealt before the pause is played
    out (a pause stops only new hands)."""
    call_api(admin, "POST", f"/api/tables/{table_id}/pause")
    if call_api(admin, "GET", f"/api/tables/{table_id}")["hand_in_progress"]:
        play_the_hand(pages)


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["laptop", "phone"])
def test_a_club_evening_is_in_the_audit_log_and_the_sessions(
    live_server: LiveServer, new_page: NewPage, shot: Shot, screen: Screen
) -> None:
    base = live_server.base_url
    device = "phone" if screen.mobile else "laptop"
    tag = secrets.token_hex(2)
    rules_name = f"Evening rules {tag}"
    admin = new_page(screen)
    log_in(admin, base, live_server.owner_username, live_server.owner_password)

    # The house rules: several options off their defaults, a refused pair shown first.
    admin.goto(f"{base}/admin/rules")
    admin.get_by_role("link", name="New Bourré rules").click()
    admin.get_by_label("Name", exact=True).fill(rules_name)
    option(admin, "Ante").fill("2")
    option(admin, "Most cards exchanged").fill("3")
    option(admin, "Trump card").select_option(label="an extra card that belongs to no one")
    option(admin, "Play or pass").select_option(label="committed secretly, all at once")
    option(admin, "Draw when declaring").select_option(label="yes")
    admin.get_by_role("button", name="Create").click()
    expect(admin.get_by_test_id("field-error")).to_have_count(2)
    option(admin, "Play or pass").select_option(label="declared in turn")
    option(admin, "Draw when declaring").select_option(label="no")
    admin.get_by_role("button", name="Create").click()
    expect(admin.get_by_role("status")).to_have_text("Saved.")

    # The table, opened with them.
    admin.get_by_role("link", name="← All house rules").click()
    mine = admin.get_by_test_id("ruleset").filter(has_text=rules_name)
    mine.get_by_text("Open a table with these rules").click()
    opener = mine.get_by_test_id("open-table")
    table_name = f"Evening {tag}"
    opener.get_by_label("Table name").fill(table_name)
    opener.get_by_label("Seats").fill("2")
    opener.get_by_role("button", name="Open the table").click()
    expect(admin).to_have_url(re.compile(r"/tables/\d+$"))
    table_id = int(admin.url.rsplit("/", 1)[1])
    expect(admin.get_by_test_id("table-rules")).to_contain_text("Ante 2 chips")

    # Two members sit down and play a hand under those rules.
    players: list[tuple[Page, str, str]] = []
    for name in ("Odile", "Prosper"):
        page = new_page(screen)
        username = f"{name.lower()}{tag}"
        assert register(page, base, username, PASSWORD, f"{name} {tag}")
        approve(admin, username)
        grant_chips(admin, username, START, "Club night")
        players.append((page, username, f"{name} {tag}"))
    for page, username, _ in players:
        member_at_table(page, base, username, PASSWORD)
        join_from_lobby(page, base, table_id, BUY_IN, START)
    pages = [page for page, _, _ in players]
    for page in pages:
        expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=30_000)
        # Two antes of 2 chips each (the configuration's ante) make the pot.
        expect(page.locator("#centre .pot strong")).to_have_text("4")
    play_the_hand(pages)
    expect(pages[0].locator("#result")).to_be_visible()
    stop_dealing(admin, pages, table_id)
    shot(pages[0], f"evening-result-{device}")

    # A rude line, removed by the admin from the table's admin page.
    rude, rude_username = pages[1], players[1][1]
    rude.get_by_label("Chat message").fill(f"rude words {tag}")
    rude.get_by_role("button", name="Send").click()
    expect(rude.locator("#chat-log").get_by_text(f"rude words {tag}")).to_have_count(1)
    admin.goto(f"{base}/admin/tables/{table_id}")
    said = admin.get_by_test_id("chat-admin").get_by_role("listitem")
    said.filter(has_text=f"rude words {tag}").get_by_role("button", name="remove").click()
    expect(admin.get_by_role("status")).to_contain_text("The line was removed")
    expect(rude.locator("#chat-log li.chat-removed .chat-text")).to_have_text("removed by an admin")

    # A chip request, asked on the account page and approved by the admin.
    asker, asker_username, asker_name = players[0]
    asker.goto(f"{base}/account")
    asker.get_by_label("Amount", exact=True).fill("75")
    asker.get_by_role("button", name="Ask the club", exact=True).click()
    expect(asker.get_by_test_id("my-chip-requests")).to_contain_text("waiting for an admin")
    admin.goto(f"{base}/admin/chip-requests")
    request = (
        admin.get_by_test_id("pending-requests").get_by_role("row").filter(has_text=asker_name)
    )
    request.get_by_role("button", name="Approve", exact=True).click()
    confirm(admin, "Approve")
    expect(admin.get_by_role("status")).to_contain_text("approved")

    # All of it in the audit log, each action under its own filter.
    for action, target in [
        ("rules.create", rules_name),
        ("table.open", table_name),
        ("member.approve", asker_username),
        ("chips.grant", asker_username),
        ("chat.remove", f"{rude_username} at table {table_id}"),
        ("chip_request.approve", asker_username),
    ]:
        admin.goto(f"{base}/admin/log?action={action}")
        rows = admin.get_by_test_id("log").locator("tbody tr").filter(has_text=target)
        expect(rows.first).to_be_visible()
        expect(rows.first).to_contain_text(live_server.owner_username)
    fits(admin)
    shot(admin, f"evening-audit-log-{device}")
    exported = admin.request.get(f"{base}/api/admin/log.csv?action=chip_request.approve")
    assert any(asker_username in line for line in exported.text().splitlines()[1:])

    # The sittings of the evening in the sessions CSV: bought in, still at the table, net.
    admin.goto(f"{base}/admin/sessions")
    sessions_csv = admin.get_by_test_id("sessions-csv").get_attribute("href")
    exported = admin.request.get(f"{base}{sessions_csv}")
    sittings = [
        row for row in csv.DictReader(io.StringIO(exported.text())) if row["table"] == table_name
    ]
    assert sorted(row["member"] for row in sittings) == sorted(n for _, _, n in players)
    stacks = {}
    for row in sittings:
        assert int(row["bought_in"]) == BUY_IN
        assert int(row["net"]) == int(row["cashed_out"]) + int(row["at_table"]) - BUY_IN
        stacks[row["member"]] = int(row["at_table"])
    # What the table shows is what the treasurer's export says is at the table.
    for _, _, name in players:
        shown = rude.locator(".seat").filter(has=rude.locator(".seat-name", has_text=name))
        assert int(shown.get_by_test_id("stack").inner_text().replace("\u202f", "")) == stacks[name]

    # No admin page is wider than the screen.
    member_id = int(admin.request.get(f"{base}/api/admin/members").json()[-1]["id"])
    ruleset_id = int(admin.request.get(f"{base}/api/rulesets").json()[-1]["id"])
    ids = {
        "{member_id}": str(member_id),
        "{table_id}": str(table_id),
        "{ruleset_id}": str(ruleset_id),
        "{game}": "bourre",
        "{key}": "classic_cajun",
    }
    for path in admin_page_paths():
        for placeholder, value in ids.items():
            path = path.replace(placeholder, value)
        assert "{" not in path, f"no example id for {path}"
        response = admin.goto(f"{base}{path}")
        assert response is not None and response.ok, path
        width = admin.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{path} is wider than the {device}: {width}"
