"""Every id a route reads, from its path, its query, a form or a JSON body, is a whole
number from 1 to 2**31 - 1 written with the digits 0-9. The routes come from the app's own
router table, so a route added later is checked without touching this test.

Before this rule, `POST /admin/members/2147483648/approve` overflowed Postgres' 32-bit
ids: a server error that also dropped the browser's keep-alive connection.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, get_args, get_origin
from urllib.parse import quote

import httpx
from fastapi import FastAPI, params
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIWebSocketRoute, iter_route_contexts
from pydantic import BaseModel
from sqlalchemy import select
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.config import Settings
from app.db.models import GameTable, Invite, User
from app.db.session import Database
from app.main import create_app
from tests.helpers import add_member, csrf_headers, found_club, login, snapshot
from tests.tables.harness import serving

# Past Postgres' integer, past SQLite's, below and at the bottom, "12" in Arabic-Indic
# digits (Python's int() reads it as 12), and no number at all.
BAD_IDS = (str(2**31), str(2**63), "-1", "0", "١٢", "abc")
# Filters that name what they choose, not its id (`?member=12` on the treasurer's pages).
NAMED_IDS = frozenset({"member", "table"})


@dataclass(frozen=True, order=True)
class IdInput:
    where: str  # "path", "query", "form" or "json"
    path: str  # the route's path template
    name: str
    method: str  # an HTTP method, or "WEBSOCKET"
    # The route's other path parameters, filled with a value they accept.
    others: tuple[tuple[str, str], ...] = ()


def _is_id(name: str) -> bool:
    return name == "id" or name.endswith("_id") or name in NAMED_IDS


def _dependants(dependant: Dependant) -> Iterator[Dependant]:
    yield dependant
    for sub in dependant.dependencies:
        yield from _dependants(sub)


def _inputs_of(dependant: Dependant) -> Iterator[tuple[str, str]]:
    for part in _dependants(dependant):
        yield from (("path", p.name) for p in part.path_params)
        yield from (("query", p.name) for p in part.query_params)
        for field in part.body_params:
            model = field.field_info.annotation
            if isinstance(field.field_info, params.Form):
                yield "form", field.name
            elif isinstance(model, type) and issubclass(model, BaseModel):
                yield from (("json", name) for name in model.model_fields)


def _accepted(annotation: object) -> str:
    """A value a path parameter accepts: its first choice, or an id that exists."""
    return str(get_args(annotation)[0]) if get_origin(annotation) is Literal else "1"


def id_inputs(app: FastAPI) -> list[IdInput]:
    """Every id-like input of every route (and its dependencies) in the router table."""
    found: set[IdInput] = set()
    for route in iter_route_contexts(app.routes):
        dependant = getattr(route, "dependant", None)
        if dependant is None:  # the documentation pages and the static files
            continue
        websocket = isinstance(route.original_route, APIWebSocketRoute)
        methods = ["WEBSOCKET"] if websocket else sorted(route.methods or ())
        others = tuple(
            (p.name, _accepted(p.field_info.annotation))
            for part in _dependants(dependant)
            for p in part.path_params
        )
        found |= {
            IdInput(where, route.path_format, name, method, others)
            for where, name in _inputs_of(dependant)
            if _is_id(name)
            for method in methods
        }
    return sorted(found)


def test_the_router_table_shows_the_known_ids(settings: Settings) -> None:
    """Guards the generated test below: it must find the ids we know of, web forms too."""
    found = {(i.where, i.path, i.name) for i in id_inputs(create_app(settings))}
    assert {
        ("path", "/admin/members/{member_id}/{verb}", "member_id"),
        ("form", "/admin/chips", "member_id"),
        ("path", "/tables/{table_id}", "table_id"),
        ("path", "/ws/tables/{table_id}", "table_id"),
        ("path", "/api/admin/members/{member_id}/approve", "member_id"),
        ("path", "/api/admin/invites/{invite_id}/revoke", "invite_id"),
        ("json", "/api/admin/chips/grant", "member_id"),
        ("query", "/api/admin/ledger", "member_id"),
        ("query", "/api/admin/ledger.csv", "actor_id"),
        ("query", "/admin/ledger", "member"),
        ("query", "/admin/sessions", "table"),
        ("path", "/api/tables/{table_id}/seat", "table_id"),
    } <= found


def _url(item: IdInput, value: str) -> str:
    filled = dict(item.others)
    if item.where == "path":
        filled[item.name] = quote(value, safe="")
    return item.path.format(**filled)


def _local_port(response: httpx.Response) -> int:
    port: int = response.extensions["network_stream"].get_extra_info("client_addr")[1]
    return port


async def _refused(client: httpx.AsyncClient, item: IdInput, value: str) -> str | None:
    """Send one bad id; None when it was refused cleanly and the connection lived on."""
    body: dict[str, object] = {}
    if item.where == "query":
        body["params"] = {item.name: value}
    elif item.where == "form":
        body["data"] = {item.name: value}
    elif item.where == "json":
        number = value.isascii() and value.lstrip("-").isdigit()
        body["json"] = {item.name: int(value) if number else value}
    response = await client.request(
        item.method, _url(item, value), headers=csrf_headers(client), **body
    )
    json_answer = response.headers.get("content-type", "").startswith("application/json")
    if response.status_code != 422 or not json_answer:
        return f"{response.status_code} {response.text[:120]!r}"
    error = response.json()["error"]
    fields = [e["field"] for e in error.get("details", {}).get("errors", [])]
    if error["code"] != "invalid_input" or not any(f.endswith(item.name) for f in fields):
        return f"not refused as a bad {item.name}: {error}"
    again = await client.get("/api/me")
    if again.status_code != 200 or _local_port(again) != _local_port(response):
        return f"the connection did not survive: {again.status_code}"
    return None


async def _refused_socket(host: str, client: httpx.AsyncClient, item: IdInput, value: str) -> str:
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    try:
        async with connect(
            f"ws://{host}{_url(item, value)}",
            additional_headers={"Cookie": cookie},
            origin=f"http://{host}",  # type: ignore[arg-type]
        ):
            return "the socket opened"
    except InvalidStatus as refused:
        status = refused.response.status_code
        return "" if status == 403 else f"refused with {status}"


async def _state(db: Database) -> tuple[object, ...]:
    """Balances and ledger, members, invites and tables: what 'nothing changed' means."""
    async with db.transaction() as session:
        users = (await session.execute(select(User.id, User.status, User.role))).all()
        invites = (await session.execute(select(Invite.id, Invite.revoked, Invite.uses))).all()
        tables = (await session.execute(select(GameTable.id, GameTable.status))).all()
    return await snapshot(db), sorted(users), sorted(invites), sorted(tables)


async def test_every_id_refuses_what_is_not_an_id(settings: Settings, db: Database) -> None:
    await found_club(db)
    await add_member(db, "rita", chips=10)
    app = create_app(settings)
    failures: list[str] = []
    async with serving(app) as host, httpx.AsyncClient(base_url=f"http://{host}") as client:
        assert (await login(client, "owner")).status_code == 200
        before = await _state(db)
        for item in id_inputs(app):
            for value in BAD_IDS:
                if item.method == "WEBSOCKET":
                    problem = await _refused_socket(host, client, item, value) or None
                else:
                    problem = await _refused(client, item, value)
                if problem:
                    failures.append(f"{item.method} {item.path} {item.name}={value!r}: {problem}")
        assert await _state(db) == before
    assert not failures, "\n".join(failures)
