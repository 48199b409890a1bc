"""The live table in the reader's language: the page's own words (templates/table.html) and
the scripts' (static/js/table/*.js), which the browser reads from /i18n/<code>.json."""

from __future__ import annotations

import re

import httpx
import orjson
from fastapi import FastAPI
from sqlalchemy import select

from app.db.models import User
from app.db.session import Database
from tests.helpers import found_club, login, open_bourre_table


async def words(client: httpx.AsyncClient, page: httpx.Response) -> dict[str, object]:
    """The scripts' words for `page`, from the URL it gives them."""
    url = re.search(r'<meta name="salon-words" content="([^"]+)">', page.text)
    assert url, page.text[:300]
    body = orjson.loads((await client.get(url.group(1))).content)
    messages = body["messages"]
    assert isinstance(messages, dict)
    return messages


async def test_the_table_speaks_russian_and_its_plurals_take_each_languages_forms(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    async with db.transaction() as session:
        owner = await session.scalar(select(User).where(User.username == "owner"))
        assert owner is not None
        table = await open_bourre_table(session, owner, "Samovar")
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as client:
        assert (await login(client, "owner")).status_code == 200
        russian = {"accept-language": "ru"}
        page = await client.get(f"/tables/{table.id}", headers=russian)
        assert page.status_code == 200
        # The page's own words: the bar, the log, the chat.
        assert "<summary>Ход раздачи <span" in page.text and "Hand log" not in page.text
        assert ">Встать из-за стола</button>" in page.text and ">Stand up<" not in page.text
        assert 'placeholder="Напишите что-нибудь…"' in page.text
        # The scripts' words, the game's own words in their sense, a turn's prompt, the log.
        ru = await words(client, page)
        assert ru["bourre\u0004Play"] == "Играю" and ru["bourre\u0004Pass"] == "Пас"
        assert ru["bouillotte\u0004Fold"] == "Сбросить"
        assert ru["Your turn: play a card."] == "Ваш ход: сыграйте карту."
        assert ru["{name} wins trick {number}."] == "{name} берёт взятку {number}."
        assert ru["Hand {number}"] == "Раздача {number}"
        # A plural has Russian's three forms (1 взятка, 2 взятки, 5 взяток)…
        assert ru["{n} trick"] == ["{n} взятка", "{n} взятки", "{n} взяток"]
        # …and Arabic's six.
        page = await client.get(f"/tables/{table.id}", headers={"accept-language": "ar"})
        ar = await words(client, page)
        tricks = ar["{n} trick"]
        assert isinstance(tricks, list) and len(tricks) == 6 and tricks[2] == "أكلتان"
        waiting = ar["You were sat out after {count} timeout."]
        assert isinstance(waiting, list) and len(waiting) == 6
