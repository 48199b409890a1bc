"""The house-rules pages, used as an admin would: the generated form, its errors beside
the fields, presets read-only, opening a table from a configuration."""

from __future__ import annotations

import re
from html import unescape

import httpx
from fastapi import FastAPI

from app.db.models import Role
from app.db.session import Database
from app.services import rule_words
from tests.helpers import add_member, found_club, logged_in_client

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


async def token_of(client: httpx.AsyncClient, path: str = "/admin/rules") -> str:
    page = await client.get(path)
    assert page.status_code == 200, page.text
    found = TOKEN.search(page.text)
    assert found
    return found.group(1)


def bourre_form(token: str, **changes: str) -> dict[str, str]:
    """Every field as the generated form sends it, at its default, then `changes`."""
    form = {"csrf_token": token, "game": "bourre", "name": "Cajun", "description": ""}
    for field in rule_words.option_fields("bourre", {}):
        form[field.name] = field.form_value
    form.update(changes)
    return form


async def test_the_form_shows_every_option_with_its_words(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await logged_in_client(app, "owner")
    page = unescape((await admin.get("/admin/rules/new?game=bourre")).text)
    for field in rule_words.option_fields("bourre", {}):
        assert f'name="{field.name}"' in page
        assert field.info.explanation in page
        assert f"Default: {field.default_words}." in page
    assert "§6" in page and 'value="dealer_may_take"' in page
    assert 'min="0"' in page and 'max="5"' in page  # max_discard's range


async def test_a_refused_combination_stands_beside_both_fields(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await logged_in_client(app, "owner")
    token = await token_of(admin)
    form = bourre_form(token, must_trump="always", allow_throw_off="true", ante="2")
    response = await admin.post("/admin/rules/new", data=form)
    assert response.status_code == 422
    errors = re.findall(r'id="error-([a-z_]+)" role="alert"', response.text)
    assert errors == ["must_trump", "allow_throw_off"]
    assert "would reveal" not in response.text and "one forces a player" in response.text
    # What was typed is kept, and nothing was stored.
    assert 'name="ante" type="number"' in response.text and 'value="2"' in response.text
    assert "None yet" in (await admin.get("/admin/rules")).text


async def test_create_then_edit_from_the_pages(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await logged_in_client(app, "owner")
    token = await token_of(admin)
    made = await admin.post(
        "/admin/rules/new", data=bourre_form(token, max_discard="3", trump_card="dead")
    )
    assert made.status_code == 303
    edit_path = made.headers["location"].split("?")[0]
    page = await admin.get(made.headers["location"])
    assert "Saved." in page.text
    bad = await admin.post(edit_path, data=bourre_form(token, max_discard="9"))
    assert bad.status_code == 422
    assert re.findall(r'id="error-([a-z_]+)" role="alert"', bad.text) == ["max_discard"]
    listing = (await admin.get("/admin/rules")).text
    assert "most cards exchanged: 3" in listing
    assert "trump card: an extra card that belongs to no one" in listing


async def test_a_preset_page_is_read_only(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await logged_in_client(app, "owner")
    page = await admin.get("/admin/rules/presets/bourre/friendly")
    assert page.status_code == 200
    assert "<fieldset disabled>" in page.text
    assert "A built-in preset cannot be changed." in page.text
    token = await token_of(admin)
    cloned = await admin.post(
        "/admin/rules/presets/bourre/friendly/clone", data={"csrf_token": token}
    )
    assert cloned.status_code == 303
    copy = await admin.get(cloned.headers["location"])
    assert "Friendly (copy)" in copy.text and "<fieldset disabled>" not in copy.text


async def test_open_a_table_from_the_dashboard(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await logged_in_client(app, "owner")
    token = await token_of(admin)
    made = await admin.post(
        "/admin/rules/new", data=bourre_form(token, cinch_rule="false", name="Loose")
    )
    ruleset_id = made.headers["location"].split("/")[-1].split("?")[0]
    opened = await admin.post(
        f"/admin/rules/{ruleset_id}/open",
        data={
            "csrf_token": token,
            "table_name": "Loose night",
            "seat_count": "5",
            "ante": "4",
            "pot_limit": "",
            "turn_seconds": "30",
            "buy_in_min": "40",
            "buy_in_max": "400",
        },
    )
    assert opened.status_code == 303, opened.text
    rules_page = await admin.get(f"{opened.headers['location']}/rules")
    assert "House rules of Loose night" in rules_page.text
    assert "Ante 4 chips · cinch rule: no" in rules_page.text
    # §2, §7: the page says who skips an ante after going bourré.
    assert "went bourré or tied for most tricks in the last hand" in rules_page.text
    assert "they skip this one ante" in rules_page.text


async def test_members_are_refused_and_strangers_sent_to_log_in(
    app: FastAPI, db: Database, client: httpx.AsyncClient
) -> None:
    await found_club(db)
    await add_member(db, "mel", role=Role.MEMBER)
    member = await logged_in_client(app, "mel")
    for path in ("/admin/rules", "/admin/rules/new", "/admin/rules/presets/bourre/friendly"):
        assert (await member.get(path)).status_code == 403
        stranger = await client.get(path)
        assert stranger.status_code == 303 and stranger.headers["location"] == "/login"
    token = await token_of(member, "/lobby")
    refused = await member.post("/admin/rules/new", data=bourre_form(token))
    assert refused.status_code == 403


async def test_a_form_without_its_csrf_token_is_refused(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await logged_in_client(app, "owner")
    form = bourre_form("not-the-token")
    refused = await admin.post("/admin/rules/new", data=form)
    assert refused.status_code == 403
    assert "None yet" in (await admin.get("/admin/rules")).text


async def test_a_table_is_changed_from_its_rules_page_before_its_first_hand(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    admin = await logged_in_client(app, "owner")
    token = await token_of(admin)
    first = await admin.post(
        "/admin/rules/new", data=bourre_form(token, name="Strict", must_trump="always")
    )
    second = await admin.post(
        "/admin/rules/new", data=bourre_form(token, name="Loose", cinch_rule="false")
    )
    strict_id = first.headers["location"].split("/")[-1].split("?")[0]
    loose_id = second.headers["location"].split("/")[-1].split("?")[0]
    form = {
        "csrf_token": token,
        "table_name": "Friday",
        "seat_count": "4",
        "ante": "1",
        "turn_seconds": "30",
        "buy_in_min": "20",
        "buy_in_max": "200",
    }
    async with app.router.lifespan_context(app):
        opened = await admin.post(f"/admin/rules/{strict_id}/open", data=form)
        table_path = opened.headers["location"]
        page = await admin.get(f"{table_path}/rules")
        assert page.text.count('data-testid="edit-table"') == 1
        assert "<title>Rules of Friday · " in page.text
        changed = await admin.post(
            f"{table_path}/edit",
            data={**form, "table_name": "Friday loose", "ruleset_id": loose_id, "ante": "2"},
        )
        assert changed.status_code == 303
        page = await admin.get(changed.headers["location"])
        assert "Table changed." in page.text
        assert "House rules of Friday loose" in page.text
        assert "Ante 2 chips · cinch rule: no" in page.text
        bad = await admin.post(f"{table_path}/edit", data={**form, "ante": "0"})
        assert bad.status_code == 422
        assert "Ante must be a whole number from 1 chip to 1000000000 chips." in bad.text
        unchanged = await admin.get(f"{table_path}/rules")
        assert "House rules of Friday loose" in unchanged.text
