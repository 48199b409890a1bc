"""The hand-history pages: shells drawn by static/js/hands from the API."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.db.session import Database
from tests.helpers import add_member, found_club, logged_in_client


async def test_the_pages_ask_a_visitor_to_log_in(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    for path in ("/hands", "/hands/1"):
        response = await client.get(path)
        assert response.status_code == 303
        assert response.headers["location"] == "/login"


async def test_a_member_gets_my_hands_without_the_admin_search(app: FastAPI, db: Database) -> None:
    await found_club(db)
    await add_member(db, "rose")
    rose = await logged_in_client(app, "rose")
    page = await rose.get("/hands")
    assert page.status_code == 200
    assert "<h1>My hands</h1>" in page.text
    assert "/static/js/hands/list.js" in page.text
    assert 'name="member_id"' not in page.text
    assert 'name="min_pot"' not in page.text
    assert '<a href="/hands">My hands</a>' in page.text  # the top bar's link


async def test_an_admin_searches_by_member_and_pot(app: FastAPI, db: Database) -> None:
    await found_club(db)
    await add_member(db, "rose")
    owner = await logged_in_client(app, "owner")
    page = await owner.get("/hands")
    assert page.status_code == 200
    assert 'name="member_id"' in page.text
    assert "(@rose)" in page.text
    assert 'name="min_pot"' in page.text and 'name="max_pot"' in page.text


async def test_a_hand_page_is_a_shell_for_its_replay(app: FastAPI, db: Database) -> None:
    await found_club(db)
    await add_member(db, "rose")
    rose = await logged_in_client(app, "rose")
    page = await rose.get("/hands/7")
    assert page.status_code == 200
    assert 'data-hand-id="7"' in page.text
    assert "/static/js/hands/replay.js" in page.text
    assert "<script>" not in page.text and "style=" not in page.text  # CSP: no inline code
    account = await rose.get("/account")
    assert 'href="/hands"' in account.text


async def test_the_fair_shuffle_document_is_served(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    response = await client.get("/docs/fair-shuffle")
    assert response.status_code == 200
    assert "salon.shuffle/v1" in response.text
