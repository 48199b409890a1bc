"""What players see when the table's database fails a write (a full disk, a server
restarting): the table says so over their cards, the move is not taken, and once the
database answers again the banner goes and the hand goes on from where it was.

The server's SQLite database is made to refuse the next stored action by a trigger, as a
full disk would refuse it. The table then reads itself back within a moment (reading still
works), so each page records what its banner showed, where, and what covered it, at the
instant it showed (a MutationObserver), and the test reads that record.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage

SAID = "The club's database is not answering: play is paused and resumes by itself."

# Each time the banner shows the database's word: its text, its box against the window,
# whether something else covers its middle, and whether a toast is up as well.
RECORD_THE_BANNER = """() => {
  window.__storageShown = [];
  const banner = document.getElementById("offline-banner");
  new MutationObserver(() => {
    if (banner.hidden || banner.dataset.reason !== "storage") return;
    const box = banner.getBoundingClientRect();
    const middle = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    window.__storageShown.push({
      text: banner.textContent,
      top: box.top,
      bottom: box.bottom,
      window: window.innerHeight,
      covered: !middle?.closest("#offline-banner"),
      toast: !document.getElementById("toast").hidden,
    });
  }).observe(banner, { attributes: true, childList: true, characterData: true, subtree: true });
}"""


@contextmanager
def writes_refused(data_dir: Path) -> Iterator[None]:
    with sqlite3.connect(data_dir / DATABASE_FILE, timeout=10) as db:
        db.execute(
            "CREATE TRIGGER disk_is_full BEFORE INSERT ON hand_actions"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    try:
        yield
    finally:
        with sqlite3.connect(data_dir / DATABASE_FILE, timeout=10) as db:
            db.execute("DROP TRIGGER disk_is_full")


def shown(page: Page) -> list[dict[str, Any]]:
    page.wait_for_function("() => window.__storageShown.length > 0")
    records: list[dict[str, Any]] = page.evaluate("() => window.__storageShown")
    return records


def test_a_failed_write_pauses_the_table_and_says_so_until_the_database_is_back(
    live_server: LiveServer, new_page: NewPage
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
    for page in pages:
        page.evaluate(RECORD_THE_BANNER)
    with writes_refused(live_server.data_dir):
        mover.locator("#controls button").first.click()
        records = {id(page): shown(page) for page in pages}
    for page in pages:
        for record in records[id(page)]:
            assert record["text"].startswith(SAID), record
            assert record["top"] >= 0 and record["bottom"] <= record["window"], record
            assert not record["covered"], record
            # The refusal is said once, by the banner, not again in a toast over it.
            assert not record["toast"], record
    # The table read itself back: the banner is gone, nothing moved, the same player is
    # asked again, and the move goes through now.
    for page in pages:
        expect(page.locator("#offline-banner")).to_be_hidden()
        expect(page.locator("#toast")).to_be_hidden()
        assert (version(page), my_cards(page)) == before[id(page)]
    assert acting(pages) is mover
    mover.locator("#controls button").first.click()
    expect(mover.locator("#table-app")).not_to_have_attribute(
        "data-version", str(before[id(mover)][0])
    )
