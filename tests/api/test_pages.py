"""The server-rendered pages a person uses: log in, join, my account."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import httpx
from fastapi import FastAPI

from app.db.session import Database
from app.engine import registry
from tests.helpers import PASSWORD, add_member, found_club, logged_in_client

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


async def form_token(client: httpx.AsyncClient, path: str) -> str:
    page = await client.get(path)
    assert page.status_code == 200
    found = TOKEN.search(page.text)
    assert found, page.text
    return found.group(1)


async def test_log_in_with_the_form_and_see_my_balance(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    await add_member(db, "rose", chips=250)
    token = await form_token(client, "/login")
    response = await client.post(
        "/login", data={"username": "rose", "password": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/lobby"
    account = await client.get("/account")
    assert 'data-testid="balance">250<' in account.text
    assert "seed" in account.text  # the statement lists the grant's reason


async def test_wrong_password_shows_the_reason_on_the_form(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    token = await form_token(client, "/login")
    response = await client.post(
        "/login", data={"username": "owner", "password": "nope nope", "csrf_token": token}
    )
    assert response.status_code == 401
    assert "Wrong username or password." in response.text
    assert "salon_session" not in client.cookies


async def test_form_without_token_is_refused_with_a_page(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    response = await client.post(
        "/login",
        data={"username": "owner", "password": PASSWORD},
        headers={"accept": "text/html"},
    )
    assert response.status_code == 403
    assert "text/html" in response.headers["content-type"]
    assert "did not come from this site" in response.text
    assert "salon_session" not in client.cookies


async def test_join_with_the_form(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db, approval=True)
    token = await form_token(client, "/register")
    response = await client.post(
        "/register",
        data={
            "username": "tom",
            "display_name": "Tom <b>",
            "password": PASSWORD,
            "csrf_token": token,
        },
    )
    assert response.status_code == 200
    assert "waiting for an admin" in response.text
    assert "Tom &lt;b&gt;" in response.text  # escaped, never markup
    bad = await client.post(
        "/register", data={"username": "t", "password": PASSWORD, "csrf_token": token}
    )
    assert bad.status_code == 422
    assert "Usernames have 3 to 32 characters" in bad.text


async def test_change_password_and_log_out(
    app: FastAPI, client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    token = await form_token(client, "/login")
    await client.post(
        "/login", data={"username": "owner", "password": PASSWORD, "csrf_token": token}
    )
    token = await form_token(client, "/account")
    changed = await client.post(
        "/account/password",
        data={
            "current_password": PASSWORD,
            "new_password": "entirely new one",
            "csrf_token": token,
        },
    )
    assert "Password changed" in changed.text
    out = await client.post("/logout", data={"csrf_token": token})
    assert out.status_code == 303
    assert (await client.get("/account")).status_code == 303  # back to the login page
    token = await form_token(client, "/login")
    again = await client.post(
        "/login", data={"username": "owner", "password": "entirely new one", "csrf_token": token}
    )
    assert again.status_code == 303


async def test_pages_send_security_headers(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    page = await client.get("/login")
    assert page.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"


async def test_join_page_says_whether_approval_is_needed(
    client: httpx.AsyncClient, db: Database
) -> None:
    owner_id = await found_club(db, approval=True)
    assert "an admin approves you" in (await client.get("/register")).text
    async with db.transaction() as session:
        from app.db.models import User
        from app.services import club

        owner = await session.get(User, owner_id)
        assert owner is not None
        await club.update_club(session, club.ClubChanges(signup_requires_approval=False), owner)
    assert "an admin approves you" not in (await client.get("/register")).text


class _FormFields(HTMLParser):
    """The lobby form's elements marked with a game: their attributes and inputs' names."""

    def __init__(self) -> None:
        super().__init__()
        self.marked: list[tuple[dict[str, str | None], list[dict[str, str | None]]]] = []
        self._open: list[int | None] = []  # the labels and divs around, by index in marked

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("label", "div"):
            self._open.append(len(self.marked) if "data-game" in found else None)
            if "data-game" in found:
                self.marked.append((found, []))
        elif tag == "input":
            around = [n for n in self._open if n is not None]
            if around:
                self.marked[around[-1]][1].append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("label", "div"):
            self._open.pop()


async def test_the_lobby_form_asks_each_game_for_its_stakes(app: FastAPI, db: Database) -> None:
    """The fields come from the registry, with the attributes static/js/lobby.js reads
    (`data-game`, `data-preset`) and the names it sends; before the script runs, only the
    default game's fields show, a preset's field only with it."""
    await found_club(db)
    owner = await logged_in_client(app, "owner")
    page = (await owner.get("/lobby")).text
    await owner.aclose()
    form = re.search(r'<form id="create-table".*?</form>', page, re.S)
    assert form is not None
    for line in (
        '<label data-game="bourre">Ante <input name="ante" type="number" min="1" value="1" '
        "required></label>",
        '<label data-game="bourre" data-preset="pot_limit" hidden>Pot limit <input '
        'name="pot_limit" type="number" min="1" value="50" required></label>',
        '<label data-game="bouillotte" hidden>Cave <input name="cave" type="number" min="1" '
        'value="100" required></label>',
    ):
        assert line in form.group(0)
    fields = _FormFields()
    fields.feed(form.group(0))
    stakes = {
        (attrs["data-game"], inputs[0]["name"]): attrs
        for attrs, inputs in fields.marked
        if len(inputs) == 1  # a stake (the house-rules choices are selects)
    }
    for game in registry.DRIVERS:
        for stake in game.stake_fields:
            attrs = stakes[(game.name, stake.option)]
            assert attrs.get("data-preset") == stake.preset
            assert ("hidden" in attrs) is (game.name != registry.DEFAULT_GAME or bool(stake.preset))
    ranges = [
        (attrs, [i["name"] for i in inputs])
        for attrs, inputs in fields.marked
        if [i["name"] for i in inputs] == ["buy_in_min", "buy_in_max"]
    ]
    assert len(ranges) == 1
    attrs, _ = ranges[0]
    ranged = [game.name for game in registry.DRIVERS if game.buy_in_option is None]
    assert attrs["data-game"] == " ".join(ranged) == "bourre"
    assert "hidden" not in attrs
