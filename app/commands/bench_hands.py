"""``salon bench hands``: how fast the hand history answers with many stored hands.

Fills a scratch database with N finished hands (bulk inserts of plausible rows — a hand,
its four players' result rows — spread over a year at a few dozen tables among a few dozen
members; not live play, so these hands are not replayable), then times, through the real
app, the two queries people wait for:

- **my hands**: the first page of a member's "My hands" (`GET /api/hands`);
- **admin search**: an admin's search for one member's hands in a date range
  (`GET /api/hands?member_id=…&since=…&until=…`).

Each is asked `--requests` times; the median and p99 (milliseconds) are printed, then a
JSON line. The database must be a scratch one: the command refuses one that has a club.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert, text

from app.config import Settings
from app.db.migrate import upgrade_head
from app.db.models import GameTable, Hand, HandSeat, MemberStatus, Role, User
from app.db.session import Database
from app.engine.registry import GAME_NAMES
from app.main import create_app
from app.security.passwords import hash_password
from app.services import club

PASSWORD = "bench password 1234"  # noqa: S105 (a scratch database's robots)
MEMBERS = 40
TABLES = 30
SEATS = 4
BATCH = 5000
YEAR = timedelta(days=365)


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def _seed(db: Database, hands: int, rng: random.Random) -> list[int]:
    """The club, its members, tables and `hands` finished hands; returns the member ids."""
    async with db.transaction() as session:
        if await club.club_exists(session):
            raise SystemExit("bench hands needs a scratch database: this one has a club")
        _, owner = await club.create_club(
            session, name="Bench Club", owner_username="owner", owner_password=PASSWORD
        )
        hashed = hash_password(PASSWORD)
        users = [
            User(
                username=f"robot{n}",
                display_name=f"Robot {n}",
                password_hash=hashed,
                role=Role.MEMBER,
                status=MemberStatus.ACTIVE,
            )
            for n in range(MEMBERS)
        ]
        session.add_all(users)
        tables = [
            GameTable(
                name=f"Table {n}",
                # Tables of every game the club deals, in turn: the history mixes them.
                game=GAME_NAMES[n % len(GAME_NAMES)],
                rules={},
                seat_count=SEATS,
                buy_in_min=20,
                buy_in_max=200,
                turn_seconds=30,
                created_by_id=owner.id,
            )
            for n in range(TABLES)
        ]
        session.add_all(tables)
        await session.flush()
        member_ids = [u.id for u in users]
        names = {u.id: u.username for u in users}
        table_games = [(t.id, t.game) for t in tables]
    start = datetime.now(UTC) - YEAR
    step = YEAR / max(hands, 1)
    numbers: dict[int, int] = {}
    for first in range(0, hands, BATCH):
        hand_rows: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        count = min(BATCH, hands - first)
        async with db.transaction() as session:
            next_id = int(
                (await session.execute(text("SELECT COALESCE(MAX(id), 0) FROM hands"))).scalar()
                or 0
            )
            for n in range(count):
                hand_id = next_id + n + 1
                table_id, game = rng.choice(table_games)
                numbers[table_id] = numbers.get(table_id, 0) + 1
                ended = start + step * (first + n)
                players = rng.sample(member_ids, SEATS)
                pot = rng.randint(4, 60)
                winner = rng.randrange(SEATS)
                nets = [-pot // SEATS] * SEATS
                nets[winner] = pot - pot // SEATS
                seat_names = [names[p] for p in players]
                stacks = {seat_names[s]: 100 + nets[s] for s in range(SEATS)}
                hand_rows.append(
                    {
                        "id": hand_id,
                        "table_id": table_id,
                        "number": numbers[table_id],
                        "seed": secrets.token_hex(32),
                        "commitment": secrets.token_hex(32),
                        "header": {
                            "format": "salon.table-log/1",
                            "game": game,
                            "rules": {},
                            "seats": [{"name": name, "stack": 100} for name in seat_names],
                            "dealer": 0,
                            "pot": 0,
                        },
                        "players": {
                            "users": {str(s): p for s, p in enumerate(players)},
                            "sitting_out": [],
                            "state": {},
                        },
                        "entry": {"seed": "00", "actions": []},
                        "result": {
                            "number": numbers[table_id],
                            "hand_id": hand_id,
                            "pot": pot,
                            "winner": seat_names[winner],
                            "pots": [{"amount": pot, "winner": seat_names[winner]}],
                            "carry": 0,
                            "stacks": stacks,
                        },
                        "running": False,
                        "started_at": ended - timedelta(minutes=2),
                        "ended_at": ended,
                        "pot": pot,
                        "session": 1,
                        "revealed": True,
                    }
                )
                seat_rows.extend(
                    {
                        "hand_id": hand_id,
                        "table_id": table_id,
                        "user_id": p,
                        "seat_no": s,
                        "game": game,
                        "ended_at": ended,
                        "stack_before": 100,
                        "stack_after": 100 + nets[s],
                        "net": nets[s],
                        "won": s == winner,
                        "bourres_paid": 0,
                        "brelan": False,
                    }
                    for s, p in enumerate(players)
                )
            await session.execute(insert(Hand), hand_rows)
            await session.execute(insert(HandSeat), seat_rows)
    if db.kind == "postgresql":
        async with db.engine.connect() as conn:
            autocommit = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await autocommit.execute(
                text("SELECT setval('hands_id_seq', (SELECT MAX(id) FROM hands))")
            )
            await autocommit.execute(text("ANALYZE"))
    return member_ids


async def _login(client: httpx.AsyncClient, username: str) -> None:
    token = (await client.get("/api/auth/csrf")).json()["csrf_token"]
    answer = await client.post(
        "/api/auth/login",
        json={"username": username, "password": PASSWORD},
        headers={"X-CSRF-Token": token},
    )
    if answer.status_code != 200:
        raise SystemExit(f"login failed: {answer.text}")


async def _time(client: httpx.AsyncClient, paths: list[str]) -> list[float]:
    samples = []
    for path in paths:
        began = time.perf_counter()
        answer = await client.get(path)
        samples.append((time.perf_counter() - began) * 1000)
        if answer.status_code != 200 or not answer.json()["hands"]:
            raise SystemExit(f"{path}: {answer.status_code} {answer.text[:200]}")
    return samples


async def _bench(database_url: str, hands: int, requests: int, seed: int) -> dict[str, Any]:
    await asyncio.to_thread(upgrade_head, database_url)
    rng = random.Random(seed)
    db = Database(database_url, pool_size=5)
    began = time.perf_counter()
    try:
        member_ids = await _seed(db, hands, rng)
    finally:
        await db.dispose()
    seeded = time.perf_counter() - began
    with tempfile.TemporaryDirectory() as data_dir:
        settings = Settings(
            database_url=database_url,
            data_dir=Path(data_dir),
            secret_key=secrets.token_hex(32),
            login_max_failures=1000,
        )
        app = create_app(settings)
        transport = httpx.ASGITransport(app=app)
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://bench") as member,
            httpx.AsyncClient(transport=transport, base_url="http://bench") as admin,
        ):
            await _login(member, "robot0")
            await _login(admin, "owner")
            now = datetime.now(UTC)
            searches = []
            for _ in range(requests):
                since = now - YEAR + timedelta(days=rng.randrange(300))
                until = since + timedelta(days=rng.choice((7, 30, 60)))
                searches.append(
                    f"/api/hands?member_id={rng.choice(member_ids)}"
                    f"&since={since.strftime('%Y-%m-%dT%H:%M:%S')}"
                    f"&until={until.strftime('%Y-%m-%dT%H:%M:%S')}"
                )
            await _time(member, ["/api/hands"] * 10)  # warm up
            mine = await _time(member, ["/api/hands"] * requests)
            search = await _time(admin, searches)
        await app.state.db.dispose()
    return {
        "hands": hands,
        "database": db.kind,
        "seed_seconds": round(seeded, 1),
        "requests": requests,
        "my_hands_p50_ms": round(statistics.median(mine), 1),
        "my_hands_p99_ms": round(_percentile(mine, 0.99), 1),
        "admin_search_p50_ms": round(statistics.median(search), 1),
        "admin_search_p99_ms": round(_percentile(search, 0.99), 1),
    }


def run_hands_bench(database_url: str, hands: int, requests: int, seed: int) -> int:
    figures = asyncio.run(_bench(database_url, hands, requests, seed))
    print(
        f"{figures['hands']} hands on {figures['database']} "
        f"(seeded in {figures['seed_seconds']} s), {requests} requests each:"
    )
    print(
        f"  my hands, first page:  p50 {figures['my_hands_p50_ms']} ms, "
        f"p99 {figures['my_hands_p99_ms']} ms"
    )
    print(
        f"  admin search:          p50 {figures['admin_search_p50_ms']} ms, "
        f"p99 {figures['admin_search_p99_ms']} ms"
    )
    print(json.dumps(figures))
    return 0
