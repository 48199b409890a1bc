"""``salon bench live``: action latency at live tables, end to end.

Starts ``salon serve`` on a scratch database, seats robot players at N tables over the REST
API, and lets them play over real WebSockets. For every action it measures the time from
the moment the acting robot sends it to the moment the *last* seat at that table has
received the resulting snapshot — the server's "received → last seat's broadcast sent"
plus the loopback and the robots' own reading, so an upper bound of it. Prints median and
p99 (milliseconds) and, last, a JSON line. ``--think-ms`` makes robots pause before acting
like people do; without it every table acts as fast as the server answers, which measures
the server at saturation.

The database must be a scratch one (it is migrated and seeded with robot members); the
command refuses a database that already has a club.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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


class _Seat:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.version = -1
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for raw in self.ws:
            frame = orjson.loads(raw)
            if frame["type"] == "snapshot":
                self.version = frame["version"]
                self.view = frame["view"]
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


async def _play_table(
    seats: list[_Seat], actions: int, rng: random.Random, think: float
) -> list[float]:
    samples: list[float] = []
    ids = 0
    while len(samples) < actions:
        view = seats[0].view
        hand = view.get("hand")
        if not hand or hand.get("phase") == "over" or not hand.get("to_act"):
            seats[0].changed.clear()
            await asyncio.wait_for(seats[0].changed.wait(), 30)
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
        if think:  # a person takes a moment; robots that never pause measure saturation
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if actor.version != seats[0].version:
                continue
        before = actor.version
        ids += 1
        message = {"type": "action", "id": f"b{ids}", "version": before, **choice}
        started = time.perf_counter()
        await actor.ws.send(orjson.dumps(message).decode())
        await _wait_version(actor, before + 1)
        target = actor.version
        await asyncio.gather(*(_wait_version(s, target) for s in seats))
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def _bench(
    url: str, tables: int, actions: int, game: str, seed: int, think: float
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
    try:
        async with httpx.AsyncClient(base_url=base) as probe:
            for _ in range(300):
                try:
                    if (await probe.get("/api/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
        owner = httpx.AsyncClient(base_url=base)
        await _login(owner, "benchowner", password)
        robots_http = []
        for n in range(robots):
            client = httpx.AsyncClient(base_url=base, timeout=30)
            await _login(client, f"robot{n:03d}", password)
            robots_http.append(client)
        body: dict[str, Any] = (
            {
                "game": "bourre",
                "seat_count": 4,
                "buy_in_min": 100,
                "buy_in_max": 100_000,
                "turn_seconds": 600,
            }
            if game == "bourre"
            else {
                "game": "bouillotte",
                "seat_count": 4,
                "buy_in_min": 100,
                "buy_in_max": 100,
                "turn_seconds": 600,
            }
        )
        table_seats: list[list[_Seat]] = []
        readers = []
        for t in range(tables):
            token = owner.cookies["salon_csrf"]
            made = await owner.post(
                "/api/tables", json={"name": f"Bench {t}", **body}, headers={"X-CSRF-Token": token}
            )
            made.raise_for_status()
            table_id = made.json()["id"]
            seats = []
            for s in range(PLAYERS_PER_TABLE):
                client = robots_http[(t * PLAYERS_PER_TABLE + s) % robots]
                buy_in = 100 if game == "bouillotte" else 10_000
                sat = await client.post(
                    f"/api/tables/{table_id}/seat",
                    json={"seat": s, "buy_in": buy_in, "request_key": f"bench-{t}-{s}-x"},
                    headers={"X-CSRF-Token": client.cookies["salon_csrf"]},
                )
                sat.raise_for_status()
                cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
                ws = await connect(
                    f"ws://127.0.0.1:{port}/ws/tables/{table_id}",
                    additional_headers={"Cookie": cookie},
                    origin=base,  # type: ignore[arg-type]
                    max_size=2**20,
                )
                seat = _Seat(ws)
                readers.append(asyncio.create_task(seat.read()))
                seats.append(seat)
            table_seats.append(seats)
        rng = random.Random(seed)
        started = time.perf_counter()
        results = await asyncio.gather(
            *(
                _play_table(seats, actions, random.Random(rng.random()), think)
                for seats in table_seats
            )
        )
        elapsed = time.perf_counter() - started
        for seats in table_seats:
            for seat in seats:
                await seat.ws.close()
        for task in readers:
            task.cancel()
        for client in [owner, *robots_http]:
            await client.aclose()
    finally:
        server.terminate()
        server.wait(10)
    samples = sorted(ms for table in results for ms in table)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return {
        "game": game,
        "tables": tables,
        "think_ms": round(think * 1000),
        "actions": len(samples),
        "seconds": round(elapsed, 3),
        "actions_per_s": round(len(samples) / elapsed, 1),
        "median_ms": round(statistics.median(samples), 3),
        "p99_ms": round(p99, 3),
        "max_ms": round(samples[-1], 3),
        "database": "postgresql" if url.startswith("postgresql") else url.split(":", 1)[0],
    }


def run_live_bench(
    database_url: str, tables: int, actions: int, game: str, seed: int, think_ms: int = 0
) -> int:
    from app.db.migrate import upgrade_head

    if tables < 1 or actions < 1:
        print("bench live: tables and actions must be at least 1", file=sys.stderr)
        return 2
    upgrade_head(database_url)
    summary = asyncio.run(_bench(database_url, tables, actions, game, seed, think_ms / 1000))
    print(
        f"{summary['game']}: {tables} table(s), think {think_ms} ms, "
        f"{summary['actions']} actions in {summary['seconds']} s on {summary['database']}"
    )
    print(
        f"action sent -> last seat received: median {summary['median_ms']} ms, "
        f"p99 {summary['p99_ms']} ms, max {summary['max_ms']} ms"
    )
    print(json.dumps(summary))
    return 0
