"""The treasurer settles a club night in a browser, on a laptop and a phone: members at a
club table with two house bots, one member's practice table on the side
(tests/club_night_scene.py). The settlement names members and the house only, the bots'
sittings sit in their own section, and the dashboard says once what members hold."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.db.session import Database
from tests.club_night_scene import club_night
from tests.e2e.conftest import DATABASE_FILE, fresh_database
from tests.e2e.test_treasury import fits
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage, Screen, Shot, log_in
from tests.helpers import PASSWORD
from tests.live import running_server, salon_env

LAPTOP = Screen(1280, 800)


def _seed(url: str) -> None:
    """The club night, written before the server starts (in a thread of its own: the
    browser's loop runs in this one)."""

    async def seed() -> None:
        database = Database(url)
        try:
            await club_night(database)
        finally:
            await database.dispose()

    worker = threading.Thread(target=lambda: asyncio.run(seed()))
    worker.start()
    worker.join()


@pytest.fixture(scope="module")
def night_server(
    tmp_path_factory: pytest.TempPathFactory, migrated_database: Path
) -> Iterator[LiveServer]:
    data_dir = tmp_path_factory.mktemp("club-night")
    fresh_database(data_dir, migrated_database)
    _seed(f"sqlite+aiosqlite:///{data_dir / DATABASE_FILE}")
    with running_server(salon_env(data_dir)) as base:
        yield LiveServer(
            base_url=base, owner_username="owner", owner_password=PASSWORD, data_dir=data_dir
        )


def _admin(new_page: NewPage, server: LiveServer, screen: Screen) -> Page:
    page = new_page(screen)
    log_in(page, server.base_url, server.owner_username, server.owner_password)
    return page


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_settlement_names_members_and_the_house_only(
    night_server: LiveServer, new_page: NewPage, shot: Shot, screen: Screen
) -> None:
    page = _admin(new_page, night_server, screen)
    page.goto(f"{night_server.base_url}/admin/sessions")
    transfers = page.get_by_test_id("transfers")
    expect(transfers).to_be_visible()
    said = transfers.inner_text()
    assert "(bot)" not in said and "Table pots" not in said
    assert "The house (club bank)" in said
    members = page.get_by_test_id("sittings")
    expect(members).to_contain_text("Alice")
    assert "(bot)" not in members.inner_text()
    bots = page.get_by_test_id("bot-sittings")
    expect(bots).to_contain_text("(bot)")
    expect(bots).to_contain_text("Lent by the bank")
    house_bots = page.get_by_test_id("house-bots-line")
    house_bots.scroll_into_view_if_needed()
    expect(house_bots).to_be_visible()
    expect(house_bots).to_contain_text("-20")
    fits(page)
    shot(page, f"club-night-settlement-{'phone' if screen.mobile else 'laptop'}")

    page.goto(f"{night_server.base_url}/admin")
    held = page.get_by_test_id("held-by-members")
    held.scroll_into_view_if_needed()
    expect(held).to_have_text("3010")
    expect(page.get_by_test_id("bot-stacks")).to_have_text("300")
    expect(page.get_by_test_id("hands-today")).to_have_text("3")
    expect(page.get_by_test_id("practice-hands-today")).to_contain_text("1 at practice tables")
    assert page.get_by_text("held by members").count() == 1
    fits(page)
    shot(page, f"club-night-dashboard-{'phone' if screen.mobile else 'laptop'}")


def test_my_hands_keeps_practice_under_its_own_filter(
    night_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page(DESKTOP)
    log_in(page, night_server.base_url, "cyd", PASSWORD)
    page.goto(f"{night_server.base_url}/hands")
    rows = page.locator(".hand-row")
    expect(rows).to_have_count(1)
    expect(page.get_by_test_id("practice-hand")).to_have_count(0)
    page.locator("select[name=practice]").select_option(label="Practice tables (play money)")
    page.get_by_role("button", name="Filter", exact=True).click()
    expect(page.get_by_test_id("practice-hand")).to_have_count(1)
    expect(page.locator("#stats-title")).to_contain_text("at practice tables")
    expect(page.locator("#my-hands-csv")).to_have_attribute(
        "href", "/api/hands/mine.csv?practice=true"
    )
