"""The admin API: members, chips, the ledger and its export, invites, settings."""

from __future__ import annotations

import csv
import io

import httpx
import pytest
from fastapi import FastAPI

from app.db.models import Role
from app.db.session import Database
from tests.helpers import add_member, found_club, logged_in_client, post, snapshot

ADMIN_GETS = [
    "/api/admin/members",
    "/api/admin/ledger",
    "/api/admin/ledger.csv",
    "/api/admin/club",
    "/api/admin/invites",
    "/api/admin/audit",
]


@pytest.fixture
async def club_setup(app: FastAPI, db: Database) -> dict[str, int]:
    owner = await found_club(db)
    return {
        "owner": owner,
        "ada": await add_member(db, "ada", chips=100),
        "ben": await add_member(db, "ben", chips=20),
        "cleo": await add_member(db, "cleo", role=Role.ADMIN),
    }


def grant_body(
    member_id: int, amount: object = 10, key: str = "grant-0001", **extra: object
) -> dict[str, object]:
    return {
        "member_id": member_id,
        "amount": amount,
        "reason": "Cash in",
        "idempotency_key": key,
        **extra,
    }


async def test_member_cannot_use_admin_routes(
    app: FastAPI, club_setup: dict[str, int], db: Database
) -> None:
    ada = await logged_in_client(app, "ada")
    before = await snapshot(db)
    for path in ADMIN_GETS:
        response = await ada.get(path)
        assert response.status_code == 403, path
        assert response.json()["error"]["code"] == "admin_only"
    granted = await post(ada, "/api/admin/chips/grant", grant_body(club_setup["ada"], 1000))
    assert granted.status_code == 403
    assert granted.json()["error"]["code"] == "admin_only"
    assert await snapshot(db) == before


async def test_anonymous_cannot_use_admin_routes(
    client: httpx.AsyncClient, club_setup: dict[str, int]
) -> None:
    for path in ADMIN_GETS:
        response = await client.get(path)
        assert response.status_code == 401, path
        assert response.json()["error"]["code"] == "not_authenticated"


async def test_grant_and_deduct_move_chips_through_the_bank(
    app: FastAPI, club_setup: dict[str, int]
) -> None:
    owner = await logged_in_client(app, "owner")
    ada = club_setup["ada"]
    granted = await post(owner, "/api/admin/chips/grant", grant_body(ada, 50, "g-000001"))
    assert granted.status_code == 200
    assert granted.json()["balance"] == 150
    assert granted.json()["replayed"] is False
    deducted = await post(owner, "/api/admin/chips/deduct", grant_body(ada, 30, "d-000001"))
    assert deducted.json()["balance"] == 120

    ledger = (await owner.get("/api/admin/ledger", params={"member_id": ada})).json()
    assert [(e["kind"], e["from_account"], e["to_account"], e["amount"]) for e in ledger] == [
        ("deduct", f"member:{ada}", "bank", 30),
        ("grant", "bank", f"member:{ada}", 50),
        ("grant", "bank", f"member:{ada}", 100),
    ]
    assert ledger[0]["actor_id"] == club_setup["owner"]
    assert ledger[0]["reason"] == "Cash in"
    audit = (await owner.get("/api/admin/audit")).json()
    assert audit["ok"] is True
    assert audit["chips_in_circulation"] == 120 + 20


async def test_the_same_idempotency_key_moves_chips_once(
    app: FastAPI, club_setup: dict[str, int], db: Database
) -> None:
    owner = await logged_in_client(app, "owner")
    body = grant_body(club_setup["ben"], 7, "same-key-1")
    first = await post(owner, "/api/admin/chips/grant", body)
    before = await snapshot(db)
    second = await post(owner, "/api/admin/chips/grant", body)
    assert second.status_code == 200
    assert second.json() == {**first.json(), "replayed": True}
    assert await snapshot(db) == before

    conflict = await post(owner, "/api/admin/chips/grant", {**body, "amount": 8})
    assert conflict.status_code == 409
    assert conflict.json()["error"]["code"] == "idempotency_conflict"
    other_member = await post(
        owner, "/api/admin/chips/grant", {**body, "member_id": club_setup["ada"]}
    )
    assert other_member.json()["error"]["code"] == "idempotency_conflict"
    assert await snapshot(db) == before


