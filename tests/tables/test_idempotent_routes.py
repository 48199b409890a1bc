"""Every route that takes a client's key behaves one way (app.api.idempotency): a retry with
the same key and content answers exactly as the first time, marked `Idempotent-Replayed:
true`, and changes nothing — even after other changes and a restart; the same key with other
content is 409 `idempotency_conflict`. Real Uvicorn and the live tables."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from httpx import Response

from app.api.idempotency import REPLAYED_HEADER
from app.config import Settings
from app.db.session import Database
from app.main import create_app
from app.services import tables as table_service
from app.tables.commands import TopUp
from tests.helpers import csrf_headers, snapshot
from tests.tables.harness import Player, deal, open_room, watch
from tests.tables.test_seat_ledger import TABLE, server, setup, sit

KEY_FIELDS = {"idempotency_key", "request_key"}
# The admin pages' forms carry a key made when the page was drawn.
FORM_KEY_FIELDS = {"chip_key", "bot_key"}
Route = Callable[[dict[str, Player], int, int], Awaitable[Any]]
Retry = Callable[[], Awaitable[Response]]
ANA = 2  # the club's owner is member 1


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


def _keyed_paths(document: dict[str, Any], fields: set[str]) -> set[str]:
    """The paths whose request body (JSON or form) has one of `fields`."""
    schemas = document["components"]["schemas"]
    keyed = set()
    for path, operations in document["paths"].items():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                name = media["schema"].get("$ref", "").rsplit("/", 1)[-1]
                if fields & set(schemas.get(name, {}).get("properties", {})):
                    keyed.add(path)
    return keyed


def test_every_route_taking_a_key_is_tested_here(settings: Settings) -> None:
    """Read from the API's own description, so a new keyed route cannot be forgotten."""
    assert _keyed_paths(create_app(settings).openapi(), KEY_FIELDS) == set(ROUTES)


@pytest.mark.parametrize("path", sorted(ROUTES))
async def test_a_retry_answers_as_the_first_time(
    path: str, settings: Settings, db: Database
) -> None:
    table = await setup(db, settings, "ana")
    ana_id = ANA
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


# After the first request, each of these changes the state so that the same request with a
# new key is refused; a retry with the first key must still get the first answer, and move
# nothing. (A grant has no such state: the bank may always give.)
Scenario = Callable[[Settings, Database], Awaitable[None]]


async def _answers_as_before(db: Database, first: Response, retry: Retry) -> None:
    before = await snapshot(db)
    again = await retry()
    assert again.status_code == first.status_code == 200, again.text
    assert again.headers[REPLAYED_HEADER] == "true"
    expected = first.json()
    if "replayed" in expected:
        expected["replayed"] = True
    assert again.json() == expected
    assert await snapshot(db) == before


def _refused(answer: Response, code: str) -> None:
    assert answer.status_code == 409, answer.text
    assert answer.json()["error"]["code"] == code


async def _close(owner: Player, table: int) -> None:
    closed = await owner.post(f"/api/tables/{table}/close")
    assert closed.status_code == 200, closed.text


async def _deduct_then_balance_spent(settings: Settings, db: Database) -> None:
    await setup(db, settings, "ana")
    async with server(settings, "owner", "ana") as players:
        first = await _deduct(players, ANA, 50)
        rest = {
            "member_id": ANA,
            "amount": 950,
            "reason": "Cash out",
            "idempotency_key": "out-rest",
        }
        assert (await players["owner"].post("/api/admin/chips/deduct", rest)).status_code == 200
        fresh = await players["owner"].post(
            "/api/admin/chips/deduct", rest | {"amount": 50, "idempotency_key": "out-more"}
        )
        _refused(fresh, "insufficient_funds")
        await _answers_as_before(db, first, lambda: _deduct(players, ANA, 50))


async def _seat_then_table_closed(settings: Settings, db: Database) -> None:
    table = await setup(db, settings, "ana")
    async with server(settings, "owner", "ana") as players:
        first = await _seat(players, table, 50)
        await _close(players["owner"], table)
        _refused(await sit(players["ana"], table, 50, "sit-ana-0002"), "table_closed")
        await _answers_as_before(db, first, lambda: _seat(players, table, 50))


