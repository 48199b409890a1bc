"""A saved house-rule configuration whose stored options no longer validate (an option a
later version dropped, text for a number, not an object at all, a number no table could
use, a refused pair): it is listed marked invalid with the engine's reason, it can be
archived or fixed, and it opens no table and is not copied; the club's other
configurations are untouched by it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, insert, select

from app.db.models import GameTable, Role, RuleSet, User
from app.db.session import Database
from tests.api.test_rules_pages import bourre_form, token_of
from tests.helpers import add_member, csrf_headers, found_club, logged_in_client, post

BASE = "/api/admin/rulesets"

# What a row may hold once the engine has moved on, and the option the engine names.
BAD_OPTIONS: dict[str, tuple[Any, str | None]] = {
    "dropped option": ({"jokers": 2}, "jokers"),
    "text for a number": ({"ante": "two"}, "ante"),
    "a list": ([], None),
    "null": (None, None),
    "10**21": ({"ante": 10**21}, "ante"),
    "refused pair": ({"declare": "simultaneous", "draw_with_declare": True}, "draw_with_declare"),
}


async def stored(db: Database, name: str, options: Any) -> int:
    """A row written as an older version (or a hand) left it, past the engine's checks."""
    async with db.transaction() as session:
        owner = await session.scalar(select(func.min(User.id)))
        new_id = await session.scalar(
            insert(RuleSet)
            .values(
                game="bourre",
                name=name,
                description="",
                options=options,
                archived=False,
                created_by_id=owner,
            )
            .returning(RuleSet.id)
        )
    assert new_id is not None
    return new_id


@pytest.fixture
async def admin(app: FastAPI, db: Database) -> httpx.AsyncClient:
    await found_club(db)
    await add_member(db, "ada", role=Role.ADMIN)
    client = await logged_in_client(app, "ada")
    made = await post(client, BASE, {"game": "bourre", "name": "Good", "options": {"ante": 2}})
    assert made.status_code == 201, made.text
    return client


async def table_count(db: Database) -> int:
    async with db.transaction() as session:
        return int(await session.scalar(select(func.count()).select_from(GameTable)) or 0)


def table_body(ruleset_id: int) -> dict[str, Any]:
    return {
        "name": "Tuesday",
        "game": "bourre",
        "ruleset_id": ruleset_id,
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
    }


@pytest.mark.parametrize("case", list(BAD_OPTIONS))
async def test_an_invalid_row_is_listed_archived_and_opens_nothing(
    app: FastAPI, db: Database, admin: httpx.AsyncClient, case: str
) -> None:
    options, field = BAD_OPTIONS[case]
    bad_id = await stored(db, "Broken", options)

    listed = await admin.get(BASE)
    assert listed.status_code == 200, listed.text
    by_name = {r["name"]: r for r in listed.json()["rulesets"]}
    bad, good = by_name["Broken"], by_name["Good"]
    assert (good["valid"], good["error"]) == (True, None)
    assert bad["valid"] is False and bad["rules"] == []
    # What is stored, for the admin to see what to fix (None: not an object at all).
    assert bad["options"] == (options if isinstance(options, dict) else None)
    assert bad["error"]["code"] == "invalid_rules"
    assert bad["error"]["details"].get("field") == field
    assert bad["summary"] == f"Invalid: {bad['error']['message']}"
    shown = await admin.get(f"{BASE}/{bad_id}")
    assert shown.status_code == 200 and shown.json()["valid"] is False

    # A member choosing rules for a table is offered only what can open one.
    members = await admin.get("/api/rulesets")
    assert members.status_code == 200
    assert [r["name"] for r in members.json()] == ["Good"]

    page = await admin.get("/admin/rules")
    assert page.status_code == 200
    assert "Invalid: " in page.text and 'data-testid="ruleset-invalid"' in page.text

    cloned = await post(admin, f"{BASE}/{bad_id}/clone", {})
    assert cloned.status_code == 409 and cloned.json()["error"]["code"] == "ruleset_invalid"
    refused = await post(admin, "/api/tables", table_body(bad_id))
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "ruleset_invalid"
    assert await table_count(db) == 0
    assert len((await admin.get(BASE)).json()["rulesets"]) == 2

    archived = await post(admin, f"{BASE}/{bad_id}/archive")
    assert archived.status_code == 200, archived.text
    assert archived.json()["archived"] is True and archived.json()["valid"] is False
    opened = await post(admin, "/api/tables", table_body(by_name["Good"]["id"]))
    assert opened.status_code == 201, opened.text


async def test_an_invalid_row_is_fixed_from_its_form_or_over_the_api(
    db: Database, admin: httpx.AsyncClient
) -> None:
    from_form = await stored(db, "Broken", {"ante": "two", "jokers": 2})
    over_api = await stored(db, "Broken too", [])
    form = await admin.get(f"/admin/rules/{from_form}")
    assert form.status_code == 200
    assert 'data-testid="stored-problem"' in form.text
    assert "Not saved" not in form.text
    token = await token_of(admin)
    fixed = await admin.post(
        f"/admin/rules/{from_form}", data=bourre_form(token, name="Broken", ante="3")
    )
    assert fixed.status_code == 303, fixed.text

    # Saving it unchanged keeps it invalid; sending options replaces what was stored.
    same = await admin.patch(
        f"{BASE}/{over_api}", json={"name": "Mended"}, headers=csrf_headers(admin)
    )
    assert same.status_code == 422 and same.json()["error"]["code"] == "invalid_rules"
    mended = await admin.patch(
        f"{BASE}/{over_api}",
        json={"name": "Mended", "options": {"cinch_rule": False}},
        headers=csrf_headers(admin),
    )
    assert mended.status_code == 200, mended.text
    listed = {r["name"]: r for r in (await admin.get(BASE)).json()["rulesets"]}
    assert listed["Broken"]["options"] == {"ante": 3}
    assert listed["Mended"]["options"] == {"cinch_rule": False}
    assert all(r["valid"] for r in listed.values())
    log = await admin.get("/admin/log")
    assert log.status_code == 200


async def test_the_pages_archive_an_invalid_row_and_offer_it_to_no_table(
    db: Database, admin: httpx.AsyncClient
) -> None:
    bad_id = await stored(db, "Broken", {"ante": 10**21})
    token = await token_of(admin)
    opened = await admin.post(
        f"/admin/rules/{bad_id}/open",
        data={
            "csrf_token": token,
            "table_name": "T",
            "seat_count": "4",
            "turn_seconds": "30",
            "buy_in_min": "20",
            "buy_in_max": "200",
        },
    )
    assert opened.status_code == 409 and "Salon no longer accepts" in opened.text
    assert await table_count(db) == 0
    listed = (await admin.get(BASE)).json()["rulesets"]
    good_id = next(r["id"] for r in listed if r["name"] == "Good")
    table = await post(admin, "/api/tables", table_body(good_id))
    rules_page = await admin.get(f"/tables/{table.json()['id']}/rules")
    assert rules_page.status_code == 200 and f'<option value="{bad_id}">' not in rules_page.text
    archived = await admin.post(f"/admin/rules/{bad_id}/archive", data={"csrf_token": token})
    assert archived.status_code == 303
    page = await admin.get(archived.headers["location"])
    assert page.status_code == 200 and "Broken archived." in page.text
