"""Presence at the table: when a player's page closes, the others see that seat go offline
within a second, and back online within a second of the page's socket opening again (no
other table event is needed)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.table_ui import seat_players
from tests.e2e.ui import LiveServer, NewPage, Shot

OFFLINE = re.compile(r"\bseat--offline\b")


def test_seats_go_offline_and_online_at_once(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bourre", names=["Mia", "Ned", "Ola"], buy_in=100
    )
    (watcher, _, _), (leaver, _, name) = players[0], players[1]
    seat = watcher.locator(".seat").filter(has=watcher.locator(".seat-name", has_text=name))
    expect(seat).not_to_have_class(OFFLINE)
    table_url = leaver.url
    leaver.goto(f"{live_server.base_url}/lobby")
    expect(seat).to_have_class(OFFLINE, timeout=1000)
    expect(seat).to_contain_text("Offline")
    leaver.goto(table_url)
    # The page opens its socket once its scripts have run, which may be after the page's
    # load event on a busy machine: the second counts from the socket being open.
    expect(leaver.locator("#connection")).to_have_text("Connected")
    expect(seat).not_to_have_class(OFFLINE, timeout=1000)
