"""The table page rides out a server restart: it says it is reconnecting, comes back by
itself, catches up from its last version and the same hand goes on."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.table_ui import (
    act,
    acting,
    alice_and_bob_dealt_in,
    my_cards,
    open_paused_table,
)
from tests.e2e.ui import NewPage, Shot, fold_menu, log_in, open_menu
from tests.live import RestartableServer, demo_password


def test_the_table_reconnects_and_resumes_after_a_server_restart(
    demo_server: RestartableServer,
    new_page: NewPage,
    shot: Shot,
    expected_console: list[re.Pattern[str]],
) -> None:
    base = f"http://{demo_server.host}"
    env = demo_server.env
    owner = new_page()
    log_in(owner, base, "admin", demo_password(env, "admin"))
    table_id = open_paused_table(owner, base, name="Late game", game="bourre", seats=2)
    pages = alice_and_bob_dealt_in(new_page, base, owner, table_id, demo_password(env, "member"))
    before = [sorted(my_cards(page)) for page in pages]
    assert all(len(cards) == 5 for cards in before)

    # The pages try the socket again while nobody answers: Chromium logs each refusal.
    expected_console.append(re.compile(r"WebSocket connection to .* failed"))
    demo_server.kill()
    for page in pages:
        expect(page.locator("#connection")).to_have_text("Reconnecting…")
        # Said where the player looks (over their cards, on the phone too), with the retry.
        banner = page.locator("#offline-banner")
        expect(banner).to_be_visible()
        expect(banner).to_have_text(re.compile(r"Connection lost: trying again (in \d+ s|now)…"))
        banner.scroll_into_view_if_needed()
        expect(banner).to_be_in_viewport(ratio=1)
        below = page.locator("#my-hand").bounding_box()
        box = banner.bounding_box()
        assert box is not None and below is not None and box["y"] < below["y"]
    shot(pages[1], "bourre-reconnecting-phone")
    phone = pages[1]
    # On the phone every option of the table's menu is whole and tappable, and the bar
    # above the felt is one line.
    open_menu(phone)
    for button in phone.locator(".table-menu button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, box
        assert box["height"] >= 44
    expect(phone.locator("#connection")).to_be_visible()
    fold_menu(phone)
    top = phone.locator(".table-bar").bounding_box()
    assert top is not None and top["height"] < 56, top
    demo_server.start()
    for page in pages:
        expect(page.locator("#connection")).to_have_text("Connected", timeout=20_000)
        expect(page.locator("#offline-banner")).to_be_hidden()
        expect(page.locator("#hand-info")).to_contain_text("Hand 1")
    assert [sorted(my_cards(page)) for page in pages] == before
    # Play goes on from where it was: the player to act is asked, and the table moves on.
    page = acting(pages)
    act(page, page.locator("#controls").get_by_role("button", name="Play"))
    shot(page, "bourre-after-restart")
