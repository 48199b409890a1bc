"""PostgreSQL restarts in the middle of a hand played across three `salon serve` processes.

The database is a server of the test's own (tests/private_postgres.py), stopped as a crash
would stop it and started again. Meanwhile the table, served by one process and watched
through the three, pauses: every player is told, an action is refused with
`storage_unavailable`, and nothing else happens — no process takes the table for dead (its
lease lives in Redis). When the database answers, the table resumes by itself: the same hand
with the same cards, every acknowledged action stored once, and `salon audit` is clean.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.db.session import Database
from tests.cluster.test_three_processes import (
    DB,
    act_once,
    close_everything,
    finish_hand,
    first_choice,
    in_step,
    open_table,
    own_cards,
    owner_of,
    seat_players,
    start_processes,
    table_fence,
    to_act,
    wait_for_hand,
)
from tests.live import demo_password, salon, salon_env
from tests.private_postgres import PrivatePostgres, private_postgres
from tests.processes import RedisServer
from tests.tables.harness import Player, log_in
from tests.tables.test_crash_group_commit import stored_times


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    with private_postgres() as server:
        yield server


@pytest.fixture
def env(tmp_path: Path, postgres: PrivatePostgres, redis_server: RedisServer) -> dict[str, str]:
    env = salon_env(
        tmp_path,
        postgres.url,
        REDIS_URL=redis_server.url,
        SALON_LEASE_SECONDS="1",
        SALON_NEXT_HAND_SECONDS="0.3",
    )
    assert salon("migrate", env=env).returncode == 0
    assert salon("demo", env=env).returncode == 0
    return env


def told(player: Player) -> list[bool]:
    return [f["available"] for f in player.frames if f["type"] == "storage"]


async def test_three_processes_pause_while_the_database_restarts_and_resume_by_themselves(
    env: dict[str, str], postgres: PrivatePostgres, redis_server: RedisServer
) -> None:
    processes = await start_processes(env)
    db = Database(env["DATABASE_URL"], null_pool=True)
    DB[:] = [db]
    players: list[Player] = []
    admin: Player | None = None
    rng = random.Random(11)
    sent: list[str] = []
    try:
        admin = await log_in(processes[0].host, "admin", demo_password(env, "admin"))
        table_id = await open_table(admin)
        players = await seat_players(processes, env, table_id)
        owner = await owner_of(redis_server, processes, table_id)
        number = await wait_for_hand(players)
        for _ in range(4):
            assert await act_once(players, rng, sent)
        version = await in_step(players)
        cards = {p.username: own_cards(p) for p in players}
        for player in players:
            player.frames.clear()

        await asyncio.to_thread(postgres.stop)
        mover = to_act(players)
        assert mover is not None
        await mover.send(
            {"type": "action", "id": "while-away", "version": version, **first_choice(mover)}
        )
        await mover.wait_for(lambda p: bool(p.errors()), 15)
        assert [e["code"] for e in mover.errors()] == ["storage_unavailable"]
        for player in players:  # told through whichever process their socket is on
            await player.wait_for(lambda p: told(p) == [False], 15)

        await asyncio.to_thread(postgres.start)
        for player in players:
            await player.wait_for(lambda p: told(p) == [False, True], 30)
            await player.wait_for(lambda p: p.frames[-1]["type"] == "snapshot", 15)
        # The same process serves the table; the same hand goes on from where it was.
        assert await owner_of(redis_server, processes, table_id) is owner
        await in_step(players)
        assert players[0].version == version
        assert int(players[0].hand["number"]) == number  # type: ignore[index]
        for player in players:
            assert own_cards(player) == cards[player.username], player.username
            player.frames[:] = [f for f in player.frames if f["type"] != "error"]
        await finish_hand(players, number, rng, sent)
        assert await wait_for_hand(players) == number + 1

        assert (await stored_times(db, ["while-away"]))["while-away"] == 0
        assert set((await stored_times(db, sent)).values()) == {1}
        assert await table_fence(db, table_id) == 1
    finally:
        await close_everything(players, admin, processes, db)
    audit = salon("audit", env=env)
    assert audit.returncode == 0, audit.stdout
