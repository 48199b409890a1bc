"""Every route that takes a client's key behaves one way (app.api.idempotency): a retry with
the same key and content answers exactly as the first time, marked `Idempotent-Replayed:
true`, and changes nothing — even after other changes and a restart; the same key with other
content is 409 `idempotency_conflict`. Real Uvicorn and the live tables."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from app.api.idempotency import REPLAYED_HEADER
from app.config import Settings
from app.db.session import Database
from app.main import create_app
from tests.helpers import snapshot
from tests.tables.harness import Player
from tests.tables.test_seat_ledger import server, setup, sit

KEY_FIELDS = {"idempotency_key", "request_key"}
Route = Callable[[dict[str, Player], int, int], Awaitable[Any]]


async def _grant(players: dict[str, Player], member: int, amount: int) -> Any:
    body = {
        "member_id": member,
        "amount": amount,
        "reason": "Cash in",
        "idempotency_key": "cash-0001",
    }
    return await players["owner"].post("/api/admin/chips/grant", body)


async def _deduct(players: dict[str, Player], member: int, amount: int) -> Any:
    body = {
        "member_id": member,
        "amount": amount,
        "reason": "Cash out",
        "idempotency_key": "out-0001",
    }
    return await players["owner"].post("/api/admin/chips/deduct", body)


async def _seat(players: dict[str, Player], table: int, amount: int) -> Any:
    return await sit(players["ana"], table, amount, "sit-ana-0001")


async def _top_up(players: dict[str, Player], table: int, amount: int) -> Any:
    body = {"amount": amount, "request_key": "topup-ana-0001"}
    return await players["ana"].post(f"/api/tables/{table}/top-up", body)


async def _seat_bot(players: dict[str, Player], table: int, amount: int) -> Any:
    body = {"level": "club", "buy_in": amount, "request_key": "bot-0001"}
    return await players["owner"].post(f"/api/tables/{table}/bots", body)


ROUTES: dict[str, Route] = {
    "/api/tables/{table_id}/bots": _seat_bot,
    "/api/admin/chips/grant": _grant,
    "/api/admin/chips/deduct": _deduct,
    "/api/tables/{table_id}/seat": _seat,
    "/api/tables/{table_id}/top-up": _top_up,
}


def test_every_route_taking_a_key_is_tested_here(settings: Settings) -> None:
    """Read from the API's own description, so a new keyed route cannot be forgotten."""
    document = create_app(settings).openapi()
    schemas = document["components"]["schemas"]
    keyed = set()
    for path, operations in document["paths"].items():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                name = media["schema"].get("$ref", "").rsplit("/", 1)[-1]
                if KEY_FIELDS & set(schemas.get(name, {}).get("properties", {})):
                    keyed.add(path)
    assert keyed == set(ROUTES)


@pytest.mark.parametrize("path", sorted(ROUTES))
async def test_a_retry_answers_as_the_first_time(
    path: str, settings: Settings, db: Database
) -> None:
    table = await setup(db, settings, "ana")
    ana_id = 2  # the club's owner is member 1
    route = ROUTES[path]
    target = table if path.startswith("/api/tables") else ana_id
    async with server(settings, "owner", "ana") as players:
        if path.endswith("top-up"):
            assert (await sit(players["ana"], table, 100, "sit-ana-first")).status_code == 200
        first = await route(players, target, 50)
        assert first.status_code == 200, first.text
        assert first.headers[REPLAYED_HEADER] == "false"
        # Something else changes the member's balance before the retry arrives.
        other = {
            "member_id": ana_id,
            "amount": 5,
            "reason": "Prize",
            "idempotency_key": "prize-0001",
        }
        assert (await players["owner"].post("/api/admin/chips/grant", other)).status_code == 200
        before = await snapshot(db)

        again = await route(players, target, 50)
        assert again.status_code == first.status_code
        assert again.headers[REPLAYED_HEADER] == "true"
        expected = first.json()
        if "replayed" in expected:
            expected["replayed"] = True
        assert again.json() == expected
        assert await snapshot(db) == before

        conflict = await route(players, target, 60)
        assert conflict.status_code == 409
        assert conflict.json()["error"]["code"] == "idempotency_conflict"
        assert await snapshot(db) == before
    async with server(settings, "owner", "ana") as players:  # a new process: the same answer
        restarted = await route(players, target, 50)
        assert restarted.json() == expected
        assert restarted.headers[REPLAYED_HEADER] == "true"
        assert await snapshot(db) == before
