"""Tables opened from the club's house-rule configurations: a copy of the rules taken at
opening, the stakes set over it, and edits allowed only before the first hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app.config import Settings
from app.db.models import Role, RuleSet
from app.db.session import Database
from app.main import create_app
from app.tables.clock import FakeClock
from tests.helpers import add_member, csrf_headers, found_club
from tests.tables.harness import Player, serving

CAJUN = {"must_trump": "always", "double_ante": True, "ante": 2}


@pytest.fixture
async def host(settings: Settings, db: Database) -> AsyncIterator[tuple[str, FakeClock]]:
    await found_club(db)
    for name in ("ana", "bob"):
        await add_member(db, name, chips=1000)
    await add_member(db, "ada", role=Role.ADMIN)
    clock = FakeClock()
    app = create_app(settings.model_copy(update={"next_hand_seconds": 3.0}), clock=clock)
    async with serving(app) as address:
        yield address, clock


async def player(address: str, name: str) -> Player:
    found = Player(address, name)
    await found.login()
    return found


async def patch(who: Player, path: str, body: Any) -> httpx.Response:
    return await who.http.patch(path, json=body, headers=csrf_headers(who.http))


async def open_with(admin: Player, ruleset_id: int, **extra: Any) -> dict[str, Any]:
    body = {
        "name": "Cajun night",
        "game": "bourre",
        "ruleset_id": ruleset_id,
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
        **extra,
    }
    response = await admin.post("/api/tables", body)
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    return table


async def a_ruleset(admin: Player, options: dict[str, Any], name: str = "Cajun") -> int:
    made = await admin.post(
        "/api/admin/rulesets", {"game": "bourre", "name": name, "options": options}
    )
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


async def test_a_table_keeps_the_rules_it_was_opened_with(
    host: tuple[str, FakeClock],
) -> None:
    address, _ = host
    admin = await player(address, "ada")
    ruleset_id = await a_ruleset(admin, CAJUN)
    table = await open_with(admin, ruleset_id, rules={"ante": 5})
    assert table["rules"] == {"must_trump": "always", "double_ante": True, "ante": 5}
    assert table["ruleset_id"] == ruleset_id
    # The lobby shows the stakes on their own line: the summary says the house rules.
    assert table["rules_summary"] == "double ante: yes · must trump: always"

    edited = await patch(
        admin, f"/api/admin/rulesets/{ruleset_id}", {"options": {"cinch_rule": False}}
    )
    assert edited.status_code == 200
    again = (await admin.http.get(f"/api/tables/{table['id']}")).json()
    assert again["rules"] == table["rules"]
    page = await admin.http.get(f"/tables/{table['id']}/rules")
    assert "Ante 5 chips · double ante: yes · must trump: always" in page.text
    assert "later changes to that configuration do not apply" in page.text
    # Only stakes may be set over a configuration.
    refused = await admin.post(
        "/api/tables",
        {
            "name": "X",
            "game": "bourre",
            "ruleset_id": ruleset_id,
            "rules": {"cinch_rule": True},
            "seat_count": 4,
            "buy_in_min": 20,
            "buy_in_max": 200,
        },
    )
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_a_stake"
    await admin.http.aclose()


async def test_archived_configuration_opens_no_table(host: tuple[str, FakeClock]) -> None:
    address, _ = host
    admin = await player(address, "ada")
    ruleset_id = await a_ruleset(admin, CAJUN)
    await admin.post(f"/api/admin/rulesets/{ruleset_id}/archive")
    refused = await admin.post(
        "/api/tables",
        {
            "name": "X",
            "game": "bourre",
            "ruleset_id": ruleset_id,
            "seat_count": 4,
            "buy_in_min": 20,
            "buy_in_max": 200,
        },
    )
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "ruleset_archived"
    await admin.http.aclose()


async def test_a_table_is_edited_before_its_first_hand_only(
    host: tuple[str, FakeClock],
) -> None:
    address, clock = host
    admin = await player(address, "ada")
    ruleset_id = await a_ruleset(admin, CAJUN)
    other = (
        await admin.post(
            "/api/admin/rulesets",
            {"game": "bourre", "name": "Friendly", "options": {"allow_throw_off": True}},
        )
    ).json()["id"]
    table = await open_with(admin, ruleset_id)
    path = f"/api/tables/{table['id']}"
    edited = await patch(
        admin,
        path,
        {"name": "Friendly night", "ruleset_id": other, "stakes": {"ante": 3}, "buy_in_max": 300},
    )
    assert edited.status_code == 200, edited.text
    body = edited.json()
    assert body["name"] == "Friendly night"
    assert body["rules"] == {"allow_throw_off": True, "ante": 3}
    assert (body["ruleset_id"], body["buy_in_max"]) == (other, 300)

    not_a_stake = await patch(admin, path, {"stakes": {"renege_penalty": 2}})
    assert not_a_stake.status_code == 422
    assert not_a_stake.json()["error"]["code"] == "not_a_stake"

    ana, bob = await player(address, "ana"), await player(address, "bob")
    member_edit = await patch(ana, path, {"name": "Mine"})
    assert member_edit.status_code == 403
    assert member_edit.json()["error"]["code"] == "not_table_owner"
    for n, seated in enumerate((ana, bob)):
        sat = await seated.post(
            f"{path}/seat", {"seat": n, "buy_in": 100, "request_key": f"sit-{n}-00001"}
        )
        assert sat.status_code == 200, sat.text
    while_seated = await patch(admin, path, {"stakes": {"ante": 1}})
    assert while_seated.status_code == 409
    assert while_seated.json()["error"]["code"] == "table_has_players"

    await ana.open(table["id"])
    await clock.advance(3)
    await ana.wait_for(lambda p: p.hand is not None)
    assert ana.view["table"]["rules"] == {"allow_throw_off": True, "ante": 3}
    after = await patch(admin, path, {"name": "Too late"})
    assert after.status_code == 409
    assert after.json()["error"]["code"] == "table_already_dealt"
    assert (await admin.http.get(path)).json()["name"] == "Friendly night"
    for who in (admin, ana, bob):
        await who.close()
        await who.http.aclose()


async def test_a_table_deals_on_when_its_configuration_stops_validating(
    host: tuple[str, FakeClock], db: Database
) -> None:
    """The table took a copy of the rules when it opened: a configuration that no longer
    validates (an option a later version dropped) changes nothing at it, but no table is
    switched to it, nor given new stakes over it, until an admin fixes it."""
    address, clock = host
    admin = await player(address, "ada")
    ruleset_id = await a_ruleset(admin, CAJUN)
    table = await open_with(admin, ruleset_id)
    other = await open_with(admin, await a_ruleset(admin, {"allow_throw_off": True}, "Friendly"))
    async with db.transaction() as session:
        await session.execute(
            update(RuleSet).where(RuleSet.id == ruleset_id).values(options={"jokers": 1})
        )
    path = f"/api/tables/{table['id']}"
    for where, body in (
        (other["id"], {"ruleset_id": ruleset_id}),
        (table["id"], {"stakes": {"ante": 3}}),
    ):
        refused = await patch(admin, f"/api/tables/{where}", body)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["code"] == "ruleset_invalid"
    assert (await admin.http.get(f"/api/tables/{other['id']}")).json()["rules"] == {
        "allow_throw_off": True
    }

    ana, bob = await player(address, "ana"), await player(address, "bob")
    for n, seated in enumerate((ana, bob)):
        sat = await seated.post(
            f"{path}/seat", {"seat": n, "buy_in": 100, "request_key": f"sit-{n}-00001"}
        )
        assert sat.status_code == 200, sat.text
    await ana.open(table["id"])
    await clock.advance(3)
    await ana.wait_for(lambda p: p.hand is not None)
    assert ana.view["table"]["rules"] == CAJUN
    for who in (admin, ana, bob):
        await who.close()
        await who.http.aclose()
