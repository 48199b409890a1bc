"""The last hand's result stays readable for the whole pause before the next deal, until
the player closes it or the next hand's cards are dealt; "Last hand" in the table's bar
(in its menu on a phone) opens it again, in the next hand too. On a phone its rows, its
points line and its countdown lie inside the window and nothing covers them."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import (
    DEAL_TIMEOUT_MS,
    ROW_UNCOVERED,
    expect_readable,
    play_out_bourre_hand,
    seat_players,
    table_option,
    to_act,
)
from tests.e2e.ui import LiveServer, NewPage, Shot

NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"
# The result of a full table: its rows of players eight times over.
LONGER = """el => {
    const rows = el.querySelector('.result-players');
    for (const row of [...rows.children]) {
        for (let n = 0; n < 3; n += 1) rows.append(row.cloneNode(true));
    }
}"""


def test_the_result_stays_until_closed_or_needed_and_reopens(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bourre", names=["Ada", "Ben", "Cleo"], buy_in=100
    )
    pages = [p for p, _, _ in players]
    laptop, phone = pages[0], pages[-1]
    play_out_bourre_hand(pages)
    for page in pages:
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result h2")).to_have_text("Hand 1")
    # Read within the pause before the next deal (the laptop's first: the next hand's
    # cards take the space there), the pictures after.
    expect_readable(laptop, laptop.locator("#result .result-players li"))
    # On the phone: every row of the result, the next-pot line and the countdown whole,
    # inside the window, uncovered; nothing wider than the screen.
    result = phone.locator("#result")
    expect(result.locator("#next-hand")).to_contain_text("Next hand in")
    expect(result).not_to_contain_text("null")
    expect_readable(phone, result.locator(".result-players li"))
    expect_readable(phone, result.get_by_test_id("carry").locator(".."))
    expect_readable(phone, result.locator("#next-hand"))
    assert phone.evaluate(NO_SIDEWAYS)
    shot(laptop, "result-laptop")
    shot(phone, "result-phone")

    # The laptop's player closes it: it stays closed while the others read on.
    laptop.get_by_role("button", name="Close the result").click()
    expect(laptop.locator("#result")).to_be_hidden()
    # It stays for the whole pause before the next deal, readable to its last seconds.
    expect(phone.locator("#next-hand")).to_have_text("Next hand in 2 s", timeout=DEAL_TIMEOUT_MS)
    expect_readable(phone, result.locator(".result-players li").first)
    expect(pages[1].locator("#result")).to_be_visible()
    expect(laptop.locator("#result")).to_be_hidden()

    # The next hand's cards are dealt: the result makes room for them.
    for page in pages:
        expect(page.locator("#hand-info")).to_contain_text("Hand 2", timeout=DEAL_TIMEOUT_MS)
        expect(page.locator("#result")).to_be_hidden()
    first = to_act(pages)
    assert first is not None
    waiting = [p for p in pages if p is not first]

    # "Last hand" opens it again in the middle of the next hand (no countdown then); on a
    # phone it is in the table's menu (which folds as the result opens).
    reader = waiting[-1]
    last = reader.locator("#last-hand")
    expect(last).to_have_attribute("aria-expanded", "false")
    table_option(reader, "button", "Last hand").click()
    expect(reader.locator("#result")).to_be_visible()
    expect(reader.locator("#result h2")).to_have_text("Hand 1")
    expect(reader.locator("#next-hand")).to_have_text("")
    expect(last).to_have_attribute("aria-expanded", "true")
    expect_readable(reader, reader.locator("#result .result-players li"))
    shot(reader, "result-reopened")
    # Its close button puts it away; "Last hand" toggles it too.
    reader.get_by_role("button", name="Close the result").click()
    expect(reader.locator("#result")).to_be_hidden()
    expect(last).to_have_attribute("aria-expanded", "false")
    table_option(reader, "button", "Last hand").click()
    expect(reader.locator("#result")).to_be_visible()
    table_option(reader, "button", "Last hand").click()
    expect(reader.locator("#result")).to_be_hidden()

    # The player who acted first can reopen it too, and it is the same result.
    table_option(first, "button", "Last hand").click()
    expect(first.locator("#result h2")).to_have_text("Hand 1")
    assert first.evaluate(NO_SIDEWAYS)

    # However long the result (eight players, bonuses...), the panel fits the window and
    # scrolls inside; its link to the hand stays in sight (the countdown, when there is
    # one, beside it, not over it), and each row scrolled to is uncovered.
    for page in pages:
        panel = page.locator("#result")
        if panel.is_hidden():
            table_option(page, "button", "Last hand").click()
        panel.evaluate(LONGER)
        panel.scroll_into_view_if_needed()  # the page may be scrolled to the player's turn
        expect(panel).to_be_in_viewport(ratio=1)
        assert panel.evaluate("el => el.scrollHeight > el.clientHeight"), "nothing to scroll"
        link = panel.get_by_role("link", name="Open this hand")
        assert link.evaluate(ROW_UNCOVERED), f"the link is covered {page.viewport_size}"
        expect_readable(page, panel.locator(".result-players li"))


def test_a_reloaded_page_reopens_the_last_hand_from_its_history(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bourre", names=["Dot", "Eli", "Fay"], buy_in=100
    )
    pages = [p for p, _, _ in players]
    play_out_bourre_hand(pages)
    phone: Page = pages[-1]
    expect(phone.locator("#hand-info")).to_contain_text("Hand 2", timeout=DEAL_TIMEOUT_MS)
    phone.reload()
    expect(phone.locator("#connection")).to_have_text("Connected")
    expect(phone.locator("#result")).to_be_hidden()
    table_option(phone, "button", "Last hand").click()
    expect(phone.locator("#result h2")).to_have_text("Hand 1")
    expect(phone.locator("#result .result-players li").first).to_be_visible()
