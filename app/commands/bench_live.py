"""``salon bench live``: action latency at live tables, measured twice.

Starts ``salon serve`` on a scratch database, seats robot players at N tables over the REST
API, and lets them play over real WebSockets. Two figures come out, each as median and p99
(milliseconds):

- **server**: from an action frame received by the server to the moment the last seated
  player's socket has been handed that action's broadcast — the requirement itself, read
  from the server's own recorder (``/api/admin/latency``, reset right before the timed play);
- **end to end**: from the moment the acting robot sends the action to the moment the *last*
  seat at that table has received the resulting snapshot: the server's figure plus the
  loopback and the robots' own reading, so an upper bound of it.

``--think-ms`` makes robots pause before acting like people do; without it every table acts
as fast as the server answers, which measures the server at saturation. ``--clients`` spreads
the robots' sockets over that many processes, so one busy client does not inflate the end
to end figure. A robot whose chips are gone buys a new cave between hands, as a person
would (a Bouillotte table deals only with three players who have chips). Last, a JSON line.

The database must be a scratch one (it is migrated and seeded with robot members); the
command refuses a database that already has a club.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import multiprocessing.queues
import multiprocessing.synchronize
import os
import queue
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from app.db.models import MemberStatus, Role
from app.db.session import Database
from app.services import club, ledger, members

PLAYERS_PER_TABLE = 4
TABLES_PER_ROBOT = 8  # a member may keep eight table sockets open
# How long a table may show no change before the bench gives up on it.
STUCK_SECONDS = 30.0
# How long the bench waits for a client process to report.
CLIENT_SECONDS = 600.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _server_figures(owner: httpx.AsyncClient, expected: int) -> dict[str, Any]:
    """The server's recorder, once it holds every timed action. It records an action when
    the last seat's socket has taken its frame, which can be a moment after the robots have
    read it on a loaded machine: ask again for up to ten seconds."""
    deadline = time.perf_counter() + 10.0
    while True:
        measured: dict[str, Any] = (await owner.get("/api/admin/latency")).raise_for_status().json()
        if measured["count"] >= expected or time.perf_counter() > deadline:
            return measured
        await asyncio.sleep(0.05)


async def _seed(url: str, robots: int, password: str) -> None:
    db = Database(url, null_pool=True)
    try:
        async with db.transaction() as session:
            if await club.club_exists(session):
                raise SystemExit("bench live: this database already has a club; use a scratch one")
            await club.create_club(
                session, name="Bench", owner_username="benchowner", owner_password=password
            )
            for n in range(robots):
                user = await members.create_user(
                    session,
                    username=f"robot{n:03d}",
                    password=password,
                    display_name=f"Robot {n}",
                    role=Role.MEMBER,
                    status=MemberStatus.ACTIVE,
                )
                await ledger.bank_transfer(
                    session,
                    member_id=user.id,
                    amount=1_000_000,
                    grant=True,
                    idempotency_key=f"bench:{n}",
                    reason="bench",
                    actor_id=None,
                )
    finally:
        await db.dispose()


@dataclass(frozen=True, slots=True)
class _Play:
    """What every client process needs to know to play (sent to each one, so picklable)."""

    base: str  # http://127.0.0.1:PORT
    game: str
    actions: int
    think: float
    buy_in: int


@dataclass(frozen=True, slots=True)
class _TablePlan:
    table_id: int
    seed: float
    # Per seat, the session cookies of the robot seated there.
    cookies: list[dict[str, str]]


class _Seat:
    def __init__(self, ws: ClientConnection, cookies: dict[str, str]) -> None:
        self.ws = ws
        self.cookies = cookies
        self.version = -1
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        # Ids of this robot's actions the table refused (acted on a view already stale).
        self.refused: set[str] = set()

    async def read(self) -> None:
        async for raw in self.ws:
            frame = orjson.loads(raw)
            if frame["type"] == "snapshot":
                self.version = frame["version"]
                self.view = frame["view"]
                self.changed.set()
            elif frame["type"] == "error" and frame.get("ref"):
                self.refused.add(frame["ref"])
                self.changed.set()


async def _login(client: httpx.AsyncClient, name: str, password: str) -> None:
    token = (await client.get("/api/auth/csrf")).json()["csrf_token"]
    response = await client.post(
        "/api/auth/login",
        json={"username": name, "password": password},
        headers={"X-CSRF-Token": token},
    )
    response.raise_for_status()


async def _wait_version(seat: _Seat, version: int) -> None:
    while seat.version < version:
        seat.changed.clear()
        await seat.changed.wait()


async def _accepted(seat: _Seat, version: int, client_id: str) -> bool:
    """Whether the table took the action sent as `client_id` on `version`: it moves on past
    that version, or answers with a refusal naming the action (then it is not timed: the
    table moving on for another reason is no answer to it)."""
    while client_id not in seat.refused:
        if seat.version > version and client_id not in seat.refused:
            return True
        seat.changed.clear()
        await seat.changed.wait()
    return False


def _needs_chips(game: str, stack: int, buy_in: int) -> bool:
    """Whether a robot should buy in again before the next hand: at Bouillotte once its cave
    is gone (the only time a new one may be bought), at Bourré once it runs low."""
    return stack == 0 if game == "bouillotte" else stack < buy_in // 10


_top_ups = itertools.count(1)


async def _top_up_broke(play: _Play, plan: _TablePlan, seats: list[_Seat]) -> bool:
    """Between hands, every robot short of chips buys in again; True if one did."""
    bought = False
    for info in seats[0].view.get("seats", []):
        seat_no, stack = int(info["seat"]), int(info["stack"])
        if seat_no >= len(seats) or not _needs_chips(play.game, stack, play.buy_in):
            continue
        cookies = seats[seat_no].cookies
        async with httpx.AsyncClient(base_url=play.base, cookies=cookies, timeout=30) as client:
            response = await client.post(
                f"/api/tables/{plan.table_id}/top-up",
                json={"amount": play.buy_in, "request_key": f"bench-topup-{next(_top_ups)}"},
                headers={"X-CSRF-Token": cookies["salon_csrf"]},
            )
        if response.status_code == 409:  # a hand started meanwhile: after that one, then
            continue
        response.raise_for_status()
        bought = True
    return bought


async def _wait_change(play: _Play, plan: _TablePlan, seats: list[_Seat]) -> None:
    seats[0].changed.clear()
    try:
        await asyncio.wait_for(seats[0].changed.wait(), STUCK_SECONDS)
    except TimeoutError:
        stacks = [s.get("stack") for s in seats[0].view.get("seats", [])]
        hand = seats[0].view.get("hand")
        raise RuntimeError(
            f"bench live: table {plan.table_id} showed no change for {STUCK_SECONDS:.0f} s "
            f"(hand: {hand and {k: hand.get(k) for k in ('phase', 'to_act')}}, "
            f"stacks: {stacks}, next hand in: {seats[0].view.get('next_hand_in')})"
        ) from None


async def _play_table(
    play: _Play, plan: _TablePlan, seats: list[_Seat], rng: random.Random
) -> list[float]:
    samples: list[float] = []
    ids = 0
    while len(samples) < play.actions:
        view = seats[0].view
        hand = view.get("hand")
        if not hand or hand.get("phase") == "over" or not hand.get("to_act"):
            if not hand:
                before = seats[0].version
                if await _top_up_broke(play, plan, seats):
                    await _wait_version(seats[0], before + 1)
                    continue
            await _wait_change(play, plan, seats)
            continue
        actor = seats[hand["to_act"][0]]
        await _wait_version(actor, seats[0].version)
        legal = (actor.view.get("hand") or {}).get("legal_actions") or []
        if not legal:
            await asyncio.sleep(0.001)
            continue
        choice = dict(rng.choice(legal))
        choice.pop("seat", None)
        if "min" in choice:
            low, high = choice.pop("min"), choice.pop("max")
            choice["amount"] = low if rng.random() < 0.8 else rng.randint(low, high)
        if play.think:  # a person takes a moment; robots that never pause measure saturation
            await asyncio.sleep(play.think * rng.uniform(0.5, 1.5))
            if actor.version != seats[0].version:
                continue
        before = actor.version
        ids += 1
        message = {"type": "action", "id": f"b{ids}", "version": before, **choice}
        started = time.perf_counter()
        await actor.ws.send(orjson.dumps(message).decode())
        if not await _accepted(actor, before, message["id"]):
            continue
        target = actor.version
        await asyncio.gather(*(_wait_version(s, target) for s in seats))
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def _drive(
    play: _Play, plans: list[_TablePlan], ready: Callable[[], Awaitable[None]]
) -> list[float]:
    """Open every seat's socket at these tables, wait for `ready`, then play; the samples."""
    host = play.base.removeprefix("http://")
    tables: list[list[_Seat]] = []
    readers: list[asyncio.Task[None]] = []
    try:
        for plan in plans:
            seats = []
            for cookies in plan.cookies:
                cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
                ws = await connect(
                    f"ws://{host}/ws/tables/{plan.table_id}",
                    additional_headers={"Cookie": cookie},
                    origin=play.base,  # type: ignore[arg-type]
                    max_size=2**20,
                )
                seat = _Seat(ws, cookies)
                readers.append(asyncio.create_task(seat.read()))
                seats.append(seat)
            tables.append(seats)
        await ready()
        results = await asyncio.gather(
            *(
                _play_table(play, plan, seats, random.Random(plan.seed))
                for plan, seats in zip(plans, tables, strict=True)
            )
        )
    finally:
        for seats in tables:
            for seat in seats:
                await seat.ws.close()
        for task in readers:
            task.cancel()
    return [ms for table in results for ms in table]


