"""The members' pages in the reader's language: the forms, the account, the lobby, the
offline page and the web app's manifest; the English ones are the other tests'."""

from __future__ import annotations

import httpx
import orjson
from fastapi import FastAPI

from app.db.session import Database
from tests.helpers import add_member, found_club, logged_in_client


async def test_a_visitor_joins_in_french_and_reads_the_offline_page_in_arabic(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    join = await client.get("/register", headers={"accept-language": "fr"})
    assert "Nom affiché" in join.text and "un administrateur valide" in join.text
    assert "Display name" not in join.text and "Invite code" not in join.text
    offline = await client.get("/offline", headers={"accept-language": "ar"})
    assert '<html lang="ar" dir="rtl">' in offline.text
    assert "أعد المحاولة" in offline.text and "Try again" not in offline.text
    manifest = orjson.loads(
        (await client.get("/manifest.webmanifest", headers={"accept-language": "ru"})).content
    )
    assert manifest["description"].endswith(": карточный зал клуба.")


async def test_a_member_reads_the_account_and_the_lobby_in_russian(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    await add_member(db, "rose", chips=100)
    rose = await logged_in_client(app, "rose")
    russian = {"accept-language": "ru"}
    account = await rose.get("/account", headers=russian)
    # A ledger kind (app/web/display.py) and the page's own words.
    assert "Начисление" in account.text and "Grant" not in account.text
    assert "Сменить пароль" in account.text and "Change password" not in account.text
    assert "участник" in account.text  # her role
    lobby = await rose.get("/lobby", headers=russian)
    assert "Тренировка" in lobby.text and "Practice against bots" not in lobby.text
    assert "Новички (любой допустимый ход)" in lobby.text
    # The balance's markup is still the scripts' to fill.
    assert 'Ваш баланс: <strong id="my-balance" data-testid="lobby-balance">…</strong>' in (
        lobby.text
    )
    await rose.aclose()