BAD_MOVEMENTS = [
    ("negative amount", {"amount": -5}, 422, "invalid_input"),
    ("zero amount", {"amount": 0}, 422, "invalid_input"),
    ("amount as text", {"amount": "5"}, 422, "invalid_input"),
    ("fractional amount", {"amount": 2.5}, 422, "invalid_input"),
    ("boolean amount", {"amount": True}, 422, "invalid_input"),
    ("amount over the cap", {"amount": 10**12}, 422, "invalid_input"),
    ("empty reason", {"reason": ""}, 422, "invalid_input"),
    ("reason with a NUL", {"reason": "a\x00b"}, 422, "invalid_input"),
    ("short key", {"idempotency_key": "k"}, 422, "invalid_input"),
    ("unknown field", {"extra": 1}, 422, "invalid_input"),
    ("unknown member", {"member_id": 999_999}, 404, "member_not_found"),
    ("member id too large", {"member_id": 2**40}, 422, "invalid_input"),
]


@pytest.mark.parametrize(
    ("label", "change", "status", "code"), BAD_MOVEMENTS, ids=[b[0] for b in BAD_MOVEMENTS]
)
async def test_bad_chip_movements_change_nothing(
    app: FastAPI,
    club_setup: dict[str, int],
    db: Database,
    label: str,
    change: dict[str, object],
    status: int,
    code: str,
) -> None:
    owner = await logged_in_client(app, "owner")
    before = await snapshot(db)
    for route in ("grant", "deduct"):
        body = {**grant_body(club_setup["ada"], 5, f"bad-{route}-key"), **change}
        response = await post(owner, f"/api/admin/chips/{route}", body)
        assert response.status_code == status, (label, response.text)
        error = response.json()["error"]
        assert error["code"] == code
        assert error["message"]
    assert await snapshot(db) == before


async def test_missing_fields_and_malformed_json_change_nothing(
    app: FastAPI, club_setup: dict[str, int], db: Database
) -> None:
    owner = await logged_in_client(app, "owner")
    before = await snapshot(db)
    missing = await post(owner, "/api/admin/chips/grant", {"member_id": club_setup["ada"]})
    assert missing.status_code == 422
    assert "amount" in missing.json()["error"]["message"] or missing.json()["error"]["details"]
    from tests.helpers import csrf_headers

    malformed = await owner.post(
        "/api/admin/chips/grant",
        content=b"{not json",
        headers={**csrf_headers(owner), "content-type": "application/json"},
    )
    assert malformed.status_code == 422
    assert malformed.json()["error"]["code"] == "invalid_input"
    assert await snapshot(db) == before


async def test_overdraft_is_refused_and_changes_nothing(
    app: FastAPI, club_setup: dict[str, int], db: Database
) -> None:
    owner = await logged_in_client(app, "owner")
    before = await snapshot(db)
    response = await post(
        owner, "/api/admin/chips/deduct", grant_body(club_setup["ben"], 21, "over-0001")
    )
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "insufficient_funds"
    assert error["details"] == {
        "account": f"member:{club_setup['ben']}",
        "balance": 20,
        "needed": 21,
    }
    assert await snapshot(db) == before
    exact = await post(
        owner, "/api/admin/chips/deduct", grant_body(club_setup["ben"], 20, "over-0002")
    )
    assert exact.json()["balance"] == 0


async def test_roles_follow_the_club_hierarchy(app: FastAPI, club_setup: dict[str, int]) -> None:
    owner = await logged_in_client(app, "owner")
    cleo = await logged_in_client(app, "cleo")  # an admin

    made = await post(owner, f"/api/admin/members/{club_setup['ada']}/role", {"role": "admin"})
    assert made.json()["role"] == "admin"
    by_admin = await post(cleo, f"/api/admin/members/{club_setup['ben']}/role", {"role": "admin"})
    assert by_admin.json()["error"]["code"] == "owner_only"
    ban_admin = await post(cleo, f"/api/admin/members/{club_setup['ada']}/ban")
    assert ban_admin.json()["error"]["code"] == "owner_only"
    ban_owner = await post(cleo, f"/api/admin/members/{club_setup['owner']}/ban")
    assert ban_owner.json()["error"]["code"] == "target_is_owner"
    self_demote = await post(
        owner, f"/api/admin/members/{club_setup['owner']}/role", {"role": "member"}
    )
    assert self_demote.json()["error"]["code"] == "cannot_act_on_self"
    to_owner = await post(owner, f"/api/admin/members/{club_setup['ben']}/role", {"role": "owner"})
    assert to_owner.status_code == 422
    ban_member = await post(cleo, f"/api/admin/members/{club_setup['ben']}/ban")
    assert ban_member.json()["status"] == "banned"
    unknown = await post(owner, "/api/admin/members/424242/ban")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "member_not_found"