def _client_process(
    play: _Play,
    plans: list[_TablePlan],
    reports: multiprocessing.queues.Queue[tuple[str, Any]],
    go: multiprocessing.synchronize.Event,
) -> None:
    """One client process: connect, say so, wait for the signal, play, send the samples."""

    async def ready() -> None:
        reports.put(("ready", None))
        await asyncio.to_thread(go.wait)

    try:
        reports.put(("done", asyncio.run(_drive(play, plans, ready))))
    except BaseException:
        reports.put(("error", traceback.format_exc()))


async def _in_processes(
    play: _Play, groups: list[list[_TablePlan]], start: Callable[[], Awaitable[None]]
) -> list[float]:
    """Play each group of tables in its own process; `start` runs once all are connected."""
    context = multiprocessing.get_context("spawn")  # never fork a process with a loop running
    reports: multiprocessing.queues.Queue[tuple[str, Any]] = context.Queue()
    go = context.Event()
    processes = [
        context.Process(target=_client_process, args=(play, group, reports, go), daemon=True)
        for group in groups
    ]
    for process in processes:
        process.start()

    async def report(expected: str) -> Any:
        try:
            kind, value = await asyncio.to_thread(reports.get, timeout=CLIENT_SECONDS)
        except queue.Empty:
            raise RuntimeError("bench live: a client process stopped answering") from None
        if kind != expected:
            raise RuntimeError(f"bench live: a client process failed:\n{value}")
        return value

    try:
        for _ in processes:
            await report("ready")
        await start()
        go.set()
        samples: list[float] = []
        for _ in processes:
            samples.extend(await report("done"))
    finally:
        go.set()
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()
    return samples


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return round(statistics.median(ordered), 3), round(p99, 3), round(ordered[-1], 3)


