"""Three `salon serve` processes, one Postgres, one Redis: a table is served by one process
and played from all three; its owner dies (SIGKILL) or freezes (SIGSTOP) mid-hand; Redis
restarts mid-hand. Players never lose an acknowledged action, and see the same cards."""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import GameTable
from app.db.session import Database
from app.tables.events import first_version
from tests.live import demo_password, salon
from tests.processes import Process, RedisServer
from tests.tables.harness import Player, log_in
from tests.tables.test_crash_group_commit import stored_times

NAMES = ("alice", "bob", "carol")
# The test's database handle, for the robots to check what was stored.
DB: list[Database] = []
# Bourré deals five cards; whoever is to act plays its first legal action, so a hand is
# a few dozen actions.
ACTIONS_BEFORE_TROUBLE = 4


async def start_processes(env: dict[str, str]) -> list[Process]:
    processes = [Process(env, name) for name in "ABC"]
    for process in processes:
        await asyncio.to_thread(process.start)
    return processes


async def owner_of(redis_server: RedisServer, processes: list[Process], table_id: int) -> Process:
    owner = redis_server.client().get(f"salon:table:{table_id}:owner")
    assert owner is not None
    return next(p for p in processes if p.process_id == owner)


async def wait_for_new_owner(
    redis_server: RedisServer, processes: list[Process], table_id: int, old: Process
) -> Process:
    for _ in range(300):
        owner = redis_server.client().get(f"salon:table:{table_id}:owner")
        if owner is not None and owner != old.process_id:
            return next(p for p in processes if p.process_id == owner)
        await asyncio.sleep(0.05)
    raise AssertionError("no process took the table over")


async def open_table(admin: Player) -> int:
    created = await admin.post(
        "/api/tables",
        {
            "name": "Across processes",
            "game": "bourre",
            "seat_count": 4,
            "buy_in_min": 20,
            "buy_in_max": 300,
            "turn_seconds": 600,
        },
    )
    assert created.status_code == 201, created.text
    return int(created.json()["id"])


