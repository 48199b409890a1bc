"""The hand-history pages: shells drawn by static/js/hands from the API."""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI

from app.db.models import Hand, TableStatus, User
from app.db.session import Database
from app.db.types import utcnow
from tests.helpers import add_member, found_club, logged_in_client, open_bourre_table


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


async def test_an_admin_sees_every_tables_sessions_closed_ones_too(
    app: FastAPI, db: Database
) -> None:
    owner_id = await found_club(db)
    async with db.transaction() as session:
        owner = await session.get(User, owner_id)
        assert owner is not None
        table = await open_bourre_table(session, owner, "Old Friday")
        for number, session_no in ((1, 1), (2, 1), (3, 2)):
            session.add(
                Hand(
                    table_id=table.id,
                    number=number,
                    seed="00" * 32,
                    commitment="11" * 32,
                    header={},
                    players={},
                    running=False,
                    ended_at=utcnow(),
                    session=session_no,
                )
            )
        table.status = TableStatus.CLOSED
        table_id = table.id
    admin = await logged_in_client(app, "owner")
    page = await admin.get("/hands")
    assert 'data-testid="sessions"' in page.text
    rows = re.findall(r"<tr>\s*<td>Old Friday.*?</tr>", page.text, re.S)
    assert len(rows) == 2 and all("closed" in row for row in rows)
    counts = sorted(re.findall(r'<td class="num">(\d+)</td>', row) for row in rows)
    assert counts == [["1"], ["2"]]  # session 1 dealt two hands, session 2 one
    # From and To are times the browser shows in the admin's own zone.
    assert all(len(re.findall(r'<td><time datetime="[^"]+">', row)) == 2 for row in rows)
    export = re.search(r'href="(/api/admin/hands/export\?[^"]*format=csv)"', rows[0])
    assert export is not None
    answer = await admin.get(export.group(1).replace("&amp;", "&"))
    assert answer.status_code == 200
    assert f"table_id={table_id}" in export.group(1)
    await add_member(db, "rose")
    rose = await logged_in_client(app, "rose")
    assert 'data-testid="sessions"' not in (await rose.get("/hands")).text
