"""The admin routes' guards, checked from the router table itself: a route added later
under /admin or /api/admin is walked here without anyone listing it.

Every such route refuses anonymous callers and members (and changes nothing), and every
unsafe one refuses a post without the CSRF token, even from an admin.
"""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts
from sqlalchemy import func, select

from app.db.models import AdminAction, MemberStatus
from app.db.session import Database
from tests.helpers import add_member, csrf_headers, found_club, logged_in_client, snapshot

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
PARAM = re.compile(r"\{[^}]+\}")


def admin_routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every route under /admin and /api/admin, path parameters as 1."""
    found = []
    for route in iter_route_contexts(app.routes):
        if not isinstance(route.original_route, APIRoute):
            continue
        if route.path_format == "/admin" or route.path_format.startswith(
            ("/admin/", "/api/admin/")
        ):
            path = PARAM.sub("1", route.path_format)
            found += [(method, path) for method in sorted(route.methods or ())]
    return found


async def _changes(db: Database) -> tuple[object, ...]:
    """What 'nothing changed' means here: the ledger, the audit log, the members."""
    async with db.transaction() as session:
        rows = await session.scalar(select(func.count(AdminAction.id)))
    return (await snapshot(db), rows)


async def _club(db: Database) -> None:
    await found_club(db)
    await add_member(db, "ada", chips=100)
    await add_member(db, "pia", status=MemberStatus.PENDING)


async def test_the_walk_sees_the_admin_routes(app: FastAPI) -> None:
    routes = admin_routes(app)
    for expected in [
        ("GET", "/admin"),
        ("GET", "/admin/log"),
        ("POST", "/admin/chips"),
        ("POST", "/admin/members/1/1"),
        ("GET", "/api/admin/log.csv"),
        ("POST", "/api/admin/chat/1/remove"),
        ("PATCH", "/api/admin/club"),
    ]:
        assert expected in routes
    assert len(routes) > 30


async def test_every_admin_route_refuses_anonymous_callers(app: FastAPI, db: Database) -> None:
    await _club(db)
    before = await _changes(db)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as anonymous:
        # A valid pre-login CSRF token: the refusal must come from the missing login.
        token = (await anonymous.get("/api/auth/csrf")).json()["csrf_token"]
        for method, path in admin_routes(app):
            response = await anonymous.request(
                method, path, headers={"X-CSRF-Token": token}, json={}
            )
            if method == "GET" and not path.startswith("/api/"):
                assert response.status_code == 303, (method, path)
                assert response.headers["location"] == "/login", (method, path)
            else:
                assert response.status_code == 401, (method, path, response.text)
                assert response.json()["error"]["code"] == "not_authenticated"
    assert await _changes(db) == before


async def test_every_admin_route_refuses_members(app: FastAPI, db: Database) -> None:
    await _club(db)
    before = await _changes(db)
    member = await logged_in_client(app, "ada")
    try:
        for method, path in admin_routes(app):
            response = await member.request(method, path, headers=csrf_headers(member), json={})
            assert response.status_code == 403, (method, path, response.text)
            assert response.json()["error"]["code"] == "admin_only", (method, path)
    finally:
        await member.aclose()
    assert await _changes(db) == before


async def test_every_unsafe_admin_route_needs_the_csrf_token(app: FastAPI, db: Database) -> None:
    """Even the owner's own browser: a form or call without the token (as a forged one
    from another site would be) is refused before anything is read or changed."""
    await _club(db)
    before = await _changes(db)
    owner = await logged_in_client(app, "owner")
    unsafe = [(m, p) for m, p in admin_routes(app) if m in UNSAFE]
    assert any(p.startswith("/admin/") for _, p in unsafe)
    try:
        for method, path in unsafe:
            # The form's fields, all but the token.
            response = await owner.request(method, path, data={"member_id": "2", "amount": "5"})
            assert response.status_code == 403, (method, path, response.text)
            assert response.json()["error"]["code"] == "csrf_failed", (method, path)
    finally:
        await owner.aclose()
    assert await _changes(db) == before
