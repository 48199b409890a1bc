"""Pages in the reader's language: `<html lang dir>`, the language menu, a member's choice
kept on their account, the club's default, and the scripts' words."""

from __future__ import annotations

import re

import httpx
import orjson
from fastapi import FastAPI
from sqlalchemy import select, update

from app.db.models import Club, User
from app.db.session import Database
from tests.api.test_pages import form_token
from tests.helpers import add_member, found_club, logged_in_client

HTML = re.compile(r'<html lang="([^"]+)" dir="([^"]+)">')


def html_language(page: httpx.Response) -> tuple[str, str]:
    found = HTML.search(page.text)
    assert found, page.text[:300]
    return found.group(1), found.group(2)


async def test_a_browser_asking_for_persian_reads_persian_right_to_left(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    page = await client.get("/login", headers={"accept-language": "fa-IR,fa;q=0.9,en;q=0.8"})
    assert html_language(page) == ("fa", "rtl")
    assert "<h1>ورود</h1>" in page.text
    # The scripts are pointed at the same catalog.
    words_url = re.search(r'<meta name="salon-words" content="([^"]+)">', page.text)
    assert words_url and words_url.group(1).startswith("/i18n/fa.json?v=")
    words = await client.get(words_url.group(1))
    assert words.headers["cache-control"] == "public, max-age=31536000, immutable"
    body = orjson.loads(words.content)
    assert body["language"] == "fa" and body["direction"] == "rtl"
    # Greek, left to right; English for a browser asking for what Salon does not speak.
    greek = await client.get("/login", headers={"accept-language": "el"})
    assert html_language(greek) == ("el", "ltr") and "<h1>Σύνδεση</h1>" in greek.text
    german = await client.get("/login", headers={"accept-language": "de"})
    assert html_language(german) == ("en", "ltr") and "<h1>Log in</h1>" in german.text
    assert 'name="salon-words"' not in german.text
    # A language that does not exist is no page.
    assert (await client.get("/i18n/xx.json")).status_code == 404


async def test_the_login_pages_menu_keeps_a_visitors_choice(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    page = await client.get("/login")
    menu = page.text[page.text.index('data-testid="language-menu"') :]
    for name in ("English", "Français", "Ελληνικά", "Русский", "العربية", "فارسی"):
        assert f">{name}</option>" in menu
    token = await form_token(client, "/login")
    chosen = await client.post(
        "/language", data={"language": "ru", "next": "/login", "csrf_token": token}
    )
    assert chosen.status_code == 303 and chosen.headers["location"] == "/login"
    # The choice outweighs the browser's.
    page = await client.get("/login", headers={"accept-language": "fa"})
    assert html_language(page) == ("ru", "ltr") and "<h1>Войти</h1>" in page.text
    # Refused: no token; a language Salon does not speak; a page of another site.
    assert (await client.post("/language", data={"language": "fa"})).status_code == 403
    token = await form_token(client, "/login")
    unknown = await client.post("/language", data={"language": "xx", "csrf_token": token})
    assert unknown.status_code == 422
    assert html_language(await client.get("/login")) == ("ru", "ltr")
    away = await client.post(
        "/language", data={"language": "el", "next": "//evil.example/", "csrf_token": token}
    )
    assert away.headers["location"] == "/"


async def test_a_members_language_follows_them_and_the_club_sets_the_default(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    await add_member(db, "rose", chips=100)
    rose = await logged_in_client(app, "rose")
    assert html_language(await rose.get("/account")) == ("en", "ltr")
    token = await form_token(rose, "/account")
    await rose.post("/language", data={"language": "ar", "next": "/account", "csrf_token": token})
    account = await rose.get("/account", headers={"accept-language": "fr"})
    assert html_language(account) == ("ar", "rtl")
    await rose.aclose()
    async with db.transaction() as session:
        member = await session.scalar(select(User).where(User.username == "rose"))
        assert member is not None and member.language == "ar"
    # Another browser of hers, logged in anew: Arabic, from her account.
    elsewhere = await logged_in_client(app, "rose")
    assert html_language(await elsewhere.get("/lobby")) == ("ar", "rtl")
    await elsewhere.aclose()
    # The club's default speaks to whoever chose nothing and asks for nothing Salon speaks.
    async with db.transaction() as session:
        await session.execute(update(Club).values(default_language="el"))
    app.state.club_language.forget()  # as the dashboard's save does (test_club_language.py)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://testserver",
    ) as visitor:
        assert html_language(await visitor.get("/login", headers={"accept-language": "de"})) == (
            "el",
            "ltr",
        )
        assert html_language(await visitor.get("/login", headers={"accept-language": "fr"})) == (
            "fr",
            "ltr",
        )
