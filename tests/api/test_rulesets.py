"""The club's house-rule configurations over REST: list, create, edit, clone, archive,
the engine's validator behind each, presets read-only, admins only."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.db.models import Role
from app.db.session import Database
from tests.helpers import add_member, csrf_headers, found_club, logged_in_client, post

BASE = "/api/admin/rulesets"


@pytest.fixture
async def admin(app: FastAPI, db: Database) -> httpx.AsyncClient:
    await found_club(db)
    await add_member(db, "ada", role=Role.ADMIN)
    await add_member(db, "mel")
    return await logged_in_client(app, "ada")


async def patch(client: httpx.AsyncClient, path: str, body: Any) -> httpx.Response:
    return await client.patch(path, json=body, headers=csrf_headers(client))


async def create(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await post(client, BASE, {"game": "bourre", "name": "Cajun", **body})
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


async def test_create_stores_only_what_differs_and_lists_it(admin: httpx.AsyncClient) -> None:
    made = await create(
        admin,
        name="Thibodaux",
        description="Tuesday nights",
        options={"ante": 2, "must_trump": "always", "cinch_rule": True, "max_discard": 3},
    )
    assert made["options"] == {"ante": 2, "must_trump": "always", "max_discard": 3}
    assert made["summary"] == "Ante 2 chips · most cards exchanged: 3 · must trump: always"
    listed = (await admin.get(BASE)).json()
    assert [r["name"] for r in listed["rulesets"]] == ["Thibodaux"]
    by_label = {line["label"]: line for line in listed["rulesets"][0]["rules"]}
    assert by_label["Most cards exchanged"] == {
        "label": "Most cards exchanged",
        "words": "3",
        "section": "§4",
        "changed": True,
    }
    assert by_label["Cinch rule"]["changed"] is False


async def test_bad_value_is_refused_on_its_field_and_nothing_is_stored(
    admin: httpx.AsyncClient,
) -> None:
    response = await post(admin, BASE, {"game": "bourre", "name": "X", "options": {"ante": 0}})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_rules"
    assert error["details"]["field"] == "ante"
    assert error["details"]["reason"] == "bad_option"
    unknown = await post(admin, BASE, {"game": "bourre", "name": "X", "options": {"jokers": 2}})
    assert unknown.json()["error"]["details"] == {
        "field": "jokers",
        "fields": ["jokers"],
        "reason": "unknown_option",
    }
    assert (await admin.get(BASE)).json()["rulesets"] == []


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"ante": 2**62}, "Ante must be a whole number from 1 chip to 1000000000 chips."),
        (
            {"pot_limit": 10**21},
            "Pot limit must be a whole number from 1 chip to 1000000000 chips.",
        ),
        ({"ante": 1.5}, "Ante must be a whole number from 1 chip to 1000000000 chips."),
        ({"ante": [1]}, "Ante must be a whole number from 1 chip to 1000000000 chips."),
    ],
)
async def test_a_value_no_table_could_use_is_refused_naming_its_option(
    admin: httpx.AsyncClient, options: dict[str, Any], words: str
) -> None:
    """The engine judges every value and names the option (a union of JSON types in the
    request's schema used to answer "options.ante.bool" for 1.5)."""
    response = await post(admin, BASE, {"game": "bourre", "name": "X", "options": options})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_rules"
    assert error["details"]["field"] == next(iter(options))
    assert error["message"] == words
    assert (await admin.get(BASE)).json()["rulesets"] == []


async def test_refused_combination_is_explained_on_both_fields(admin: httpx.AsyncClient) -> None:
    response = await post(
        admin,
        BASE,
        {
            "game": "bourre",
            "name": "X",
            "options": {"declare": "simultaneous", "draw_with_declare": True},
        },
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["details"]["reason"] == "conflicting_options"
    assert error["details"]["fields"] == ["declare", "draw_with_declare"]
    assert "“Play or pass: committed secretly, all at once”" in error["message"]
    assert "would reveal a commitment" in error["message"]


async def test_edit_clone_archive_restore(admin: httpx.AsyncClient) -> None:
    made = await create(admin, options={"double_ante": True})
    path = f"{BASE}/{made['id']}"
    edited = await patch(admin, path, {"name": "Cajun II", "options": {"second_chance": True}})
    assert edited.status_code == 200, edited.text
    assert edited.json()["options"] == {"second_chance": True}
    refused = await patch(
        admin, path, {"options": {"must_trump": "always", "allow_throw_off": True}}
    )
    assert refused.json()["error"]["details"]["reason"] == "conflicting_options"
    assert (await admin.get(path)).json()["options"] == {"second_chance": True}

    clone = await post(admin, f"{path}/clone", {})
    assert clone.status_code == 201
    assert clone.json()["name"] == "Cajun II (copy)"
    assert clone.json()["options"] == {"second_chance": True}
    again = await post(admin, f"{path}/clone", {})
    assert again.json()["name"] == "Cajun II (copy 2)"
    taken = await post(admin, f"{path}/clone", {"name": "Cajun II"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "ruleset_name_taken"

    archived = await post(admin, f"{path}/archive")
    assert archived.json()["archived"] is True
    assert (await patch(admin, path, {"name": "Y"})).json()["error"]["code"] == "ruleset_archived"
    active = (await admin.get(BASE, params={"archived": "false"})).json()["rulesets"]
    assert made["id"] not in [r["id"] for r in active]
    assert made["id"] in [r["id"] for r in (await admin.get(BASE)).json()["rulesets"]]
    members_list = (await admin.get("/api/rulesets")).json()
    assert made["id"] not in [r["id"] for r in members_list]
    restored = await post(admin, f"{path}/restore")
    assert restored.json()["archived"] is False


async def test_presets_are_read_only_starting_points(admin: httpx.AsyncClient) -> None:
    listed = (await admin.get(BASE, params={"game": "bourre"})).json()["presets"]
    indiana = next(p for p in listed if p["preset"] == "indiana_four_card")
    assert indiana["read_only"] is True and indiana["id"] is None
    path = f"{BASE}/presets/bourre/indiana_four_card"
    refused = await patch(admin, path, {"name": "Mine"})
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "preset_read_only"
    clone = await post(admin, f"{path}/clone", {"name": "Hoosier"})
    assert clone.status_code == 201
    assert clone.json()["options"] == indiana["options"]
    assert clone.json()["read_only"] is False


async def test_option_schema_has_every_option_with_its_words(admin: httpx.AsyncClient) -> None:
    schema = (await admin.get(f"{BASE}/schema/bourre")).json()
    by_name = {f["name"]: f for f in schema}
    assert by_name["trump_card"]["section"] == "§3"
    assert by_name["trump_card"]["default"] == "dealer_keeps"
    assert [c[0] for c in by_name["trump_card"]["choices"]] == [
        "dealer_keeps",
        "dead",
        "dealer_may_take",
    ]
    assert by_name["max_discard"]["minimum"] == 0 and by_name["max_discard"]["maximum"] == 5
    assert all(f["label"] and f["explanation"] for f in schema)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", BASE),
        ("POST", BASE),
        ("GET", f"{BASE}/schema/bourre"),
        ("PATCH", f"{BASE}/1"),
        ("POST", f"{BASE}/1/clone"),
        ("POST", f"{BASE}/1/archive"),
        ("POST", f"{BASE}/presets/bourre/friendly/clone"),
    ],
)
async def test_members_and_strangers_are_refused(
    app: FastAPI, admin: httpx.AsyncClient, client: httpx.AsyncClient, method: str, path: str
) -> None:
    member = await logged_in_client(app, "mel")
    body = {"game": "bourre", "name": "Mine", "options": {}} if path == BASE else {}
    answer = await member.request(method, path, json=body, headers=csrf_headers(member))
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "admin_only"
    await client.get("/api/auth/csrf")
    stranger = await client.request(method, path, json=body, headers=csrf_headers(client))
    assert stranger.status_code == 401
    assert (await admin.get(BASE)).json()["rulesets"] == []


async def test_members_read_the_active_configurations(
    app: FastAPI, admin: httpx.AsyncClient
) -> None:
    made = await create(admin, options={"ante_mode": "dealer_for_all"})
    member = await logged_in_client(app, "mel")
    listed = (await member.get("/api/rulesets")).json()
    assert listed == [
        {
            "id": made["id"],
            "game": "bourre",
            "name": "Cajun",
            "summary": made["summary"],
            "stakes": {"ante": 1, "pot_limit": None},
        }
    ]
    assert "who antes: the dealer, for everyone" in made["summary"]
