"""Keyboard shortcuts at the table: a key presses the button it names (shown on the button
as its tooltip and aria-keyshortcuts), `?` lists them in a dialog that Escape closes, and
no key acts while the player types in the chat or while a dialog is open."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.table_ui import acting, press, seat_players, version
from tests.e2e.ui import LiveServer, NewPage, Shot


def test_shortcuts_play_pass_and_draw(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bourre", names=["Pia", "Quin", "Rex"], buy_in=100
    )
    pages = [p for p, _, _ in players]
    phone = pages[-1]
    # A phone has no keyboard to speak of: no "Keys" button there.
    expect(phone.get_by_role("button", name="Keys")).to_be_hidden()

    page = acting(pages)
    while page is phone:  # the phone's player taps
        phone.locator("#controls").get_by_role("button", name="Play", exact=True).click()
        page = acting(pages)
    play = page.locator("#controls").get_by_role("button", name="Play", exact=True)
    expect(play).to_have_attribute("aria-keyshortcuts", "P")
    expect(play).to_have_attribute("title", "Shortcut: P")
    expect(page.locator("#controls").get_by_role("button", name="Pass")).to_have_attribute(
        "aria-keyshortcuts", "X"
    )
    before = version(page)
    # Typing in the chat is typing, not playing.
    chat = page.get_by_label("Chat message")
    chat.click()
    page.keyboard.type("px")
    expect(chat).to_have_value("px")
    chat.fill("")
    chat.blur()
    # `?` lists the shortcuts; keys do nothing while the list is open; Escape closes it.
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Play the hand")
    expect(dialog).to_contain_text("Confirm the draw")
    shot(page, "shortcuts-overlay")
    page.keyboard.press("p")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert version(page) == before, "a key acted while the list was open or the chat typed"
    expect(play).to_be_visible()
    # P plays, as the button does.
    press(page, "p")
    expect(page.locator("#prompt")).not_to_have_class("prompt prompt--turn")

    # The others come in by keyboard (the phone by tapping), then the draw: E confirms.
    for _ in range(10):
        page = acting(pages)
        controls = page.locator("#controls")
        if controls.get_by_role("button", name="Play", exact=True).count():
            if page is phone:
                controls.get_by_role("button", name="Play", exact=True).click()
            else:
                press(page, "p")
            continue
        keep = controls.get_by_role("button", name="Keep all")
        if keep.count() and page is not phone:
            expect(keep).to_have_attribute("aria-keyshortcuts", "E")
            held = page.locator("#my-hand span.card").count()
            press(page, "e")
            expect(page.locator("#my-hand span.card")).to_have_count(held)
            break
        if keep.count():
            keep.click()
            continue
        break
    else:
        raise AssertionError("no laptop player was asked to draw")
