"""The treasurer's API: exports that parse back to the ledger's numbers, chip requests."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from app.db.models import Account, LedgerEntry
from app.db.session import Database
from app.services import ledger
from tests.helpers import add_member, logged_in_client, post, snapshot
from tests.treasury_scene import TABLE_NAME, Scene, evening

TREASURY_GETS = [
    "/api/admin/treasury/ledger",
    "/api/admin/treasury/ledger.csv",
    "/api/admin/treasury/sessions",
    "/api/admin/treasury/sessions.csv",
    "/api/admin/treasury/settlement",
    "/api/admin/chip-requests",
]


@pytest.fixture
async def scene(app: FastAPI, db: Database) -> Scene:
    return await evening(db)


@asynccontextmanager
async def as_user(app: FastAPI, username: str) -> AsyncIterator[httpx.AsyncClient]:
    client = await logged_in_client(app, username)
    try:
        yield client
    finally:
        await client.aclose()


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("path", TREASURY_GETS)
async def test_members_and_strangers_are_refused(app: FastAPI, scene: Scene, path: str) -> None:
    async with as_user(app, "alice") as member:
        assert (await member.get(path)).status_code == 403
    async with as_user(app, "owner") as admin:
        assert (await admin.get(path)).status_code == 200
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as anon:
        assert (await anon.get(path)).status_code == 401


async def test_the_ledger_csv_parses_back_to_the_ledger(
    app: FastAPI, db: Database, scene: Scene
) -> None:
    async with as_user(app, "owner") as admin:
        response = await admin.get("/api/admin/treasury/ledger.csv")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    rows = _csv(response.text)
    # Every balance rebuilt from the CSV equals the ledger's own balance.
    rebuilt: dict[str, int] = defaultdict(int)
    for row in rows:
        rebuilt[row["from_account"]] -= int(row["amount"])
        rebuilt[row["to_account"]] += int(row["amount"])
    async with db.transaction() as session:
        balances = dict((await session.execute(select(Account.key, Account.balance))).all())
        entry_ids = set((await session.scalars(select(LedgerEntry.id))).all())
    assert {k: v for k, v in rebuilt.items() if v} == {k: v for k, v in balances.items() if v}
    assert {int(row["entry_id"]) for row in rows} == entry_ids
    cash_out = next(r for r in rows if r["kind"] == "cash_out" and r["member"] == "Alice")
    assert (cash_out["from"], cash_out["to"], cash_out["amount"], cash_out["table"]) == (
        f"Alice's stack at '{TABLE_NAME}'",
        "Alice",
        "70",
        TABLE_NAME,
    )
    assert next(r for r in rows if r["kind"] == "settlement")["hand"] == "1"
    assert set(rows[0]) >= {"date_utc", "kind", "from", "to", "amount", "reason", "hand"}


async def test_the_csv_takes_the_pages_filters(app: FastAPI, scene: Scene) -> None:
    query: dict[str, str | int] = {"member_id": scene.bob, "kind": "top_up"}
    async with as_user(app, "owner") as admin:
        listed = (await admin.get("/api/admin/treasury/ledger", params=query)).json()
        exported = _csv((await admin.get("/api/admin/treasury/ledger.csv", params=query)).text)
        nothing = await admin.get(
            "/api/admin/treasury/ledger",
            params={"since": "2000-01-01T00:00:00", "until": "2000-01-02T00:00:00"},
        )
        bad = await admin.get("/api/admin/treasury/ledger", params={"kind": "DROP TABLE"})
    assert listed["total"] == 1 and [r["entry_id"] for r in listed["lines"]] == [
        int(r["entry_id"]) for r in exported
    ]
    assert exported[0]["amount"] == "50" and exported[0]["member"] == "Bob"
    assert nothing.json()["total"] == 0
    assert bad.status_code == 422


async def test_sessions_csv_and_who_pays_whom(app: FastAPI, scene: Scene) -> None:
    async with as_user(app, "owner") as admin:
        rows = _csv((await admin.get("/api/admin/treasury/sessions.csv")).text)
        settlement = (await admin.get("/api/admin/treasury/settlement")).json()
        only_bob = (
            await admin.get("/api/admin/treasury/sessions", params={"member_id": scene.bob})
        ).json()
    nets = {r["member"]: int(r["net"]) for r in rows}
    assert nets == {"Alice": -30, "Bob": 20, "Cyd": 0}
    bob = next(r for r in rows if r["member"] == "Bob")
    assert (bob["bought_in"], bob["cashed_out"], bob["table"]) == ("150", "170", TABLE_NAME)
    assert next(r for r in rows if r["member"] == "Cyd")["end_utc"] == ""
    assert [r["member_name"] for r in only_bob] == ["Bob"]
    received: dict[str, int] = defaultdict(int)
    for t in settlement["transfers"]:
        received[t["payee"]] += t["amount"]
        received[t["payer"]] -= t["amount"]
    house = settlement["house"]
    assert (house["bots_net"], house["in_pots"], house["net"]) == (0, 10, 10)
    owed = {n["name"]: n["net"] for n in settlement["nets"] if n["net"]}
    assert owed | {house["name"]: house["net"]} == dict(received)


async def test_a_member_asks_and_an_admin_approves_once(
    app: FastAPI, db: Database, scene: Scene
) -> None:
    async with as_user(app, "alice") as alice:
        asked = await post(alice, "/api/me/chip-requests", {"amount": 75, "note": "Rebuy"})
        assert asked.status_code == 201, asked.text
        request_id = asked.json()["id"]
        assert asked.json()["status"] == "pending"
        refused = await post(
            alice, f"/api/admin/chip-requests/{request_id}/approve", {"answer": ""}
        )
        assert refused.status_code == 403
    before = await snapshot(db)
    async with as_user(app, "owner") as admin:
        first = await post(admin, f"/api/admin/chip-requests/{request_id}/approve", {})
        again = await post(admin, f"/api/admin/chip-requests/{request_id}/approve", {})
        pending = (await admin.get("/api/admin/chip-requests?status=pending")).json()
    assert first.status_code == again.status_code == 200
    assert first.json()["status"] == "approved" and first.json()["decided_by"] == "owner"
    assert pending == []
    _, entries, operations = await snapshot(db)
    assert (entries, operations) == (before[1] + 1, before[2] + 1)
    async with db.transaction() as session:
        assert await ledger.balance_of(session, ledger.member_account_key(scene.alice)) == 470 + 75
    async with as_user(app, "alice") as alice:
        mine = (await alice.get("/api/me/chip-requests")).json()
    assert [(r["id"], r["status"]) for r in mine] == [(request_id, "approved")]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"amount": 0}, "request_amount_not_positive"),
        ({"amount": 10_000_000}, "request_amount_too_large"),
        ({"amount": 5, "note": "n" * 300}, "request_note_invalid"),
        ({"amount": "5"}, "invalid_input"),
    ],
)
async def test_bad_chip_requests_change_nothing(
    app: FastAPI, db: Database, scene: Scene, body: dict[str, object], code: str
) -> None:
    await add_member(db, "dora")
    async with as_user(app, "dora") as dora:
        response = await post(dora, "/api/me/chip-requests", body)
        assert response.json()["error"]["code"] == code
        assert (await dora.get("/api/me/chip-requests")).json() == []


async def test_the_sessions_csv_adds_up_to_the_ledger_csv(app: FastAPI, scene: Scene) -> None:
    """What the sittings say was bought in and cashed out is exactly what the ledger moved
    between balances and stacks (and back from pots)."""
    async with as_user(app, "owner") as admin:
        sittings = _csv((await admin.get("/api/admin/treasury/sessions.csv")).text)
        lines = _csv((await admin.get("/api/admin/treasury/ledger.csv")).text)

    def moved(*kinds: str) -> int:
        return sum(int(r["amount"]) for r in lines if r["kind"] in kinds)

    assert sum(int(s["bought_in"]) for s in sittings) == moved("buy_in", "top_up") == 350
    assert sum(int(s["cashed_out"]) for s in sittings) == moved("cash_out", "pot_return") == 240
    in_pots = sum(int(r["amount"]) for r in lines if r["to_account"].startswith("pot:")) - sum(
        int(r["amount"]) for r in lines if r["from_account"].startswith("pot:")
    )
    # The nets sum to what is left lying in the pot (10 of Alice's 30).
    assert sum(int(s["net"]) for s in sittings) == -in_pots == -10
    assert sum(int(s["at_table"]) for s in sittings) == 100  # Cyd, still seated