async def test_member_list_filters(app: FastAPI, club_setup: dict[str, int]) -> None:
    owner = await logged_in_client(app, "owner")
    everyone = (await owner.get("/api/admin/members")).json()
    assert {m["username"]: m["balance"] for m in everyone} == {
        "owner": 0,
        "ada": 100,
        "ben": 20,
        "cleo": 0,
    }
    admins = (await owner.get("/api/admin/members", params={"role": "admin"})).json()
    assert [m["username"] for m in admins] == ["cleo"]
    bad = await owner.get("/api/admin/members", params={"role": "king"})
    assert bad.json()["error"]["code"] == "invalid_input"


async def test_ledger_filters_and_csv_export(app: FastAPI, club_setup: dict[str, int]) -> None:
    owner = await logged_in_client(app, "owner")
    await post(
        owner,
        "/api/admin/chips/grant",
        {**grant_body(club_setup["ben"], 5, "csv-00001"), "reason": '=HYPERLINK("x")'},
    )
    grants = (await owner.get("/api/admin/ledger", params={"kind": "grant"})).json()
    assert len(grants) == 3
    by_owner = (
        await owner.get("/api/admin/ledger", params={"actor_id": club_setup["owner"]})
    ).json()
    assert len(by_owner) == 1
    future = (await owner.get("/api/admin/ledger", params={"since": "2999-01-01T00:00:00"})).json()
    assert future == []
    paged = (await owner.get("/api/admin/ledger", params={"limit": 1, "offset": 1})).json()
    assert len(paged) == 1 and paged[0]["entry_id"] == grants[1]["entry_id"]

    response = await owner.get("/api/admin/ledger.csv", params={"member_id": club_setup["ben"]})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [(r["kind"], r["amount"], r["to_account"]) for r in rows] == [
        ("grant", "5", f"member:{club_setup['ben']}"),
        ("grant", "20", f"member:{club_setup['ben']}"),
    ]
    # A formula typed as a reason is exported as text, not as a live formula.
    assert rows[0]["reason"] == '\'=HYPERLINK("x")'


async def test_member_sees_only_their_own_statement(
    app: FastAPI, club_setup: dict[str, int]
) -> None:
    ada = await logged_in_client(app, "ada")
    mine = (await ada.get("/api/me/ledger")).json()
    assert [e["to_account"] for e in mine] == [f"member:{club_setup['ada']}"]
    assert (await ada.get("/api/me")).json()["balance"] == 100


async def test_club_settings_can_be_changed_by_admins(
    app: FastAPI, client: httpx.AsyncClient, club_setup: dict[str, int]
) -> None:
    owner = await logged_in_client(app, "owner")
    from tests.helpers import csrf_headers

    changed = await owner.patch(
        "/api/admin/club",
        json={"name": "Le Salon", "chip_unit": "jetons", "default_turn_seconds": 45},
        headers=csrf_headers(owner),
    )
    assert changed.status_code == 200
    assert changed.json() == {
        "name": "Le Salon",
        "chip_unit": "jetons",
        "signup_requires_approval": True,
        "default_turn_seconds": 45,
        "members_may_create_tables": False,
        "seed_reveal": "session",
    }
    assert (await client.get("/api/club")).json()["name"] == "Le Salon"
    each_hand = await owner.patch(
        "/api/admin/club", json={"seed_reveal": "hand"}, headers=csrf_headers(owner)
    )
    assert each_hand.json()["seed_reveal"] == "hand"
    unknown = await owner.patch(
        "/api/admin/club", json={"seed_reveal": "never"}, headers=csrf_headers(owner)
    )
    assert unknown.status_code == 422
    bad = await owner.patch(
        "/api/admin/club", json={"default_turn_seconds": 1}, headers=csrf_headers(owner)
    )
    assert bad.json()["error"]["code"] == "invalid_input"
    assert (await client.get("/api/club")).json()["default_turn_seconds"] == 45
