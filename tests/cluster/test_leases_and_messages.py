"""Leases in a real Redis (taken once, renewed only by their holder, put back by their
holder after Redis lost them, released only by it) and table commands as they travel
between processes (every kind, connections by reference, errors with their status)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from redis.asyncio import Redis

from app.cluster.codec import (
    COMMANDS,
    UnknownCommand,
    decode_answer,
    decode_command,
    decode_error,
    encode_answer,
    encode_command,
    encode_error,
)
from app.cluster.leases import Leases
from app.errors import Conflict
from app.services.tables import Reply, TableEdit
from app.tables.commands import (
    Act,
    Chat,
    ChatRemoved,
    Command,
    Connection,
    Contribute,
    DealNow,
    Describe,
    EditTable,
    Join,
    Leave,
    RemoveBot,
    Resync,
    SeatBot,
    SetBotFill,
    SetStatus,
    Sit,
    SitOut,
    Stand,
    Stop,
    Suggest,
    TopUp,
)
from app.tables.table import ActionRequest
from tests.processes import RedisServer

# ------------------------------------------------------------------ leases


@pytest.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_server.url)
    yield client
    await client.aclose()


async def test_a_lease_is_taken_once_and_renewed_only_by_its_holder(redis: Redis) -> None:
    one = Leases(redis, "t", "one", 5_000)
    two = Leases(redis, "t", "two", 5_000)
    assert await one.take(7)
    assert not await two.take(7)
    assert await one.owner(7) == "one"
    assert await one.renew([7]) == {7: True}
    assert await two.renew([7]) == {7: False}
    await two.release(7)  # not its lease: nothing happens
    assert await one.owner(7) == "one"
    await one.release(7)
    assert await two.owners([7, 8]) == {7: None, 8: None}
    assert await two.take(7)


async def test_a_holder_puts_back_a_lease_redis_lost(redis: Redis) -> None:
    one = Leases(redis, "t", "one", 5_000)
    assert await one.take(3)
    await redis.flushall()  # as a restart without persistence
    assert await one.renew([3]) == {3: True}
    assert await one.owner(3) == "one"


async def test_a_lease_not_renewed_lapses(redis: Redis) -> None:
    one = Leases(redis, "t", "one", 50)
    assert await one.take(4)
    assert await redis.pttl(one.owner_key(4)) <= 50
    await asyncio.sleep(0.1)  # the lease's 50 ms pass without a renewal
    assert await one.owner(4) is None


async def test_heartbeats_tell_live_processes_from_gone_ones(redis: Redis) -> None:
    one = Leases(redis, "t", "one", 5_000)
    await one.beat()
    assert await one.alive(["one", "gone"]) == {"one": True, "gone": False}
    await one.quit()
    assert await one.alive(["one"]) == {"one": False}


# ------------------------------------------------------------------ commands


def connection() -> Connection:
    return Connection(user_id=5, username="ana")


def every_command(socket: Connection) -> list[Command]:
    request = ActionRequest(id="c1", action="discard", cards=("AS", "KH"), version=4)
    return [
        Act(socket, request, 12.5),
        Chat(socket, "bonsoir"),
        ChatRemoved(3, "bob", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        Contribute(socket, bytes(range(32))),
        DealNow(socket),
        Describe(),
        EditTable(5, TableEdit(name="Le salon", stakes={"ante": 2})),
        Join(socket, 9),
        Leave(socket),
        RemoveBot(2, 1),
        Resync(socket, 11),
        SeatBot("club", None, 100, "key-0001", 1),
        SetBotFill(None, 1),
        SetStatus("paused", 1),
        Sit(5, 2, 150, "key-0002"),
        SitOut(5, True),
        Stand(5),
        Suggest(socket),
        TopUp(5, 50, "key-0003"),
    ]


def fields_of(command: Command) -> dict[str, Any]:
    return {k: v for k, v in vars(command).items() if k != "reply"}


async def test_every_table_command_travels_and_comes_back_the_same() -> None:
    socket = connection()
    commands = every_command(socket)
    assert {type(c).__name__ for c in commands} == set(COMMANDS)
    on_the_owner = Connection(user_id=5, username="ana")
    references: list[dict[str, Any]] = []

    def arrives(data: dict[str, Any]) -> Connection:
        references.append(data)
        return on_the_owner

    for command in commands:
        back = decode_command(encode_command(command, lambda c: "r1"), arrives)
        assert type(back) is type(command)
        expected = {k: (on_the_owner if v is socket else v) for k, v in fields_of(command).items()}
        if isinstance(command, Act):
            expected["received"] = None  # another process's clock means nothing there
        assert fields_of(back) == expected
    assert all(r == {"ref": "r1", "user_id": 5, "username": "ana"} for r in references)


async def test_commands_outside_the_list_are_refused_both_ways() -> None:
    with pytest.raises(UnknownCommand):
        encode_command(Stop(), lambda c: "r")
    with pytest.raises(UnknownCommand):
        decode_command({"kind": "Stop", "fields": {}}, lambda d: connection())
    with pytest.raises(UnknownCommand):
        decode_command({"kind": "__import__", "fields": {}}, lambda d: connection())


def test_answers_and_refusals_keep_their_shape() -> None:
    answer = Reply({"seat": 2, "after_hand": True}, replayed=True)
    assert decode_answer(encode_answer(answer)) == answer
    nested = {"seats": {1: "ana"}, "at": datetime(2026, 1, 2, tzinfo=UTC), "n": [1, (2, 3)]}
    assert decode_answer(encode_answer(nested)) == {**nested, "n": [1, [2, 3]]}
    refused = decode_error(encode_error(Conflict("seat_taken", "That seat is taken.", seat=2)))
    assert (refused.code, refused.message, refused.status_code, refused.details) == (
        "seat_taken",
        "That seat is taken.",
        409,
        {"seat": 2},
    )
    hidden = decode_error(encode_error(RuntimeError("a secret path /srv/x")))
    assert hidden.status_code == 500
    assert "secret" not in hidden.message