async def _bench(
    url: str, tables: int, actions: int, game: str, seed: int, think: float, clients: int
) -> dict[str, Any]:
    password = secrets.token_urlsafe(12)
    robots = max(PLAYERS_PER_TABLE, -(-tables * PLAYERS_PER_TABLE // TABLES_PER_ROBOT))
    await _seed(url, robots, password)
    port = _free_port()
    data_dir = tempfile.mkdtemp(prefix="salon-bench-")
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SALON_DATA_DIR": data_dir,
        "SALON_NEXT_HAND_SECONDS": "0.05",
        "SALON_WS_MESSAGES_PER_WINDOW": "100000",
    }
    log = Path(data_dir) / "server.log"
    server = subprocess.Popen(  # noqa: ASYNC220, S603 (our own command, started once)
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    buy_in = 100 if game == "bouillotte" else 10_000
    play = _Play(base=base, game=game, actions=actions, think=think, buy_in=buy_in)
    try:
        async with httpx.AsyncClient(base_url=base) as probe:
            for _ in range(300):
                try:
                    if (await probe.get("/api/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
        async with httpx.AsyncClient(base_url=base, timeout=30) as owner:
            await _login(owner, "benchowner", password)
            plans = await _open_tables(owner, play, tables, robots, password, random.Random(seed))
            owner_headers = {"X-CSRF-Token": owner.cookies["salon_csrf"]}
            started = time.perf_counter()

            async def start() -> None:
                """Every socket is open: forget what the server measured so far, and go."""
                nonlocal started
                (await owner.delete("/api/admin/latency", headers=owner_headers)).raise_for_status()
                started = time.perf_counter()

            if clients <= 1:
                samples = await _drive(play, plans, start)
            else:
                groups = [plans[n::clients] for n in range(min(clients, len(plans)))]
                samples = await _in_processes(play, groups, start)
            elapsed = time.perf_counter() - started
            measured = await _server_figures(owner, len(samples))
    finally:
        server.terminate()
        server.wait(10)
    median, p99, most = _percentiles(samples)
    return {
        "game": game,
        "tables": tables,
        "think_ms": round(think * 1000),
        "clients": max(1, min(clients, tables)),
        "actions": len(samples),
        "seconds": round(elapsed, 3),
        "actions_per_s": round(len(samples) / elapsed, 1),
        "server_actions": measured["count"],
        "server_median_ms": measured["median_ms"],
        "server_p99_ms": measured["p99_ms"],
        "server_max_ms": measured["max_ms"],
        "median_ms": median,
        "p99_ms": p99,
        "max_ms": most,
        "database": "postgresql" if url.startswith("postgresql") else url.split(":", 1)[0],
    }


async def _open_tables(
    owner: httpx.AsyncClient,
    play: _Play,
    tables: int,
    robots: int,
    password: str,
    rng: random.Random,
) -> list[_TablePlan]:
    """The owner opens the tables and the robots sit down, over the REST API."""
    body: dict[str, Any] = {
        "game": play.game,
        "seat_count": PLAYERS_PER_TABLE,
        "buy_in_min": 100,
        "buy_in_max": 100 if play.game == "bouillotte" else 100_000,
        "turn_seconds": 600,
    }
    if play.game == "bouillotte":  # robot n plays seat n: no seat draw at the first hand
        body["rules"] = {"seating": "as_joined"}
    robots_http = []
    try:
        for n in range(robots):
            client = httpx.AsyncClient(base_url=play.base, timeout=30)
            robots_http.append(client)
            await _login(client, f"robot{n:03d}", password)
        plans = []
        for t in range(tables):
            made = await owner.post(
                "/api/tables",
                json={"name": f"Bench {t}", **body},
                headers={"X-CSRF-Token": owner.cookies["salon_csrf"]},
            )
            made.raise_for_status()
            table_id = made.json()["id"]
            cookies = []
            for s in range(PLAYERS_PER_TABLE):
                client = robots_http[(t * PLAYERS_PER_TABLE + s) % robots]
                sat = await client.post(
                    f"/api/tables/{table_id}/seat",
                    json={"seat": s, "buy_in": play.buy_in, "request_key": f"bench-{t}-{s}-x"},
                    headers={"X-CSRF-Token": client.cookies["salon_csrf"]},
                )
                sat.raise_for_status()
                cookies.append(dict(client.cookies.items()))
            plans.append(_TablePlan(table_id=table_id, seed=rng.random(), cookies=cookies))
    finally:
        for client in robots_http:
            await client.aclose()
    return plans


def run_live_bench(
    database_url: str,
    tables: int,
    actions: int,
    game: str,
    seed: int,
    think_ms: int = 0,
    clients: int = 2,
) -> int:
    from app.db.migrate import upgrade_head

    if tables < 1 or actions < 1 or clients < 1:
        print("bench live: tables, actions and clients must be at least 1", file=sys.stderr)
        return 2
    upgrade_head(database_url)
    summary = asyncio.run(
        _bench(database_url, tables, actions, game, seed, think_ms / 1000, clients)
    )
    print(
        f"{summary['game']}: {tables} table(s), think {think_ms} ms, "
        f"{summary['actions']} actions in {summary['seconds']} s on {summary['database']}, "
        f"{summary['clients']} client process(es)"
    )
    print(
        f"server: action received -> last seat's broadcast sent: "
        f"median {summary['server_median_ms']} ms, p99 {summary['server_p99_ms']} ms, "
        f"max {summary['server_max_ms']} ms ({summary['server_actions']} actions)"
    )
    print(
        f"end to end: action sent -> last seat received: median {summary['median_ms']} ms, "
        f"p99 {summary['p99_ms']} ms, max {summary['max_ms']} ms"
    )
    print(json.dumps(summary))
    return 0
