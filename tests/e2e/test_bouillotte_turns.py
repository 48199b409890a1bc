"""A Bouillotte turn a person must be offered: the last straddler, level after an opening at
the straddle, still speaks and may raise (rules/bouillotte.md §5, §8, worked sequence 2)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.table_ui import (
    act,
    acting,
    call_api,
    expect_usable,
    join_from_lobby,
    member_at_table,
    open_paused_table,
    result_shown,
    resume,
    to_act,
)
from tests.e2e.ui import NewPage, Shot, log_in
from tests.live import RestartableServer, demo_password


def test_the_straddler_raises_after_a_minimum_opening(
    demo_server: RestartableServer, new_page: NewPage, shot: Shot
) -> None:
    base = f"http://{demo_server.host}"
    env = demo_server.env
    owner = new_page()
    log_in(owner, base, "admin", demo_password(env, "admin"))
    table_id = open_paused_table(owner, base, name="Carre", game="bouillotte", seats=3)
    pages = []
    for name in ("alice", "bob", "carol"):
        page = new_page()
        member_at_table(page, base, name, demo_password(env, "member"))
        join_from_lobby(page, base, table_id, 100, 1000)
        pages.append(page)
    resume(owner)
    # The first hand starts with the seat draw (rules §1, seating: draw), told in the chat.
    for page in pages:
        notice = page.locator("#chat-log").get_by_test_id("notice")
        expect(notice).to_have_text(
            re.compile(r"^Seats drawn: \w+ K, \w+ Q, \w+ J\. \w+ deals first\.$")
        )

    # Antes 1, 1 and 2 (pot 4): the first to speak straddles to 5, the next declines.
    straddler = acting(pages)
    act(straddler, straddler.locator("#controls").get_by_role("button", name="Straddle"))
    page = acting(pages)
    act(page, page.locator("#controls").get_by_role("button", name="Decline"))
    # The next opens at the minimum (the straddle); the dealer folds: two are left, level.
    opener = acting(pages)
    assert opener is not straddler
    expect(opener.locator("#prompt")).to_contain_text("open the betting")
    controls = opener.locator("#controls")
    controls.get_by_role("button", name="Min", exact=True).click()
    expect(controls.locator("button[data-action='open']")).to_have_text("Open to 5 (add 4)")
    act(opener, controls.locator("button[data-action='open']"))
    dealer = acting(pages)
    assert dealer not in (straddler, opener)
    act(dealer, dealer.locator("#controls").get_by_role("button", name="Fold"))

    # The straddler has not spoken yet, so the betting goes on: a free call, a raise or a fold.
    assert acting(pages) is straddler
    expect(straddler.locator("#prompt")).to_have_text(
        "Your turn: you are level. Check (call for free), raise or fold."
    )
    controls = straddler.locator("#controls")
    check = controls.get_by_role("button", name="Check", exact=True)
    raise_to = controls.locator("button[data-action='raise']")
    amount = controls.get_by_label("Raise amount")
    if straddler.viewport_size and straddler.viewport_size["width"] >= 1000:
        straddler.evaluate("window.scrollTo(0, 0)")  # a laptop shows the turn unscrolled
    for control in (check, controls.get_by_role("button", name="Fold"), amount, raise_to):
        expect_usable(control)
    amount.fill("12")
    expect(raise_to).to_have_text("Raise to 12 (add 7)")
    shot(straddler, "bouillotte-level-straddler")
    act(straddler, raise_to)

    # Everyone sees the raise; the opener now owes 7.
    assert acting(pages) is opener
    expect(opener.locator("#prompt")).to_have_text("Your turn: 7 to call.")
    for page in pages:
        expect(page.locator("#centre").get_by_test_id("pot")).to_have_text("Pot 19")
    # No next hand after this one: its result stays up to be read (the demo deals the next
    # a second after a result, which a busy machine can miss).
    call_api(owner, "POST", f"/api/tables/{table_id}/pause")
    act(opener, opener.locator("#controls").get_by_role("button", name="Call 7"))
    assert to_act(pages) is None and result_shown(pages)
    expect(pages[0].locator("#result").get_by_test_id("winner")).to_contain_text("the pot of 26")
