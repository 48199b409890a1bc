"""What players see when the table's database fails a write (a full disk, a server
restarting): the table says so over their cards, the move is not taken, and once the
database writes again the banner goes and the hand goes on from where it was.

The server's SQLite database is made to refuse the next stored action by a trigger, as a
full disk would refuse it, then the trigger is dropped, as an operator freeing space would.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.conftest import DATABASE_FILE
from tests.e2e.table_ui import (
    acting,
    my_cards,
    quick_table,
    resume,
    version,
    wait_for_the_deal,
)
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage, Shot

SAID = "The club's database is not answering: play is paused and resumes by itself."


def refuse_writes(data_dir: Path, refuse: bool) -> None:
    with sqlite3.connect(data_dir / DATABASE_FILE, timeout=10) as db:
        if refuse:
            db.execute(
                "CREATE TRIGGER disk_is_full BEFORE INSERT ON hand_actions"
                " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
            )
        else:
            db.execute("DROP TRIGGER disk_is_full")


def banner_over_the_hand(page: Page) -> None:
    """The banner is on screen, in the window, and nothing covers its middle."""
    banner = page.locator("#offline-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(SAID)
    box = banner.bounding_box()
    assert box is not None
    viewport = page.viewport_size
    assert viewport is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    hit = page.evaluate(
        """([x, y]) => document.elementFromPoint(x, y)?.closest('#offline-banner') !== null""",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit


def test_a_failed_write_pauses_the_table_and_says_so_until_the_database_is_back(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=2,
        names=["Alice", "Bob"],
        screens=[DESKTOP, PHONE],
    )
    pages = [page for page, _, _ in players]
    resume(owner)
    wait_for_the_deal(pages)
    mover = acting(pages)
    before = {id(page): (version(page), my_cards(page)) for page in pages}
    refuse_writes(live_server.data_dir, True)
    try:
        mover.locator("#controls button").first.click()
        for page in pages:
            banner_over_the_hand(page)
        # The refusal is said once, by the banner, not again in a toast over it.
        expect(mover.locator("#toast")).to_be_hidden()
        shot(pages[1], "table-database-away-phone")
        for page in pages:
            assert (version(page), my_cards(page)) == before[id(page)]
    finally:
        refuse_writes(live_server.data_dir, False)
    # The table reads itself back within seconds; the same player is asked again.
    for page in pages:
        expect(page.locator("#offline-banner")).to_be_hidden()
        assert my_cards(page) == before[id(page)][1]
    assert acting(pages) is mover
