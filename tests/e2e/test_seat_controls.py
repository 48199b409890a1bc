"""The seat controls on the table's bar, between hands: top up, sit out and come back,
stand up (the stack goes back to the balance) — each seen from the other players too."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.e2e.table_ui import join_from_lobby, member_at_table, open_paused_table, stack_of
from tests.e2e.ui import NewPage, Shot, log_in
from tests.live import RestartableServer, demo_password


def lobby_balance(page: Page, base: str) -> Locator:
    page.goto(f"{base}/lobby")
    return page.get_by_test_id("lobby-balance")


def test_top_up_sit_out_and_stand_up_from_the_table(
    demo_server: RestartableServer, new_page: NewPage, shot: Shot
) -> None:
    base = f"http://{demo_server.host}"
    env = demo_server.env
    owner = new_page()
    log_in(owner, base, "admin", demo_password(env, "admin"))
    # Paused: no hand is dealt, so seats change freely.
    table_id = open_paused_table(owner, base, name="Quiet table", game="bourre", seats=3)
    alice, bob = new_page(), new_page()
    for page, name in ((alice, "alice"), (bob, "bob")):
        member_at_table(page, base, name, demo_password(env, "member"))
        join_from_lobby(page, base, table_id, 100, 1000)
    expect(alice.locator("#prompt")).to_have_text("The table is paused.")

    # Top up: the chooser offers up to the table's largest buy-in minus the stack.
    alice.get_by_role("button", name="Top up").click()
    dialog = alice.get_by_role("dialog")
    expect(dialog.get_by_label("Amount", exact=True)).to_have_attribute("max", "400")
    dialog.get_by_label("Amount", exact=True).fill("50")
    dialog.get_by_role("button", name="Top up").click()
    for page in (alice, bob, owner):
        expect(page.locator(".seat", has_text="Alice").get_by_test_id("stack")).to_have_text("150")
    assert stack_of(bob, "Alice") == 150

    # Sit out and come back: the button says which, everyone sees the tag.
    alice.get_by_role("button", name="Sit out").click()
    expect(alice.get_by_role("button", name="Come back")).to_be_visible()
    expect(bob.locator(".seat", has_text="Alice").locator(".tag")).to_contain_text(["Sitting out"])
    alice.get_by_role("button", name="Come back").click()
    expect(alice.get_by_role("button", name="Sit out")).to_be_visible()
    expect(
        bob.locator(".seat", has_text="Alice").locator(".tag", has_text="Sitting out")
    ).to_have_count(0)

    # Stand up (after confirming): Bob watches again and his chips are back in his balance.
    bob.once("dialog", lambda d: d.accept())
    bob.get_by_role("button", name="Stand up").click()
    expect(bob.locator("#prompt")).to_contain_text("You are watching")
    expect(bob.get_by_role("button", name="Sit here")).to_have_count(2)
    expect(alice.locator(".seat--empty")).to_have_count(2)
    shot(alice, "table-seat-controls")
    expect(lobby_balance(bob, base)).to_have_text("1\u202f000")
    expect(lobby_balance(alice, base)).to_have_text("850")
