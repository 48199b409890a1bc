"""Computer players as people meet them: a member practises against bots with the coach's
"Suggest" and "Why not?", and an admin fills a club table with bots, one of which gives its
seat to a person between hands."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.table_ui import (
    act,
    call_api,
    expect_readable,
    expect_usable,
    join_from_lobby,
    member_at_table,
    table_row,
)
from tests.e2e.ui import DESKTOP, PHONE, NewPage, Shot, fold_menu, log_in, open_menu
from tests.live import RestartableServer, demo_password

HAND_TIMEOUT_MS = 30_000


@pytest.fixture
def demo_settings() -> dict[str, str]:
    """The demo club, with bots that think for a tenth of a second."""
    return {
        "SALON_NEXT_HAND_SECONDS": "1",
        "SALON_BOT_THINK_MIN_SECONDS": "0.05",
        "SALON_BOT_THINK_MAX_SECONDS": "0.15",
    }


def my_turn(page: Page, timeout: float = 30) -> bool:
    """Wait until it is this player's turn (True) or the hand's result is shown (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#prompt.prompt--turn").count():
            return True
        if page.locator("#result").is_visible():
            return False
        time.sleep(0.05)
    raise AssertionError(f"neither my turn nor a result: {page.locator('#prompt').inner_text()}")


def follow_suggestion(
    page: Page, snap: Callable[[], object] | None = None, *, phone: bool = False
) -> dict[str, object]:
    """Ask the coach, check what it shows, and play what it says (`snap`: a screenshot
    while the suggestion is shown)."""
    suggest = page.get_by_test_id("suggest")
    if phone:  # a phone's player scrolls down to their cards and controls
        suggest.evaluate("el => el.scrollIntoView({block: 'center'})")
    expect_usable(suggest)  # in the window, enabled, nothing over it
    suggest.click()
    coach = page.locator("#coach")
    expect(coach).to_contain_text("Suggestion")
    expect_readable(page, coach)
    action: dict[str, object] = json.loads(coach.get_attribute("data-action") or "{}")
    kind = action["action"]
    if snap is not None:
        snap()
    if kind == "card":
        card = page.locator(f"#my-hand button[data-card='{action['card']}']")
        # Marked so that a person sees which card: a dashed outline on the card itself.
        style = card.locator("span.card").evaluate("el => getComputedStyle(el).outlineStyle")
        assert style == "dashed"
        act(page, card)
    elif kind == "discard":
        exchanged = list(action["cards"])  # type: ignore[call-overload]
        for name in exchanged:
            page.locator(f"#my-hand button[data-card='{name}']").click()
        confirm = "Exchange" if exchanged else "Keep all"
        act(page, page.locator("#controls button").filter(has_text=confirm).first)
    else:
        act(page, page.locator(f"#controls button[data-action='{kind}']"))
    return action


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["laptop", "phone"])
def test_a_member_practises_a_whole_hand_against_bots_with_the_coach(
    demo_server: RestartableServer, new_page: NewPage, shot: Shot, screen: object
) -> None:
    base = f"http://{demo_server.host}"
    page = new_page(screen)  # type: ignore[arg-type]
    member_at_table(page, base, "alice", demo_password(demo_server.env, "member"))
    expect(page.get_by_test_id("lobby-balance")).not_to_have_text("…")
    balance = page.get_by_test_id("lobby-balance").inner_text()
    form = page.locator("#practice-table")
    form.get_by_label("Bourré").check()
    form.get_by_label("Players, you included").fill("3")
    form.get_by_label("Bots play").select_option("club")
    form.get_by_role("button", name="Start practising").click()
    expect(page.locator(".seat .tag", has_text="Bot")).to_have_count(2)
    open_menu(page)  # on a phone the banner is in the table's menu
    expect(page.get_by_test_id("practice-banner")).to_be_visible()
    fold_menu(page)
    expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=HAND_TIMEOUT_MS)

    why_seen = False
    suggested = 0
    suggest_shot = f"practice-suggest-{'phone' if screen is PHONE else 'laptop'}"
    for _ in range(40):
        if not my_turn(page):
            break
        illegal = page.locator("#my-hand button.is-disabled")
        if not why_seen and illegal.count():
            illegal.first.click(force=True)  # dimmed, yet a person may still click it
            expect(page.locator("#coach")).to_contain_text("Why not?")
            expect_readable(page, page.locator("#coach"))
            why_seen = True
            shot(page, f"practice-why-{'phone' if screen is PHONE else 'laptop'}")
        follow_suggestion(
            page,
            (lambda: shot(page, suggest_shot)) if not suggested else None,
            phone=screen is PHONE,
        )
        suggested += 1
        if screen is PHONE and why_seen:
            return  # the phone's layout is seen; the whole hand is played on the laptop
    expect(page.locator("#result")).to_be_visible(timeout=HAND_TIMEOUT_MS)
    assert suggested >= 1
    shot(page, f"practice-result-{'phone' if screen is PHONE else 'laptop'}")
    # Play money only: the member's balance is what it was.
    page.goto(f"{base}/lobby")
    expect(page.get_by_test_id("lobby-balance")).to_have_text(balance)
    expect(page.locator(".badge-practice")).to_have_count(1)


