"""The club's default language is read from its row at most once every REFRESH_SECONDS,
not on every request of someone who asked for no language Salon speaks; a change saved
through the dashboard or the API is spoken at the next request."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import update

from app.db.models import Club
from app.db.session import Database
from app.services.club_language import REFRESH_SECONDS, ClubLanguage
from tests.api.test_admin_pages import admin_client
from tests.helpers import csrf_headers, found_club
from tests.i18n.test_admin import GERMAN
from tests.i18n.test_language_pages import html_language


async def set_default_behind_its_back(db: Database, code: str | None) -> None:
    async with db.transaction() as session:
        await session.execute(update(Club).where(Club.id == 1).values(default_language=code))


async def test_the_default_is_read_again_only_once_its_time_is_up(db: Database) -> None:
    await found_club(db)
    now = [100.0]
    known = ClubLanguage(clock=lambda: now[0])
    assert await known.code(db) is None
    await set_default_behind_its_back(db, "ru")
    now[0] += REFRESH_SECONDS - 0.5
    assert await known.code(db) is None  # still the one read a moment ago
    now[0] += 0.5
    assert await known.code(db) == "ru"
    await set_default_behind_its_back(db, "el")
    known.forget()
    assert await known.code(db) == "el"


async def test_a_default_saved_through_the_api_is_spoken_at_the_next_request(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as visitor:
        assert html_language(await visitor.get("/login", headers=GERMAN)) == ("en", "ltr")
        admin = await admin_client(app)
        saved = await admin.patch(
            "/api/admin/club", json={"default_language": "el"}, headers=csrf_headers(admin)
        )
        assert saved.status_code == 200
        # Within the refresh window: the process that saved it does not wait for it.
        assert html_language(await visitor.get("/login", headers=GERMAN)) == ("el", "ltr")
