"""Seat money across restarts and retries: nothing stranded, nothing doubled, nobody seated
with nothing — and an audit that sees stranded chips and an admin operation that returns
them. Real Uvicorn servers over one database, restarted between steps."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import select

from app.config import Settings
from app.db.models import AccountKind, GameTable, TableSeat, TableStatus, User
from app.db.session import Database
from app.main import create_app
from app.services import ledger
from app.services import tables as table_service
from app.services.audit import club_audit
from app.tables.clock import FakeClock
from tests.helpers import add_member, found_club
from tests.tables.harness import Player, serving

TABLE = {
    "name": "Seats",
    "game": "bourre",
    "seat_count": 4,
    "buy_in_min": 20,
    "buy_in_max": 300,
    "turn_seconds": 30,
}


@asynccontextmanager
async def server(settings: Settings, *names: str) -> AsyncIterator[dict[str, Player]]:
    """A fresh process's worth of app (new actors, versions from the database) with these
    members logged in."""
    app = create_app(settings.model_copy(update={"next_hand_seconds": 3.0}), clock=FakeClock())
    async with serving(app) as host:
        players = {name: Player(host, name) for name in names}
        for player in players.values():
            await player.login()
        try:
            yield players
        finally:
            for player in players.values():
                await player.http.aclose()


async def setup(db: Database, settings: Settings, *members: str) -> int:
    await found_club(db)
    for name in members:
        await add_member(db, name, chips=1000)
    async with server(settings, "owner") as players:
        created = await players["owner"].post("/api/tables", TABLE)
        assert created.status_code == 201, created.text
        return int(created.json()["id"])


async def balance(player: Player) -> int:
    return int((await player.http.get("/api/me")).json()["balance"])


async def sit(player: Player, table_id: int, buy_in: int, key: str) -> Any:
    return await player.post(f"/api/tables/{table_id}/seat", {"buy_in": buy_in, "request_key": key})


async def stand(player: Player, table_id: int) -> dict[str, Any]:
    answer = await player.post(f"/api/tables/{table_id}/stand")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def audit_ok(db: Database) -> bool:
    async with db.transaction() as session:
        return (await club_audit(session)).ok


async def seat_account(db: Database, table_id: int, user: str) -> int:
    async with db.transaction() as session:
        user_id = await session.scalar(select(User.id).where(User.username == user))
        assert user_id is not None
        return await ledger.balance_of(session, table_service.seat_key(table_id, user_id))


async def test_standing_up_after_a_restart_returns_the_chips(
    settings: Settings, db: Database
) -> None:
    table_id = await setup(db, settings, "ana")
    for first, second in [(150, 150), (100, 120)]:
        async with server(settings, "ana") as p:
            assert (await sit(p["ana"], table_id, first, f"sit-{first}-a")).status_code == 200
            assert await stand(p["ana"], table_id) == {"left": True, "returned": first}
        async with server(settings, "ana") as p:  # a restart: table versions start again
            answer = await sit(p["ana"], table_id, second, f"sit-{second}-b")
            assert answer.status_code == 200, answer.text
            assert await stand(p["ana"], table_id) == {"left": True, "returned": second}
            assert await balance(p["ana"]) == 1000
        assert await seat_account(db, table_id, "ana") == 0
        assert await audit_ok(db)


async def test_a_retried_top_up_answers_exactly_as_the_first(
    settings: Settings, db: Database
) -> None:
    table_id = await setup(db, settings, "ana")
    async with server(settings, "ana") as p:
        ana = p["ana"]
        assert (await sit(ana, table_id, 100, "sit-ana-0001")).status_code == 200
        body = {"amount": 50, "request_key": "topup-ana-0001"}
        path = f"/api/tables/{table_id}/top-up"
        answers = await asyncio.gather(ana.post(path, body), ana.post(path, body))
        assert [a.status_code for a in answers] == [200, 200]
        assert [a.json() for a in answers] == [{"stack": 150}, {"stack": 150}]
        later = await ana.post(path, body)
        assert later.json() == {"stack": 150}
        assert await balance(ana) == 850
        other = await ana.post(path, {"amount": 60, "request_key": "topup-ana-0001"})
        assert other.status_code == 409 and other.json()["error"]["code"] == "idempotency_conflict"
        assert await balance(ana) == 850
    async with server(settings, "ana") as p:  # and after a restart
        again = await p["ana"].post(path, body)
        assert again.json() == {"stack": 150}
        assert await balance(p["ana"]) == 850
    assert await seat_account(db, table_id, "ana") == 150


async def test_a_reused_seat_key_never_seats_anyone_with_nothing(
    settings: Settings, db: Database
) -> None:
    table_id = await setup(db, settings, "ana")
    async with server(settings, "ana") as p:
        ana = p["ana"]
        first = await sit(ana, table_id, 100, "sit-ana-0001")
        assert first.status_code == 200
        assert (await sit(ana, table_id, 100, "sit-ana-0001")).json() == first.json()
        await stand(ana, table_id)
        retry = await sit(ana, table_id, 100, "sit-ana-0001")
        assert retry.status_code == 200 and retry.json() == first.json()
        conflict = await sit(ana, table_id, 120, "sit-ana-0001")
        assert conflict.status_code == 409
        assert conflict.json()["error"]["code"] == "idempotency_conflict"
        async with db.transaction() as session:
            seats = (await session.scalars(select(TableSeat))).all()
        assert seats == []  # the retry did not seat her again, with or without chips
        assert await balance(ana) == 1000
        fresh = await sit(ana, table_id, 100, "sit-ana-0002")
        assert fresh.status_code == 200
        assert await balance(ana) == 900
        assert await seat_account(db, table_id, "ana") == 100


async def _strand(db: Database, table_id: int, user: str, chips: int) -> str:
    """What the old cash-out key did: chips left in a seat account with no seat."""
    async with db.transaction() as session:
        user_id = await session.scalar(select(User.id).where(User.username == user))
        assert user_id is not None
        key = table_service.seat_key(table_id, user_id)
        await ledger.open_account(session, key, AccountKind.SEAT, user_id)
        await ledger.post(
            session,
            idempotency_key=f"test-strand-{key}",
            kind="buy_in",
            reason="stranded by a test",
            actor_id=user_id,
            movements=[ledger.Movement(ledger.member_account_key(user_id), key, chips)],
        )
        return key


async def test_the_audit_finds_stranded_chips_and_an_admin_returns_them(
    settings: Settings, db: Database
) -> None:
    table_id = await setup(db, settings, "ana")
    account = await _strand(db, table_id, "ana", 150)
    assert not await audit_ok(db)
    async with server(settings, "owner", "ana") as p:
        owner, ana = p["owner"], p["ana"]
        report = (await owner.http.get("/api/admin/audit")).json()
        assert not report["ok"]
        assert report["stranded"] == [
            {
                "account": account,
                "table_id": table_id,
                "member_id": report["stranded"][0]["member_id"],
                "chips": 150,
            }
        ]
        assert any("stranded" in problem for problem in report["problems"])
        refused = await ana.post("/api/admin/stranded/return", {"account": account})
        assert refused.status_code == 403
        returned = await owner.post("/api/admin/stranded/return", {"account": account})
        assert returned.status_code == 200, returned.text
        assert returned.json() == {"account": account, "chips": 150}
        assert await balance(ana) == 1000
        again = await owner.post("/api/admin/stranded/return", {"account": account})
        assert again.status_code == 404 and again.json()["error"]["code"] == "not_stranded"
        assert (await owner.http.get("/api/admin/audit")).json()["ok"]
    assert await audit_ok(db)
    async with db.transaction() as session:
        rows = await ledger.entries(session, ledger.EntryFilter(kind="stranded_return"))
    assert [(r.from_account, r.amount) for r in rows] == [(account, 150)]


async def test_sitting_down_again_over_stranded_chips_returns_them_first(
    settings: Settings, db: Database
) -> None:
    table_id = await setup(db, settings, "ana")
    await _strand(db, table_id, "ana", 150)
    async with server(settings, "ana") as p:
        assert (await sit(p["ana"], table_id, 100, "sit-ana-0009")).status_code == 200
        table = (await p["ana"].http.get(f"/api/tables/{table_id}")).json()
        assert [s["stack"] for s in table["seats"]] == [100]
        assert await balance(p["ana"]) == 900
    assert await audit_ok(db)


async def test_a_closed_tables_pot_with_chips_is_stranded(settings: Settings, db: Database) -> None:
    table_id = await setup(db, settings, "ana")
    async with db.transaction() as session:
        table = await session.get(GameTable, table_id)
        assert table is not None
        await ledger.bank_transfer(
            session,
            member_id=1,
            amount=30,
            grant=True,
            idempotency_key="g1",
            reason="test",
            actor_id=None,
        )
        await ledger.post(
            session,
            idempotency_key="test-pot",
            kind="test",
            reason="chips left in a pot",
            actor_id=None,
            movements=[ledger.Movement("member:1", table_service.pot_key(table_id), 30)],
        )
        table.status = TableStatus.CLOSED
    async with db.transaction() as session:
        report = await club_audit(session)
    assert [(s.account, s.user_id, s.chips) for s in report.stranded] == [
        (table_service.pot_key(table_id), None, 30)
    ]
