"""The treasurer's views in a browser, on a laptop and a phone: a member asks for chips on
their account page, an admin approves it, the member sees the answer; the admin reads the
ledger filtered to that member, the sessions page and their CSV exports; no page is wider
than the screen."""

from __future__ import annotations

import csv
import io
import secrets

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.ui import (
    DESKTOP,
    PHONE,
    LiveServer,
    NewPage,
    Screen,
    Shot,
    approve,
    confirm,
    log_in,
    open_admin,
    register,
    serious_violations,
)

PASSWORD = "correct horse battery"


def fits(page: Page) -> None:
    """No wider than the screen, and nothing axe-core finds serious."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth"), f"{page.url} is wider than the screen"
    assert serious_violations(page) == [], page.url


def call_api(page: Page, method: str, path: str, body: object) -> dict[str, object]:
    """What the page's own script would send, with the page's session and CSRF token."""
    answer: dict[str, object] = page.evaluate(
        """async ([method, path, body]) => {
            const token = document.querySelector('meta[name="csrf-token"]').content;
            const response = await fetch(path, {
                method,
                headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
                body: JSON.stringify(body),
            });
            return {status: response.status, body: await response.json()};
        }""",
        [method, path, body],
    )
    return answer


def choose(page: Page, label: str, username: str) -> None:
    select = page.get_by_role("combobox", name=label, exact=True)
    option = select.get_by_role("option").filter(has_text=f"(@{username})")
    select.select_option(label=option.inner_text().strip())


def whole_on_a_phone(movements: Locator, screen: Screen) -> None:
    """Each movement is a card: its table does not scroll sideways, and who paid whom is
    inside the screen and not cut."""
    region = movements.locator("xpath=..")
    assert region.evaluate("r => r.scrollWidth <= r.clientWidth"), "the movements scroll"
    cells = movements.locator("td.move")
    assert cells.count() > 0
    for cell in cells.all():
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= screen.width
        assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), cell.inner_text()


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["laptop", "phone"])
def test_chip_request_ledger_and_sessions(
    live_server: LiveServer, new_page: NewPage, shot: Shot, screen: Screen
) -> None:
    base = live_server.base_url
    name = "phone" if screen.mobile else "laptop"
    username = f"tess{secrets.token_hex(3)}"
    display = f"Tess {name.capitalize()}"
    member = new_page(screen)
    admin = new_page(screen)
    log_in(admin, base, live_server.owner_username, live_server.owner_password)
    if register(member, base, username, PASSWORD, display):
        approve(admin, username)
    log_in(member, base, username, PASSWORD)

    # The member asks for chips on their account page.
    member.goto(f"{base}/account")
    member.get_by_label("Amount", exact=True).fill("120")
    member.get_by_label("Note for the admins", exact=True).fill("For Friday's game")
    member.get_by_role("button", name="Ask the club", exact=True).click()
    mine = member.get_by_test_id("my-chip-requests")
    expect(mine).to_contain_text("waiting for an admin")
    fits(member)

    # The admin sees it waiting on the dashboard and approves it with a note.
    open_admin(admin)
    fits(admin)
    shot(admin, f"treasury-dashboard-{name}")
    admin.get_by_test_id("pending-chip-requests").click()
    row = admin.get_by_test_id("pending-requests").get_by_role("row").filter(has_text=display)
    row.get_by_role("textbox").fill("Enjoy")
    row.get_by_role("button", name="Approve", exact=True).click()
    confirm(admin, "Approve")
    expect(admin.get_by_role("status")).to_contain_text(f"from {display} for 120 approved")
    fits(admin)
    shot(admin, f"treasury-requests-{name}")

    # The member sees the answer and the chips.
    member.reload()
    expect(mine).to_contain_text("approved by owner: “Enjoy”")
    expect(member.get_by_test_id("balance")).to_have_text("120")
    shot(member, f"treasury-account-{name}")

    # A sitting: the admin opens a table, the member sits with 40 and stands up.
    table = call_api(
        admin,
        "POST",
        "/api/tables",
        {
            "name": f"Cajun {name}",
            "game": "bourre",
            "seat_count": 4,
            "buy_in_min": 20,
            "buy_in_max": 200,
        },
    )
    assert table["status"] == 201, table
    table_id = table["body"]["id"]  # type: ignore[index]
    sat = call_api(
        member,
        "POST",
        f"/api/tables/{table_id}/seat",
        {"buy_in": 40, "request_key": secrets.token_hex(8)},
    )
    assert sat["status"] == 200, sat
    stood = call_api(member, "POST", f"/api/tables/{table_id}/stand", {})
    assert stood["status"] == 200, stood

    # The ledger, filtered to the member, in names.
    admin.goto(f"{base}/admin")
    admin.get_by_test_id("overview").get_by_role("link", name="Ledger", exact=True).click()
    choose(admin, "Member", username)
    admin.get_by_role("button", name="Filter", exact=True).click()
    lines = admin.get_by_test_id("ledger-lines")
    expect(admin.get_by_test_id("ledger-total")).to_have_text("3 movements")
    expect(lines).to_contain_text(f"Club bank → {display}")
    expect(lines).to_contain_text(f"{display} → {display}'s stack at 'Cajun {name}'")
    fits(admin)
    if screen.mobile:
        whole_on_a_phone(lines, screen)
    shot(admin, f"treasury-ledger-{name}")
    csv_link = admin.get_by_test_id("ledger-csv")
    exported = admin.request.get(f"{base}{csv_link.get_attribute('href')}")
    rows = list(csv.DictReader(io.StringIO(exported.text())))
    assert sorted((r["kind"], int(r["amount"])) for r in rows) == [
        ("buy_in", 40),
        ("cash_out", 40),
        ("chip_request", 120),
    ]

    # The sessions page, filtered to the member, and its CSV.
    admin.get_by_role("link", name="Sessions", exact=True).click()
    choose(admin, "Member", username)
    admin.get_by_role("button", name="Filter", exact=True).click()
    sittings = admin.get_by_test_id("sittings")
    expect(sittings).to_contain_text(f"Cajun {name}")
    expect(sittings.locator("tbody tr")).to_have_count(1)
    fits(admin)
    shot(admin, f"treasury-sessions-{name}")
    sessions_csv = admin.get_by_test_id("sessions-csv")
    expect(sessions_csv).to_be_visible()
    exported = admin.request.get(f"{base}{sessions_csv.get_attribute('href')}")
    (sitting,) = list(csv.DictReader(io.StringIO(exported.text())))
    assert (sitting["member"], sitting["bought_in"], sitting["cashed_out"], sitting["net"]) == (
        display,
        "40",
        "40",
        "0",
    )

    # The member's page.
    sittings.get_by_role("link", name=display).click()
    expect(admin.get_by_test_id("member-balance")).to_have_text("120")
    fits(admin)
    shot(admin, f"treasury-member-{name}")
