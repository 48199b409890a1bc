"""Small helpers for driving the API like a browser would."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, MemberStatus, Role, User
from app.db.session import Database
from app.services import club, ledger, members
from app.services.tables import TableSpec, create_table

PASSWORD = "correct horse battery"


def csrf_headers(client: httpx.AsyncClient) -> dict[str, str]:
    token = client.cookies.get("salon_csrf")
    return {"X-CSRF-Token": token} if token else {}


async def prime_csrf(client: httpx.AsyncClient) -> str:
    response = await client.get("/api/auth/csrf")
    assert response.status_code == 200
    token: str = response.json()["csrf_token"]
    return token


async def post(client: httpx.AsyncClient, path: str, body: Any = None, **kw: Any) -> httpx.Response:
    """POST as the page's script does: with the CSRF token from the cookie."""
    if "salon_csrf" not in client.cookies:
        await prime_csrf(client)
    return await client.post(path, json=body, headers=csrf_headers(client), **kw)


async def login(
    client: httpx.AsyncClient, username: str, password: str = PASSWORD
) -> httpx.Response:
    """Log in as a login page does: fetch a fresh token first, then post."""
    await prime_csrf(client)
    return await post(client, "/api/auth/login", {"username": username, "password": password})


async def found_club(db: Database, *, approval: bool = True) -> int:
    """A club whose owner is `owner`; returns the owner's id."""
    async with db.transaction() as session:
        the_club, owner = await club.create_club(
            session, name="Test Club", owner_username="owner", owner_password=PASSWORD
        )
        the_club.signup_requires_approval = approval
        return owner.id


async def add_member(
    db: Database,
    username: str,
    *,
    chips: int = 0,
    role: Role = Role.MEMBER,
    status: MemberStatus = MemberStatus.ACTIVE,
) -> int:
    async with db.transaction() as session:
        user = await members.create_user(
            session,
            username=username,
            password=PASSWORD,
            display_name=username.capitalize(),
            role=role,
            status=status,
        )
        if chips:
            await ledger.bank_transfer(
                session,
                member_id=user.id,
                amount=chips,
                grant=True,
                idempotency_key=f"seed:{username}",
                reason="seed",
                actor_id=None,
            )
        return user.id


async def logged_in_client(
    app: FastAPI, username: str, base_url: str = "http://testserver"
) -> httpx.AsyncClient:
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=base_url)
    response = await login(client, username)
    assert response.status_code == 200, response.text
    return client


async def snapshot(db: Database) -> tuple[list[tuple[str, int]], int, int]:
    """Every balance, the number of entries and operations: what 'nothing changed' means."""
    from sqlalchemy import func, select

    from app.db.models import Account, LedgerEntry, LedgerOperation

    async with db.transaction() as session:
        balances = [
            (k, int(b))
            for k, b in (
                await session.execute(select(Account.key, Account.balance).order_by(Account.key))
            ).all()
        ]
        entries = await session.scalar(select(func.count()).select_from(LedgerEntry))
        ops = await session.scalar(select(func.count()).select_from(LedgerOperation))
    return balances, int(entries or 0), int(ops or 0)


async def open_bourre_table(session: AsyncSession, owner: User, name: str) -> GameTable:
    """A four-seat Bourré table with the default house rules, opened by `owner`."""
    spec = TableSpec(
        name=name, game="bourre", rules={}, seat_count=4, buy_in_min=20, buy_in_max=200
    )
    return await create_table(session, owner, spec)
