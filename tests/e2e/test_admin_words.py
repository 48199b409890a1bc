"""What the admin, treasury, account and lobby pages say is words, not the records' codes,
and every time is in the reader's own time zone, named."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from playwright.sync_api import Page, expect

from tests.e2e.admin_scene import club_with_history
from tests.e2e.table_ui import PASSWORD
from tests.e2e.ui import LiveServer, NewPage, Shot, log_in

ZONE = "Europe/Paris"
# The codes the records keep (ledger kinds, games, settings, Python's own words).
RAW_CODE = re.compile(
    r"\b(cash_out|top_up|buy_in|pot_return|stranded_return|chip_request|settlement|bourre"
    r"|bouillotte|signup_requires_approval|members_may_create_tables|default_turn_seconds"
    r"|seed_reveal|chip_unit|bot_fill|operation_id|max_uses|True|False)\b"
)
ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
ONE_CHIPS = re.compile(r"(?<![\d.,\u202f])1 chips\b")


def in_paris(page: Page) -> None:
    """The page's reader lives in Paris and reads British English (before it loads)."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setTimezoneOverride", {"timezoneId": ZONE})
    session.send("Emulation.setLocaleOverride", {"locale": "en-GB"})


def read(page: Page, url: str) -> str:
    """The page's visible text, once its scripts have run; no code, no raw time in it."""
    page.goto(url)
    page.wait_for_load_state("networkidle")
    text = page.evaluate("document.body.innerText")
    assert isinstance(text, str)
    for pattern in (RAW_CODE, ISO_TIME, ONE_CHIPS):
        found = pattern.search(text)
        around = text[max(0, found.start() - 60) : found.end() + 60] if found else ""
        assert found is None, f"{url} shows {found.group(0)!r}: …{around}…"
    return text


def times_are_local(page: Page) -> int:
    """Every time on the page is in Paris time, with its zone named; how many there are."""
    shown: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll('time[datetime]')]
            .map((el) => ({at: el.getAttribute('datetime'), text: el.textContent}))"""
    )
    for time in shown:
        local = datetime.fromisoformat(time["at"]).astimezone(ZoneInfo(ZONE))
        for part in (str(local.day), f"{local:%H:%M}", str(local.tzname())):
            assert part in time["text"], f"{time} is not {local} in {ZONE}"
    return len(shown)


def test_every_page_speaks_words_and_local_times(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    scene = club_with_history(live_server, new_page)
    admin = new_page()
    in_paris(admin)
    log_in(admin, base, live_server.owner_username, live_server.owner_password)
    timed = 0
    for path in (
        "/admin",
        "/admin/ledger",
        "/admin/sessions",
        "/admin/chip-requests",
        "/admin/log",
        f"/admin/members/{scene.member_id}",
        f"/admin/tables/{scene.table_id}",
        "/admin/rules",
    ):
        read(admin, f"{base}{path}")
        timed += times_are_local(admin)
    assert timed > 10

    ledger = read(admin, f"{base}/admin/ledger")
    for kind in ("Cash-out", "Top-up", "Buy-in", "Grant", "Chip request granted"):
        assert kind in ledger
    log = read(admin, f"{base}/admin/log?action=club.settings")
    assert re.search(r"Sign-up needs approval: (on → off|off → on)", log), log
    assert "CET" in log or "CEST" in log
    shot(admin, "admin-log-words")
    sessions = read(admin, f"{base}/admin/sessions")
    assert "Bourré" in sessions

    member = new_page()
    in_paris(member)
    log_in(member, base, scene.member_username, PASSWORD)
    account = read(member, f"{base}/account")
    assert times_are_local(member) >= 3
    assert "1 chip " in account or "1 chip\n" in account, account
    for kind in ("Cash-out", "Top-up", "Buy-in"):
        assert kind in account
    shot(member, "account-words")
    member.goto(f"{base}/lobby")
    expect(member.locator("#table-list li").first).to_be_visible()
    read(member, f"{base}/lobby")