async def seat_players(
    processes: list[Process], env: dict[str, str], table_id: int
) -> list[Player]:
    """Each player on a process of their own, seated and watching over that process."""
    secret = demo_password(env, "member")
    players = []
    for name, process in zip(NAMES, processes, strict=True):
        player = await log_in(process.host, name, secret)
        seated = await player.post(
            f"/api/tables/{table_id}/seat", {"buy_in": 150, "request_key": f"sit-{name}-0001"}
        )
        assert seated.status_code == 200, seated.text
        await player.open(table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
        players.append(player)
    return players


def to_act(players: list[Player]) -> Player | None:
    for player in players:
        hand = player.hand
        seat = player.view["you"]["seat"]
        if (
            hand is not None
            and hand["phase"] != "over"
            and seat in hand["to_act"]
            and hand.get("legal_actions")
        ):
            return player
    return None


async def in_step(players: list[Player]) -> int:
    latest = max(p.version for p in players)
    for player in players:
        await player.wait_for(lambda p, v=latest: p.version >= v, 15)
    return latest


async def wait_for_hand(players: list[Player]) -> int:
    """The number of the hand being played, once every player sees it dealt."""
    for _ in range(200):
        await in_step(players)
        hand = players[0].hand
        if hand is not None and hand["phase"] != "over":
            return int(hand["number"])
        await players[0].wait_for(lambda p, v=players[0].version: p.version > v, 15)
    raise AssertionError("no hand was dealt")


async def act_once(players: list[Player], rng: random.Random, sent: list[str]) -> bool:
    """The player to act plays; True once it was accepted. False: nobody is to act. A
    `stale_version` refusal (someone's page reconnected meanwhile, which the table counts
    as news) is answered as a page would: look again and act again."""
    for _ in range(10):
        await in_step(players)
        actor = to_act(players)
        if actor is None:
            return False
        legal = actor.hand["legal_actions"]  # type: ignore[index]
        playing = [a for a in legal if a["action"] == "play"]
        choice = dict(playing[0] if playing else rng.choice(legal))
        choice.pop("seat", None)
        if "min" in choice:
            choice = {"action": choice["action"], "amount": choice["min"]}
        before = actor.version
        message_id = f"x{len(sent)}-{rng.random()}"
        await actor.send({"type": "action", "id": message_id, "version": before, **choice})
        await actor.wait_for(lambda p, v=before: p.version > v or bool(p.errors()), 15)
        errors = actor.errors()
        if any(e["code"] == "stale_version" for e in errors):
            actor.frames[:] = [f for f in actor.frames if f["type"] != "error"]
            continue
        assert not errors, errors
        if (await stored_times(DB[0], [message_id]))[message_id]:
            sent.append(message_id)
            return True
        # Moved on for another reason (a presence change) before the action: look again.
    raise AssertionError("no action was accepted in ten tries")


async def finish_hand(players: list[Player], number: int, rng: random.Random, sent: list[str]):
    for _ in range(400):
        hand = players[0].hand
        if hand is None or int(hand["number"]) != number or hand["phase"] == "over":
            return
        if not await act_once(players, rng, sent):
            await players[0].wait_for(lambda p, v=players[0].version: p.version > v, 15)
    raise AssertionError("the hand did not end")


def own_cards(player: Player) -> list[Any]:
    return list((player.hand or {}).get("hand") or [])


async def reconnect(player: Player, process: Process, table_id: int) -> None:
    """What a page does when its socket closes: open it again (here on `process`) from
    the version it last saw."""
    await player.close()
    player.host = process.host
    player.http.base_url = f"http://{process.host}"  # type: ignore[assignment]
    version = player.version
    player.frames.clear()
    await player.open(table_id, version=version)
    await player.wait_for(lambda p, v=version: p.version >= v and p.snapshot is not None, 20)


async def close_everything(players: list[Player], admin: Player | None, processes, db) -> None:
    for player in players:
        await player.close()
        await player.http.aclose()
    if admin is not None:
        await admin.http.aclose()
    await db.dispose()
    for process in processes:
        if process.process is not None and process.process.poll() is None:
            process.signal(signal.SIGCONT)
        process.stop()


@dataclass
class Scene:
    """A table of three players, each on a process of their own, in the middle of a hand."""

    processes: list[Process]
    redis: RedisServer
    db: Database
    table_id: int
    players: list[Player]
    owner: Process

    def process_of(self, player: Player) -> Process:
        return next(p for p in self.processes if p.host == player.host)

    async def reconnect_all(self, moved_to: Process | None = None) -> None:
        """Every page reconnects, as browsers do when their socket closes; those that were
        on a process that is gone land on `moved_to` (a load balancer's choice)."""
        for player in self.players:
            gone = moved_to is not None and player.host == self.owner.host
            await reconnect(player, moved_to if gone else self.process_of(player), self.table_id)


async def kill_the_owner(scene: Scene) -> None:
    scene.owner.kill()
    new_owner = await wait_for_new_owner(scene.redis, scene.processes, scene.table_id, scene.owner)
    await scene.reconnect_all(moved_to=new_owner)


async def freeze_the_owner(scene: Scene) -> None:
    """The owner freezes (SIGSTOP) past its lease; another process takes the table and
    raises its fencing token. The former owner then wakes up cut off from Redis — so it
    still believes it owns the table — and finds an action waiting on its socket: Postgres
    refuses its write, and nothing of it is stored."""
    mover = to_act(scene.players)
    assert mover is not None
    if mover.host != scene.owner.host:
        await reconnect(mover, scene.owner, scene.table_id)
    scene.owner.signal(signal.SIGSTOP)
    new_owner = await wait_for_new_owner(scene.redis, scene.processes, scene.table_id, scene.owner)
    await wait_for_fence(scene.db, scene.table_id, 2)
    scene.redis.signal(signal.SIGSTOP)
    try:
        await mover.send(
            {"type": "action", "id": "stale-write", "version": mover.version, **first_choice(mover)}
        )
        scene.owner.signal(signal.SIGCONT)
        await wait_for_line(scene.owner, "an action write was refused")
    finally:
        scene.redis.signal(signal.SIGCONT)
    assert (await stored_times(scene.db, ["stale-write"]))["stale-write"] == 0
    await scene.reconnect_all(moved_to=new_owner)
    scene.owner.stop()


async def restart_redis(scene: Scene) -> None:
    """Redis restarts empty: the owner puts its lease back and keeps the table; the other
    processes' proxied sockets close (frames may have been lost) and reconnect."""
    scene.redis.stop()
    scene.redis.start()
    client = scene.redis.client()
    key = f"salon:table:{scene.table_id}:owner"
    for _ in range(200):
        if client.get(key) is not None:
            break
        await asyncio.sleep(0.05)
    assert client.get(key) == scene.owner.process_id
    # Pages reconnect after a pause (a browser waits a second or more): here, once every
    # process listens to its channel again.
    channels = [f"salon:proc:{p.process_id}" for p in scene.processes]
    for _ in range(200):
        listening = dict(client.pubsub_numsub(*channels))
        if all(listening.get(c) for c in channels):
            break
        await asyncio.sleep(0.05)
    assert all(listening.get(c) for c in channels), listening
    await scene.reconnect_all()


async def no_trouble(scene: Scene) -> None:
    """Nothing goes wrong; the lobby, read from a process that does not own the table,
    shows the hand being played there."""
    other = next(p for p in scene.processes if p is not scene.owner)
    player = next(p for p in scene.players if p.host == other.host)
    lobby = (await player.get("/api/tables")).json()
    table = next(t for t in lobby if t["id"] == scene.table_id)
    assert table["hand_in_progress"] is True


TROUBLES: dict[str, Callable[[Scene], Awaitable[None]]] = {
    "none": no_trouble,
    "kill": kill_the_owner,
    "freeze": freeze_the_owner,
    "redis_restart": restart_redis,
}


@pytest.mark.parametrize("trouble", list(TROUBLES))
async def test_a_table_played_across_three_processes_survives_its_troubles(
    cluster_env: dict[str, str], redis_server: RedisServer, trouble: str
) -> None:
    processes = await start_processes(cluster_env)
    db = Database(cluster_env["DATABASE_URL"], null_pool=True)
    DB[:] = [db]
    players: list[Player] = []
    admin: Player | None = None
    rng = random.Random(5)
    sent: list[str] = []
    try:
        admin = await log_in(processes[0].host, "admin", demo_password(cluster_env, "admin"))
        table_id = await open_table(admin)
        players = await seat_players(processes, cluster_env, table_id)
        owner = await owner_of(redis_server, processes, table_id)
        # Played from three processes: at most one of them owns the table.
        assert sum(p.host != owner.host for p in players) >= 2

        number = await wait_for_hand(players)
        for _ in range(ACTIONS_BEFORE_TROUBLE):
            assert await act_once(players, rng, sent)
        await in_step(players)
        cards = {p.username: own_cards(p) for p in players}
        version = players[0].version

        await TROUBLES[trouble](Scene(processes, redis_server, db, table_id, players, owner))

        # The same hand goes on, with the same cards, from where it was.
        await in_step(players)
        assert players[0].version >= version
        assert int(players[0].hand["number"]) == number  # type: ignore[index]
        for player in players:
            assert own_cards(player) == cards[player.username], player.username
        await finish_hand(players, number, rng, sent)
        next_number = await wait_for_hand(players)
        assert next_number == number + 1
        await finish_hand(players, next_number, rng, sent)

        # Every acknowledged action is stored exactly once.
        assert set((await stored_times(db, sent)).values()) == {1}
        fence = await table_fence(db, table_id)
        assert fence == (2 if trouble in ("kill", "freeze") else 1)
        if fence > 1:  # moved: the versions shown since carry the new owner's epoch, so
            # none can be one its former owner had shown for another event
            assert players[0].version > first_version(fence) > version
    finally:
        await close_everything(players, admin, processes, db)
    audit = salon("audit", env=cluster_env)
    assert audit.returncode == 0, audit.stdout


def first_choice(player: Player) -> dict[str, Any]:
    legal = (player.hand or {})["legal_actions"]
    playing = [a for a in legal if a["action"] == "play"]
    choice = {k: v for k, v in (playing or legal)[0].items() if k != "seat"}
    if "min" in choice:
        choice = {"action": choice["action"], "amount": choice["min"]}
    return choice


async def table_fence(db: Database, table_id: int) -> int:
    async with db.transaction() as session:
        fence = await session.scalar(select(GameTable.fence).where(GameTable.id == table_id))
    return int(fence or 0)


async def wait_for_fence(db: Database, table_id: int, at_least: int) -> None:
    for _ in range(300):
        if await table_fence(db, table_id) >= at_least:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the table's fencing token was not raised")


async def wait_for_line(process: Process, line: str) -> None:
    for _ in range(300):
        if line in process.log.read_text():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{line!r} not in {process.log.read_text()}")
