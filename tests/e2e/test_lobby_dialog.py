"""The lobby's buy-in chooser is styled like the rest of the site (its styles used to live
in the table's stylesheet only), fits a phone, and shows a slider only when there is a
range to choose from (a Bouillotte cave is one fixed amount)."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

from tests.e2e.table_ui import create_table, table_row
from tests.e2e.ui import PHONE, LiveServer, NewPage, Shot, approve, grant_chips, log_in, register

PASSWORD = "correct horse battery"


def test_the_buy_in_chooser_in_the_lobby(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    tables = {
        game: create_table(owner, base, name=f"Dialog {game}", game=game, seats=3)
        for game in ("bourre", "bouillotte")
    }
    for screen, label in ((None, "laptop"), (PHONE, "phone")):
        page = new_page() if screen is None else new_page(screen)
        username = f"dina{secrets.token_hex(3)}"
        register(page, base, username, PASSWORD, "Dina")
        approve(owner, username)
        grant_chips(owner, username, 500, "Club night")
        log_in(page, base, username, PASSWORD)
        for game, table_id in tables.items():
            page.goto(f"{base}/lobby")
            table_row(page, table_id).get_by_role("button", name="Join").click()
            dialog = page.get_by_role("dialog")
            expect(dialog).to_be_visible()
            style = dialog.evaluate(
                "el => [getComputedStyle(el).borderRadius, getComputedStyle(el).borderTopWidth]"
            )
            assert style == ["12px", "0px"], f"the chooser is unstyled: {style}"
            expect(dialog).to_be_in_viewport(ratio=1)
            slider = dialog.get_by_label("Amount slider")
            if game == "bouillotte":
                expect(slider).to_be_hidden()
            else:
                expect(slider).to_be_visible()
            shot(page, f"lobby-buyin-{game}-{label}")
            dialog.get_by_role("button", name="Cancel").click()
            expect(dialog).to_have_count(0)