async def _top_up_then_hand_dealt(settings: Settings, db: Database) -> None:
    async with open_room(settings, db, TABLE, ["ana", "bob"], buy_in=100) as room:
        await watch(room)
        players = {"ana": room.players[0]}
        first = await _top_up(players, room.table_id, 50)
        await deal(room)
        fresh = await room.players[0].post(
            f"/api/tables/{room.table_id}/top-up", {"amount": 50, "request_key": "topup-0002"}
        )
        _refused(fresh, "hand_in_progress")
        await _answers_as_before(db, first, lambda: _top_up(players, room.table_id, 50))
        # The table looks first too, for a retry queued while its first request was
        # being carried out (and the hand dealt in between).
        before = await snapshot(db)
        actor = room.app.state.tables.actors[room.table_id]
        retried = await actor.call(TopUp(ANA, 50, "topup-ana-0001"))
        assert retried == table_service.Reply(first.json(), replayed=True)
        assert await snapshot(db) == before


async def _bot_then_table_closed(settings: Settings, db: Database) -> None:
    table = await setup(db, settings)
    async with server(settings, "owner") as players:
        first = await _seat_bot(players, table, 50)
        await _close(players["owner"], table)
        fresh = await players["owner"].post(
            f"/api/tables/{table}/bots", {"level": "club", "request_key": "bot-0002"}
        )
        _refused(fresh, "table_closed")
        await _answers_as_before(db, first, lambda: _seat_bot(players, table, 50))


async def _form(player: Player, path: str, fields: dict[str, str]) -> Response:
    return await player.http.post(path, data=fields, headers=csrf_headers(player.http))


def _notice(page: Response) -> str:
    found = re.search(r'<p class="ok" role="status">([^<]*)</p>', page.text)
    assert found, page.text[:2000]
    return found.group(1)


async def _page_chips_then_balance_spent(settings: Settings, db: Database) -> None:
    await setup(db, settings, "ana")
    async with server(settings, "owner") as players:
        owner = players["owner"]
        fields = {
            "member_id": str(ANA),
            "amount": "50",
            "reason": "Cash out",
            "direction": "deduct",
            "chip_key": "form-key-0001",
        }
        assert _notice(await _form(owner, "/admin/chips", fields)) == "Deducted 50 from ana."
        rest = fields | {"amount": "950", "chip_key": "form-key-rest"}
        assert (await _form(owner, "/admin/chips", rest)).status_code == 200
        fresh = await _form(owner, "/admin/chips", fields | {"chip_key": "form-key-0002"})
        assert fresh.status_code == 409, fresh.text[:500]
        before = await snapshot(db)
        again = await _form(owner, "/admin/chips", fields)
        assert again.status_code == 200
        assert _notice(again) == "That form was already sent: nothing moved twice."
        assert await snapshot(db) == before


async def _page_bot_then_table_closed(settings: Settings, db: Database) -> None:
    table = await setup(db, settings)
    async with server(settings, "owner") as players:
        owner = players["owner"]
        path = f"/admin/tables/{table}/bots"
        fields = {"level": "club", "bot_key": "page-bot-0001"}
        first = await _form(owner, path, fields)
        assert _notice(first) == "A bot sits in seat 1."
        await _close(owner, table)
        fresh = await _form(owner, path, fields | {"bot_key": "page-bot-0002"})
        assert fresh.status_code == 409, fresh.text[:500]
        before = await snapshot(db)
        again = await _form(owner, path, fields)
        assert again.status_code == 200
        assert _notice(again) == _notice(first)
        assert await snapshot(db) == before


REFUSED_AFTER: dict[str, Scenario] = {
    "/api/admin/chips/deduct": _deduct_then_balance_spent,
    "/api/tables/{table_id}/seat": _seat_then_table_closed,
    "/api/tables/{table_id}/top-up": _top_up_then_hand_dealt,
    "/api/tables/{table_id}/bots": _bot_then_table_closed,
    "/admin/chips": _page_chips_then_balance_spent,
    "/admin/tables/{table_id}/bots": _page_bot_then_table_closed,
}
NO_STATE_REFUSES = {"/api/admin/chips/grant"}


def test_every_keyed_route_and_form_is_retried_after_a_change(settings: Settings) -> None:
    """The API's keyed bodies and the admin pages' keyed forms, from the app's own
    description: each has its scenario below, or no state that could refuse it."""
    keyed = _keyed_paths(create_app(settings).openapi(), KEY_FIELDS | FORM_KEY_FIELDS)
    assert keyed == set(REFUSED_AFTER) | NO_STATE_REFUSES


@pytest.mark.parametrize("path", sorted(REFUSED_AFTER))
async def test_a_retry_after_a_change_that_refuses_a_new_request_answers_as_before(
    path: str, settings: Settings, db: Database
) -> None:
    await REFUSED_AFTER[path](settings, db)