def test_an_admin_fills_a_table_with_bots_and_a_person_takes_a_bots_seat(
    demo_server: RestartableServer, new_page: NewPage, shot: Shot
) -> None:
    base = f"http://{demo_server.host}"
    env = demo_server.env
    admin = new_page()
    log_in(admin, base, "admin", demo_password(env, "admin"))
    table = call_api(
        admin,
        "POST",
        "/api/tables",
        {
            "name": "Bots welcome",
            "game": "bourre",
            "seat_count": 3,
            "buy_in_min": 50,
            "buy_in_max": 200,
            "turn_seconds": 60,
        },
    )
    table_id = table["id"]
    admin.goto(f"{base}/admin/tables/{table_id}")
    admin.get_by_label("Bots that fill empty seats").select_option("random")
    admin.get_by_test_id("bot-fill-save").click()
    expect(admin.get_by_role("status")).to_contain_text("filled with bots")
    shot(admin, "admin-bot-fill")

    alice, bob = new_page(), new_page()
    member_at_table(alice, base, "alice", demo_password(env, "member"))
    join_from_lobby(alice, base, table_id, 100, 1000)
    expect(alice.locator(".seat .tag", has_text="Bot")).to_have_count(2)
    expect(alice.locator("#hand-info")).to_contain_text("Hand", timeout=HAND_TIMEOUT_MS)

    # Bob finds the table full of bots but may still join: a bot gives way after the hand.
    member_at_table(bob, base, "bob", demo_password(env, "member"))
    row = table_row(bob, table_id)
    expect(row).to_contain_text("3/3 seated")
    row.get_by_role("button", name="Join").click()
    dialog = bob.get_by_role("dialog")
    dialog.get_by_label("Amount", exact=True).fill("100")
    dialog.get_by_role("button", name="Buy in").click()
    expect(bob).to_have_url(f"{base}/tables/{table_id}")
    # Alice plays her hands out; between hands Bob sits where a bot was.
    deadline = time.monotonic() + 60
    while not bob.locator(".seat--me").count():
        assert time.monotonic() < deadline, "Bob was never seated"
        if alice.locator("#prompt.prompt--turn").count():
            controls = alice.locator("#controls")
            legal = alice.locator("#my-hand button.is-legal")
            if legal.count():
                legal.first.click()
            elif controls.get_by_role("button", name="Pass", exact=True).count():
                controls.get_by_role("button", name="Pass", exact=True).click()
            else:
                controls.locator("button:enabled").first.click()
        time.sleep(0.1)
    expect(bob.locator(".seat .tag", has_text="Bot")).to_have_count(1)
    expect(bob.locator(".seat--me .seat-name")).to_have_text("Bob")
    shot(bob, "bot-gave-its-seat")
