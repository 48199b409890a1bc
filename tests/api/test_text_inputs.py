"""Names and reasons as members type them, through the REST API and the admin forms, on
both databases: every script is welcome, characters that hide or reorder text are refused
and change nothing, and what is stored is the NFC form."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.config import Settings
from app.db.models import Club, GameTable, LedgerOperation, User
from app.db.session import Database
from app.main import create_app
from tests.api.test_admin_pages import admin_client, page_tokens
from tests.helpers import PASSWORD, add_member, csrf_headers, found_club, login, post, snapshot
from tests.tables.harness import serving

HIDDEN = [
    "Table\u202eelbaT",  # right-to-left override
    "Zero\u200bwidth",  # zero-width space
    "\ufeffBOM",  # byte-order mark
    "\u200b",  # nothing visible at all
    "Isolated\u2066text\u2069",  # bidi isolate
]
# Arabic, Persian ("tables", with a ZWNJ inside the word), Greek, Russian.
WELCOME = ["مرحبا", "میز\u200cها", "Τραπέζι", "Стол"]  # noqa: RUF001 (Arabic letters)
NFD, NFC = "Cafe\u0301 Noir", "Café Noir"
BROWSER = {"accept": "text/html"}


async def test_table_names(settings: Settings, db: Database) -> None:
    await found_club(db)
    table = {"game": "bourre", "seat_count": 4, "buy_in_min": 20, "buy_in_max": 200}
    async with (
        serving(create_app(settings)) as host,
        httpx.AsyncClient(base_url=f"http://{host}") as owner,
    ):
        assert (await login(owner, "owner")).status_code == 200
        for name in HIDDEN:
            refused = await post(owner, "/api/tables", {**table, "name": name})
            assert refused.status_code == 422, (name, refused.text)
            assert refused.json()["error"]["code"] == "invalid_input"
        for name in [*WELCOME, NFD]:
            created = await post(owner, "/api/tables", {**table, "name": name})
            assert created.status_code == 201, (name, created.text)
    async with db.transaction() as session:
        stored = (await session.scalars(select(GameTable.name).order_by(GameTable.id))).all()
    assert stored == [*WELCOME, NFC]


async def register(app: FastAPI, display_name: str, n: int, *, form: bool) -> httpx.Response:
    """Sign up "member{n}" with this display name, by the REST API or the page's form."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as client:
        body = {"username": f"member{n}", "password": PASSWORD, "display_name": display_name}
        if not form:
            return await post(client, "/api/auth/register", body)
        await client.get("/api/auth/csrf")
        return await client.post(
            "/register", data=body, headers={**csrf_headers(client), **BROWSER}
        )


async def test_display_names_at_sign_up(app: FastAPI, db: Database) -> None:
    await found_club(db, approval=False)
    n = 0
    for form in (False, True):
        for name in HIDDEN:
            n += 1
            refused = await register(app, name, n, form=form)
            assert refused.status_code == 422, (name, refused.text)
            if form:
                assert 'data-code="invalid_display_name"' in refused.text
            else:
                assert refused.json()["error"]["code"] == "invalid_display_name"
        for name in [*WELCOME, NFD]:
            n += 1
            made = await register(app, name, n, form=form)
            assert made.status_code in (201, 303), (name, made.text)
    async with db.transaction() as session:
        names = (
            await session.scalars(select(User.display_name).where(User.username != "owner"))
        ).all()
    assert sorted(names) == sorted([*WELCOME, NFC] * 2)


async def test_the_club_name_and_chip_unit(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await admin_client(app)
    token, _ = await page_tokens(admin)
    for name in HIDDEN:
        api = await admin.patch(
            "/api/admin/club", json={"chip_unit": name}, headers=csrf_headers(admin)
        )
        assert api.status_code == 422 and api.json()["error"]["code"] == "invalid_chip_unit"
        page = await admin.post(
            "/admin/club",
            data={
                "csrf_token": token,
                "name": name,
                "chip_unit": "c",
                "default_turn_seconds": "20",
            },
            headers=BROWSER,
        )
        assert page.status_code == 422 and 'data-code="invalid_name"' in page.text
    async with db.transaction() as session:
        club = await session.get(Club, 1)
        assert club is not None and (club.name, club.chip_unit) == ("Test Club", "chips")
    saved = await admin.patch(
        "/api/admin/club",
        json={"name": NFD, "chip_unit": WELCOME[1]},
        headers=csrf_headers(admin),
    )
    assert saved.status_code == 200
    assert saved.json()["name"] == NFC and saved.json()["chip_unit"] == WELCOME[1]
    async with db.transaction() as session:
        club = await session.get(Club, 1)
        assert club is not None and club.name == NFC


async def test_ledger_reasons(app: FastAPI, db: Database) -> None:
    await found_club(db)
    member = await add_member(db, "rita", chips=10)
    admin = await admin_client(app)
    token, key = await page_tokens(admin)
    before = await snapshot(db)
    for n, reason in enumerate(HIDDEN):
        body = {
            "member_id": member,
            "amount": 5,
            "reason": reason,
            "idempotency_key": f"key-{n:05}",
        }
        api = await post(admin, "/api/admin/chips/grant", body)
        assert api.status_code == 422 and api.json()["error"]["code"] == "invalid_input"
        form = {"csrf_token": token, "chip_key": key, "member_id": str(member), "amount": "5"}
        page = await admin.post(
            "/admin/chips", data={**form, "reason": reason, "direction": "grant"}, headers=BROWSER
        )
        assert page.status_code == 422 and 'data-code="invalid_input"' in page.text
    assert await snapshot(db) == before
    body = {"member_id": member, "amount": 5, "reason": NFD, "idempotency_key": "key-nfd-1"}
    assert (await post(admin, "/api/admin/chips/grant", body)).status_code == 200
    async with db.transaction() as session:
        reasons = (await session.scalars(select(LedgerOperation.reason))).all()
    assert NFC in reasons and NFD not in reasons
