"""Fair dealing in Chromium: every seated player's page adds its random share to the deal,
shows the hand's commitment, and the browser's own verifier (static/js/fair.js, Web Crypto)
confirms the published server seed and seed once the hand is over."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, WebSocket, expect

from tests.e2e.table_ui import act, seat_players, to_act
from tests.e2e.ui import DESKTOP, LiveServer, NewPage, Screen, Shot, log_in, reveal_each_hand

EVENTS = ("new_hand", "hand_over")


def recording(new_page: NewPage, seen: list[dict[str, Any]]) -> NewPage:
    """Pages whose table socket's `new_hand` and `hand_over` events are kept in `seen`."""

    def keep(payload: str | bytes) -> None:
        frame = json.loads(payload)
        if frame.get("type") == "event" and frame.get("kind") in EVENTS:
            seen.append(frame)

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", keep)

    def open_page(viewport: Screen = DESKTOP, *, locale: str | None = None) -> Page:
        page = new_page(viewport, locale=locale)
        page.on("websocket", on_socket)
        return page

    return open_page


def test_every_page_contributes_and_the_browser_verifies_the_deal(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    # The hand's report carries its seeds only once revealed: reveal each hand as it ends.
    owner = new_page()
    log_in(owner, live_server.base_url, live_server.owner_username, live_server.owner_password)
    reveal_each_hand(owner)
    seen: list[dict[str, Any]] = []
    players = seat_players(
        live_server,
        recording(new_page, seen),
        shot,
        game="bourre",
        names=["Flora", "Gaspard", "Hortense"],
        buy_in=100,
    )
    pages = [page for page, _, _ in players]
    dealt = next(f["data"] for f in seen if f["kind"] == "new_hand")
    # Each of the three pages sent 32 random bytes, and each was mixed into the seed.
    assert len(dealt["contributions"]) == 3
    assert len(set(dealt["contributions"].values())) == 3
    for page in pages:
        expect(page.locator("#hand-commitment")).to_have_attribute(
            "data-commitment", dealt["commitment"]
        )
    # Everybody passes (a dealer who may not pass plays alone): the hand ends at once.
    while (turn := to_act(pages)) is not None:
        controls = turn.locator("#controls")
        button = controls.get_by_role("button", name="Pass")
        act(turn, button if button.count() else controls.get_by_role("button", name="Play"))
    report = next(f["data"] for f in seen if f["kind"] == "hand_over" and "number" in f["data"])
    checked = pages[0].evaluate(
        """async ([dealt, report]) => {
            const fair = await import("/static/js/fair.js");
            const deck = await fair.deckFromSeed(report.seed, "bourre");
            return fair.verifyHand({
                commitment: dealt.commitment,
                serverSeed: report.server_seed,
                contributions: report.contributions,
                seed: report.seed,
                game: "bourre",
                deck,
            });
        }""",
        [dealt, report],
    )
    assert checked["commitment"] and checked["seed"] and checked["deck"], checked
    assert report["contributions"] == dealt["contributions"]
