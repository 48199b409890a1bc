"""Keyboard shortcuts at the table: a key presses the button it names (shown on the button
as its tooltip and aria-keyshortcuts), `?` lists them in a dialog that Escape closes, and
no key acts while the player types in the chat or while a dialog is open."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.table_ui import act, acting, press, seat_players, seat_players_with_timer, version
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


FOCUS = """() => {
    const el = document.activeElement;
    return {card: el?.closest("#my-hand button")?.dataset.card ?? null,
            legal: Boolean(el?.classList.contains("is-legal")), hand: el?.id === "my-hand"};
}"""


def test_h_goes_to_the_cards_and_a_timed_out_card_leaves_no_enter_behind(
    live_server: LiveServer, new_page: NewPage
) -> None:
    """`H` puts the keyboard on the first card the player may play (no tabbing through the
    whole page). When the turn timer plays for a player whose keyboard rested on a card, the
    focus leaves the cards: the next Enter, on the player's next turn, plays nothing; `H`
    then Enter plays."""
    players = seat_players_with_timer(
        live_server,
        new_page,
        game="bourre",
        names=["Una", "Vic", "Wes"],
        buy_in=100,
        turn_seconds=5,
    )
    pages = [p for p, _, _ in players]
    keyboard = pages[0]
    timed_out = tried_enter = False
    for _ in range(60):
        page = acting(pages)
        controls = page.locator("#controls")
        legal = page.locator("#my-hand button.is-legal")
        if controls.get_by_role("button", name="Play", exact=True).count():
            act(page, controls.get_by_role("button", name="Play", exact=True))
        elif controls.get_by_role("button", name="Keep all").count():
            act(page, controls.get_by_role("button", name="Keep all"))
        elif page is not keyboard:
            act(page, legal.first if legal.count() else controls.locator("button").first)
        elif not timed_out:
            held = keyboard.locator("#my-hand button").count()
            keyboard.keyboard.press("h")
            focus = keyboard.evaluate(FOCUS)
            assert focus["card"] and focus["legal"], focus
            # The player waits; the timer plays a card for them.
            expect(keyboard.locator("#my-hand button")).to_have_count(held - 1, timeout=15_000)
            focus = keyboard.evaluate(FOCUS)
            assert focus["card"] is None and focus["hand"], focus
            timed_out = True
        else:
            held = keyboard.locator("#my-hand button").count()
            before = version(keyboard)
            keyboard.keyboard.press("Enter")
            keyboard.wait_for_timeout(700)
            assert version(keyboard) == before, "Enter played a card nobody chose"
            expect(keyboard.locator("#my-hand button")).to_have_count(held)
            keyboard.keyboard.press("h")
            assert keyboard.evaluate(FOCUS)["legal"]
            press(keyboard, "Enter")
            expect(keyboard.locator("#my-hand button")).to_have_count(held - 1)
            tried_enter = True
            break
    assert timed_out and tried_enter
