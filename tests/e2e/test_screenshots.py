"""Screenshots of every state a player sees, on a phone and on a laptop, saved under
var/screenshots/ as <game>-<phone|laptop>-<state>.png to be looked at: the lobby, an empty
table, a seated player waiting, and every kind of turn in both games up to the result.

Each table has two laptop players and one on a phone; hands are played until every state
has been seen at both sizes (the players' choices steer the hands there)."""

from __future__ import annotations

import secrets

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import act, call_api, quick_table, resume, to_act
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage, Shot, log_in

SIZES = ("phone", "laptop")


class Album:
    """The screenshots of one game: each state once at each size."""

    def __init__(self, shot: Shot, game: str, pages: list[Page]) -> None:
        self.shot = shot
        self.game = game
        self.pages = pages
        self.taken: set[str] = set()

    @staticmethod
    def size(page: Page) -> str:
        viewport = page.viewport_size
        return "phone" if viewport and viewport["width"] < 600 else "laptop"

    def has(self, page: Page, state: str) -> bool:
        return f"{self.size(page)}-{state}" in self.taken

    def take(self, page: Page, state: str) -> None:
        if self.has(page, state):
            return
        self.taken.add(f"{self.size(page)}-{state}")
        self.shot(page, f"{self.game}-{self.size(page)}-{state}")

    def missing(self, states: tuple[str, ...]) -> set[str]:
        return {f"{size}-{state}" for size in SIZES for state in states} - self.taken


def lobby_and_empty_table(live_server: LiveServer, new_page: NewPage, shot: Shot) -> None:
    """The owner, on a laptop and on a phone: the lobby, and a table nobody sits at."""
    for screen, size in ((DESKTOP, "laptop"), (PHONE, "phone")):
        page = new_page(screen)
        log_in(page, live_server.base_url, live_server.owner_username, live_server.owner_password)
        table = call_api(
            page,
            "POST",
            "/api/tables",
            {
                "name": f"Empty {secrets.token_hex(2)}",
                "game": "bourre",
                "seat_count": 5,
                "buy_in_min": 100,
                "buy_in_max": 500,
            },
        )
        page.goto(f"{live_server.base_url}/lobby")
        expect(page.locator(f"li.table-row[data-table-id='{table['id']}']")).to_be_visible()
        shot(page, f"lobby-{size}")
        page.goto(f"{live_server.base_url}/tables/{table['id']}")
        expect(page.get_by_role("button", name="Sit here")).to_have_count(5)
        shot(page, f"table-{size}-empty")
        call_api(page, "POST", f"/api/tables/{table['id']}/close")


BOURRE = ("waiting", "declare", "draw", "play-legal-and-illegal", "trick", "result")


def test_bourre_screens(live_server: LiveServer, new_page: NewPage, shot: Shot) -> None:
    lobby_and_empty_table(live_server, new_page, shot)
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=3,
        names=["Armand", "Blanche", "Céleste"],
        screens=[DESKTOP, DESKTOP, PHONE],
    )
    pages = [p for p, _, _ in players]
    album = Album(shot, "bourre", pages)
    for waiting in (pages[0], pages[2]):
        expect(waiting.locator("#prompt")).to_have_text("The table is paused.")
        album.take(waiting, "waiting")
    resume(owner)
    for _ in range(400):
        if not album.missing(BOURRE):
            break
        page = to_act(pages, timeout=20)
        if page is None:
            for seen in pages:
                album.take(seen, "result")
            # The next hand is dealt (the result may stay up for whoever has no cards yet).
            expect(pages[0].locator("#hand-info")).not_to_be_empty(timeout=20_000)
            continue
        controls = page.locator("#controls")
        play = controls.get_by_role("button", name="Play", exact=True)
        keep = controls.get_by_role("button", name="Keep all")
        legal = page.locator("#my-hand button.is-legal")
        if play.count():
            album.take(page, "declare")
            act(page, play)
        elif keep.count():
            page.locator("#my-hand button.card-button").first.click()
            album.take(page, "draw")
            act(page, controls.get_by_role("button", name="Exchange 1"))
        elif legal.count():
            if page.locator("#my-hand button.is-disabled").count():
                page.mouse.move(1, 1)  # as a touch screen shows it, without a hovered card
                album.take(page, "play-legal-and-illegal")
            if page.locator("#centre .trick-card").count():
                album.take(page, "trick")
            act(page, legal.first)
        else:
            act(page, controls.locator("button:enabled").first)
    assert not album.missing(BOURRE), album.missing(BOURRE)


BOUILLOTTE = ("opening", "facing-bet", "raise-presets", "va-tout-confirm", "showdown-result")


def test_bouillotte_screens(live_server: LiveServer, new_page: NewPage, shot: Shot) -> None:
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bouillotte",
        seats=3,
        names=["Aurèle", "Bérénice", "Corentin"],
        screens=[DESKTOP, DESKTOP, PHONE],
    )
    pages = [p for p, _, _ in players]
    album = Album(shot, "bouillotte", pages)
    resume(owner)
    for _ in range(400):
        if not album.missing(BOUILLOTTE):
            break
        page = to_act(pages, timeout=20)
        if page is None:
            if pages[0].locator("#result .showdown").count():
                for seen in pages:
                    album.take(seen, "showdown-result")
            # The next hand is dealt (the result may stay up for whoever has no cards yet).
            expect(pages[0].locator("#hand-info")).not_to_be_empty(timeout=20_000)
            continue
        controls = page.locator("#controls")

        opener = page.locator("#controls button[data-action='open']")
        call = page.locator("#controls button[data-action='call']")
        decline = page.locator("#controls button[data-action='decline']")
        if opener.count():
            album.take(page, "opening")
            other = next(p for p in pages if album.size(p) != album.size(page))
            pass_ = page.locator("#controls button[data-action='pass']")
            # The first to speak passes until both sizes have seen the opening.
            if not album.has(other, "opening") and pass_.count():
                act(page, pass_)
            else:
                act(page, opener)
        elif call.count() and call.inner_text().startswith("Call"):
            album.take(page, "facing-bet")
            if controls.get_by_role("button", name="Pot", exact=True).count():
                controls.get_by_role("button", name="Pot", exact=True).click()
                album.take(page, "raise-presets")
            all_in = page.locator("#controls button[data-action='all_in']")
            if all_in.count() and not album.has(page, "va-tout-confirm"):
                all_in.click()
                expect(all_in).to_have_attribute("data-armed", "true")
                album.take(page, "va-tout-confirm")
            act(page, call)
        elif call.count():
            act(page, call)
        else:  # a straddle declined, or "Stay" in the continuation
            act(page, decline)
    assert not album.missing(BOUILLOTTE), album.missing(BOUILLOTTE)
