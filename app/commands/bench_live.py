"""``salon bench live``: action latency at live tables, measured twice, against a floor.

Starts ``salon serve`` on a scratch database, seats robot players at N tables over the REST
API, and lets them play over real WebSockets. Two figures come out, each as median and p99
(milliseconds):

- **server**: from an action frame received by the server to the moment the last seated
  player's socket has been handed that action's broadcast — the requirement itself, read
  from the server's own recorder (``/api/admin/latency``, reset right before the timed play);
- **end to end**: from the moment the acting robot sends the action to the moment the *last*
  seat at that table has received the resulting snapshot: the server's figure plus the
  loopback and the robots' own reading, so an upper bound of it.

Beside them: accepted actions per second over the timed play, the error frames the robots
read (refused actions and any other), and the server process's memory (``VmRSS``) before
the tables are opened and once every socket is open, put down to each table and to each
socket. A robot whose action is refused asks for the table as it is now and chooses again;
a table that shows no progress for ``STUCK_SECONDS`` is given up, said, and the command
exits with status 1 after printing the figures of the rest.

Then the **floor** (`bench_floor`, its own process): the same tables, seats, actions per
table, think times and client processes, played against a bare broadcast server, and on
Postgres again against one that first commits an ``INSERT`` per action (skipped, and said
so, on SQLite). Salon's p99s are printed as multiples of the floors' (``--no-floor`` skips
them).

``--think-ms`` makes robots pause before acting like people do; without it every table acts
as fast as the server answers, which measures the server at saturation. ``--clients`` spreads
the robots' sockets over that many processes, so one busy client does not inflate the end
to end figure. A robot that runs short of chips buys in again between hands, as a person
would and as far as its game lets it (a table may deal only to players who have chips).
Each game's driver says how its tables are opened (`bench_table`). Last, a JSON line.

``--processes N`` (N > 1) serves the club with N ``salon serve`` processes sharing the
(PostgreSQL) database, coordinated by a Redis (``--redis-url``, else ``REDIS_URL``, else the
local one) under a key prefix of the run's own, deleted at the end. The robots spread their
requests and sockets over the processes as a balancer without sticky sessions would (seat
by seat: see `_open_tables`), so most sockets reach their table through another process.
Throughput and the end to end figures are the robots' own, measured as with one process.
The server figures are not those of every action: each process records only the actions
that arrived on its own sockets at the tables it owns (an action forwarded from another
process is not timed there), so the line printed says so, counts those actions over every
process, and gives the worst process's median and p99 (an upper bound of those actions'
pooled figures). Memory is the processes' together; the floors, one process each, are not
run.

The database must be a scratch one (it is migrated and seeded with robot members); the
command refuses a database that already has a club.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect

from app.commands.bench_clients import (
    STUCK_SECONDS,
    GaveUp,
    Outcome,
    Play,
    Ready,
    Seat,
    TablePlan,
    bounded,
    choose,
    drive_tables,
    needs_chips,
    percentiles,
    play_tables,
    wait_version,
)
from app.commands.bench_servers import (
    FULL_SPEED,
    OWNER,
    Cluster,
    cluster_for,
    forget_keys,
    free_ports,
    login,
    robot_name,
    rss,
    seed_club,
    server_env,
    server_log,
    start_server,
    wait_healthy,
)
from app.engine.registry import driver

PLAYERS_PER_TABLE = 4
# A robot's idle connection is dropped before the server's keep-alive (5 s) would close it:
# reusing one the server is closing at that moment fails the request.
_ROBOT_LIMITS = httpx.Limits(keepalive_expiry=2)
TABLES_PER_ROBOT = 8  # a member may keep eight table sockets open
SHOWN_STUCK = 3


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


async def _cluster_figures(
    owner: httpx.AsyncClient, bases: list[str], expected: int
) -> dict[str, Any]:
    """The recorders of every process, put together. Each records only the actions that
    reached its own sockets at its own tables, so no count is expected: ask until the sum
    stops growing (for up to ten seconds). Medians and p99s are the worst process's: an
    upper bound of those of the actions recorded together (a figure that at most 1% of
    each process's actions exceed is one that at most 1% of them all exceed)."""
    deadline = time.perf_counter() + 10.0
    last = -1
    while True:
        each = []
        for base in bases:
            answer = await owner.get(f"{base}/api/admin/latency")
            each.append(answer.raise_for_status().json())
        count = sum(int(measured["count"]) for measured in each)
        if count in (last, expected) or time.perf_counter() > deadline:
            break
        last = count
        await asyncio.sleep(0.5)
    pauses: dict[int, dict[str, Any]] = {}
    for measured in each:
        for line in measured.get("gc_pauses", []):
            pause = pauses.setdefault(
                line["generation"], {"generation": line["generation"], "count": 0}
            )
            pause["count"] += line["count"]
            for key in ("p99_ms", "max_ms"):
                pause[key] = _worst([pause.get(key), line[key]])
    writes = [measured.get("action_writes") or {} for measured in each]
    stored = sum(int(w.get("actions", 0)) for w in writes)
    commits = sum(int(w.get("writes", 0)) for w in writes)
    return {
        "count": count,
        **{key: _worst([m[key] for m in each]) for key in ("median_ms", "p99_ms", "max_ms")},
        "gc_pauses": [pauses[generation] for generation in sorted(pauses)],
        "action_writes": {"actions_per_write": round(stored / commits, 2) if commits else None},
    }


def _worst(values: list[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return max(known) if known else None


async def _table_owners(cluster: Cluster, logs: list[Path], table_ids: list[int]) -> list[int]:
    """How many of the tables each process served at the end, in the order started."""
    ids = []
    for log in logs:
        found = re.findall(r"processes as process (\S+)", log.read_text())
        ids.append(found[-1] if found else None)
    counts = [0] * len(logs)
    redis = Redis.from_url(cluster.redis_url, decode_responses=True)
    try:
        for table_id in table_ids:
            owner = await redis.get(f"{cluster.prefix}:table:{table_id}:owner")
            if owner in ids:
                counts[ids.index(owner)] += 1
    finally:
        await redis.aclose()
    return counts


async def _accepted(seat: Seat, version: int, client_id: str) -> bool:
    """Whether the table took the action sent as `client_id` on `version`: it moves on past
    that version, or answers with a refusal naming the action (then it is not timed: the
    table moving on for another reason is no answer to it)."""
    while client_id not in seat.refused:
        if seat.version > version and client_id not in seat.refused:
            return True
        seat.changed.clear()
        await seat.changed.wait()
    return False


async def _resync(seat: Seat, table_id: int) -> None:
    """After a refusal, ask for the table as it is now: the server answers a resync with
    the missed events and a snapshot even when nothing changed, so the robot chooses again
    from a fresh view instead of repeating what was refused, or waiting for nothing."""
    seen = seat.snapshots
    await seat.ws.send(orjson.dumps({"type": "resync", "version": max(seat.version, 0)}).decode())

    async def answered() -> None:
        while seat.snapshots == seen:
            seat.changed.clear()
            await seat.changed.wait()

    await bounded(answered(), f"table {table_id}: a resync had no answer")


_top_ups = itertools.count(1)


async def _top_up_broke(play: Play, plan: TablePlan, seats: list[Seat]) -> bool:
    """Between hands, every robot short of chips buys in again; True if one did."""
    bought = False
    for info in seats[0].view.get("seats", []):
        seat_no, stack = int(info["seat"]), int(info["stack"])
        if seat_no >= len(seats) or not needs_chips(play.game, stack, play.buy_in):
            continue
        cookies = seats[seat_no].cookies
        base = plan.base_of(seat_no, play.base)
        async with httpx.AsyncClient(
            base_url=base, cookies=cookies, timeout=30, limits=_ROBOT_LIMITS
        ) as client:
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


async def _wait_change(plan: TablePlan, seats: list[Seat]) -> None:
    seats[0].changed.clear()
    try:
        await asyncio.wait_for(seats[0].changed.wait(), STUCK_SECONDS)
    except TimeoutError:
        stacks = [s.get("stack") for s in seats[0].view.get("seats", [])]
        hand = seats[0].view.get("hand")
        raise GaveUp(
            f"table {plan.table_id} showed no change for {STUCK_SECONDS:.0f} s "
            f"(hand: {hand and {k: hand.get(k) for k in ('phase', 'to_act')}}, "
            f"stacks: {stacks}, next hand in: {seats[0].view.get('next_hand_in')})"
        ) from None


async def _play_table(
    play: Play, plan: TablePlan, seats: list[Seat], rng: random.Random, outcome: Outcome
) -> None:
    """Play one table until it has `play.actions` timed actions, or give up on it (said in
    `outcome`) when it makes no progress for `STUCK_SECONDS`: a refusal, a lost frame or a
    table that stopped dealing never hangs the bench."""
    samples: list[float] = []
    try:
        await _play_timed(play, plan, seats, rng, samples)
    except GaveUp as stuck:
        outcome.gave_up.append(str(stuck))
    outcome.samples.extend(samples)  # those timed before giving up still count


async def _play_timed(
    play: Play, plan: TablePlan, seats: list[Seat], rng: random.Random, samples: list[float]
) -> None:
    ids = 0
    progress = time.perf_counter()
    while len(samples) < play.actions:
        if time.perf_counter() - progress > STUCK_SECONDS:
            raise GaveUp(f"table {plan.table_id}: no action accepted for {STUCK_SECONDS:.0f} s")
        view = seats[0].view
        hand = view.get("hand")
        if not hand or hand.get("phase") == "over" or not hand.get("to_act"):
            if not hand:
                before = seats[0].version
                if await _top_up_broke(play, plan, seats):
                    await bounded(
                        wait_version(seats[0], before + 1),
                        f"table {plan.table_id}: a top-up was never shown",
                    )
                    progress = time.perf_counter()
                    continue
            await _wait_change(plan, seats)
            continue
        actor = seats[hand["to_act"][0]]
        await bounded(
            wait_version(actor, seats[0].version),
            f"table {plan.table_id}: seat {hand['to_act'][0]} fell behind",
        )
        legal = (actor.view.get("hand") or {}).get("legal_actions") or []
        if not legal:
            await asyncio.sleep(0.001)
            continue
        choice = choose(legal, rng)
        if play.think:  # a person takes a moment; robots that never pause measure saturation
            await asyncio.sleep(play.think * rng.uniform(0.5, 1.5))
            if actor.version != seats[0].version:
                continue
        before = actor.version
        ids += 1
        message = {"type": "action", "id": f"b{ids}", "version": before, **choice}
        started = time.perf_counter()
        await actor.ws.send(orjson.dumps(message).decode())
        took = await bounded(
            _accepted(actor, before, message["id"]),
            f"table {plan.table_id}: action {message['id']} had no answer",
        )
        if not took:  # counted among the errors; look again before choosing again
            await _resync(actor, plan.table_id)
            continue
        target = actor.version
        await bounded(
            asyncio.gather(*(wait_version(s, target) for s in seats)),
            f"table {plan.table_id}: an action reached not every seat",
        )
        samples.append((time.perf_counter() - started) * 1000)
        progress = time.perf_counter()


async def _drive(play: Play, plans: list[TablePlan], ready: Ready) -> Outcome:
    """Open every seat's socket at these tables, wait for `ready`, then play; the outcome."""
    opened: dict[int, int] = {}  # per table, the sockets opened so far (in seat order)

    async def open_socket(plan: TablePlan, cookies: dict[str, str]) -> ClientConnection:
        seat = opened.get(plan.table_id, 0)
        opened[plan.table_id] = seat + 1
        base = plan.base_of(seat, play.base)
        return await connect(
            f"ws://{base.removeprefix('http://')}/ws/tables/{plan.table_id}",
            additional_headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())},
            origin=base,  # type: ignore[arg-type]
            max_size=2**20,
        )

    async def play_table(plan: TablePlan, seats: list[Seat], outcome: Outcome) -> None:
        await _play_table(play, plan, seats, random.Random(plan.seed), outcome)

    return await drive_tables(plans, open_socket, play_table, ready)


async def _bench(
    url: str,
    tables: int,
    actions: int,
    game: str,
    seed: int,
    think: float,
    clients: int,
    async_commit: bool,
    cluster: Cluster | None = None,
) -> dict[str, Any]:
    password = secrets.token_urlsafe(12)
    robots = max(PLAYERS_PER_TABLE, -(-tables * PLAYERS_PER_TABLE // TABLES_PER_ROBOT))
    await seed_club(url, robots, password, "bench live")
    processes = cluster.processes if cluster else 1
    data_dir = tempfile.mkdtemp(prefix="salon-bench-")
    env = server_env(
        url,
        data_dir,
        cluster,
        **FULL_SPEED,
        SALON_DB_ASYNC_COMMIT="true" if async_commit else "false",
    )
    servers: list[subprocess.Popen[bytes]] = []
    logs: list[Path] = []
    bases: list[str] = []
    buy_in = driver(game).bench_table.buy_in
    owners: list[int] = []
    try:
        for n, port in enumerate(free_ports(processes)):
            log = server_log(data_dir, processes, n)
            servers.append(start_server(env, port, log))
            logs.append(log)
            bases.append(f"http://127.0.0.1:{port}")
        base = bases[0]
        play = Play(base=base, game=game, actions=actions, think=think, buy_in=buy_in)
        for server, served, log in zip(servers, bases, logs, strict=True):
            await wait_healthy(server, served, log)
        # `servers` are the processes serving (Uvicorn runs in them): their memory before
        # any table is opened, then with every seat taken and every socket open.
        rss_before = rss(servers)
        rss_seated = rss_before
        async with httpx.AsyncClient(base_url=base, timeout=30) as owner:
            await login(owner, OWNER, password)
            plans = await _open_tables(
                owner, play, bases, tables, robots, password, random.Random(seed)
            )
            owner_headers = {"X-CSRF-Token": owner.cookies["salon_csrf"]}
            started = time.perf_counter()

            async def start() -> None:
                """Every socket is open: forget what the servers measured so far, and go."""
                nonlocal started, rss_seated
                rss_seated = rss(servers)
                for served in bases:  # the session is the club's: good on every process
                    reset = await owner.delete(f"{served}/api/admin/latency", headers=owner_headers)
                    reset.raise_for_status()
                started = time.perf_counter()

            outcome = await play_tables(_drive, play, plans, clients, start)
            elapsed = time.perf_counter() - started
            if cluster:
                measured = await _cluster_figures(owner, bases, len(outcome.samples))
                owners = await _table_owners(cluster, logs, [plan.table_id for plan in plans])
            else:
                measured = await _server_figures(owner, len(outcome.samples))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(10)
    median, p99, most = percentiles(outcome.samples)
    grown_kb = (rss_seated - rss_before) * 1024
    return {
        "game": game,
        "tables": tables,
        "think_ms": round(think * 1000),
        "clients": max(1, min(clients, tables)),
        "actions": len(outcome.samples),
        "seconds": round(elapsed, 3),
        "actions_per_second": round(len(outcome.samples) / elapsed, 1),
        "errors": outcome.errors,
        "gave_up": outcome.gave_up,
        "server_actions": measured["count"],
        "server_median_ms": measured["median_ms"],
        "server_p99_ms": measured["p99_ms"],
        "server_max_ms": measured["max_ms"],
        # The collector's pauses over the timed play, per generation (each stops every table).
        "gc_pauses": {
            str(line["generation"]): {
                "count": line["count"],
                "p99_ms": line["p99_ms"],
                "max_ms": line["max_ms"],
            }
            for line in measured.get("gc_pauses", [])
        },
        # Group commit: how many actions each commit carried on average.
        "actions_per_write": (measured.get("action_writes") or {}).get("actions_per_write"),
        "async_commit": async_commit,
        "median_ms": median,
        "p99_ms": p99,
        "max_ms": most,
        "server_rss_before_mb": rss_before,
        "server_rss_mb": rss_seated,
        # The whole growth put down to each table, then to each socket: two views of one
        # figure (a table here is its four seats' sockets and everything behind them).
        "rss_kb_per_table": round(grown_kb / tables, 1),
        "rss_kb_per_socket": round(grown_kb / (tables * PLAYERS_PER_TABLE), 1),
        "database": "postgresql" if url.startswith("postgresql") else url.split(":", 1)[0],
        "processes": processes,
    } | ({"tables_per_process": owners, "redis_prefix": cluster.prefix} if cluster else {})


# The figures each floor reports, named in the JSON line with its prefix.
_FLOOR_FIGURES = (
    "server_median_ms",
    "server_p99_ms",
    "server_max_ms",
    "median_ms",
    "p99_ms",
    "max_ms",
    "actions_per_second",
    "errors",
)


def _ratio(salon: float | None, floor: float | None) -> float | None:
    return round(salon / floor, 2) if salon is not None and floor else None


async def _floors(
    summary: dict[str, Any], url: str, actions: int, seed: int, think: float, floor: bool
) -> dict[str, Any]:
    """Play the floors in the same shape as Salon's run, and set Salon's p99s against
    theirs; a floor not played has null figures and says why. With Salon's asynchronous
    commit, the INSERT floor commits asynchronously too."""
    from app.commands.bench_floor_play import measure_floor

    shape = {
        "tables": summary["tables"],
        "actions": actions,
        "think": think,
        "seed": seed,
        "clients": summary["clients"],
    }
    runs: dict[str, dict[str, Any] | str] = {}
    runs["floor"] = await measure_floor(dsn=None, **shape) if floor else "--no-floor"
    if not floor:
        runs["floor_insert"] = "--no-floor"
    elif url.startswith("postgresql"):
        dsn = "postgresql://" + url.split("://", 1)[1]  # asyncpg's own spelling
        if summary["async_commit"]:  # asyncpg takes unknown query keys as server settings
            dsn += ("&" if "?" in dsn else "?") + "synchronous_commit=off"
        runs["floor_insert"] = await measure_floor(dsn=dsn, **shape)
    else:
        runs["floor_insert"] = "the insert floor needs Postgres"
    figures: dict[str, Any] = {}
    for name, run in runs.items():
        if isinstance(run, dict):
            figures |= {f"{name}_{key}": run[key] for key in _FLOOR_FIGURES}
            figures |= {f"{name}_gave_up": run["gave_up"], f"{name}_skipped": None}
        else:
            figures |= {f"{name}_{key}": None for key in _FLOOR_FIGURES}
            figures |= {f"{name}_gave_up": [], f"{name}_skipped": run}
        for key in ("p99_ms", "server_p99_ms"):
            over = f"{key.removesuffix('_ms')}_over_{name}"
            figures[over] = _ratio(summary[key], figures[f"{name}_{key}"])
    return figures


async def _open_tables(
    owner: httpx.AsyncClient,
    play: Play,
    bases: list[str],
    tables: int,
    robots: int,
    password: str,
    rng: random.Random,
) -> list[TablePlan]:
    """The owner opens the tables and the robots sit down, over the REST API. With several
    server processes, as behind a balancer without sticky sessions: robot n talks to
    process n % N over HTTP, the socket of seat s at table t (its index t * 4 + s among all
    seats) goes to process (t * 4 + s) % N, and the owner opens table t on process t % N."""
    table = driver(play.game).bench_table
    body: dict[str, Any] = {
        "game": play.game,
        "seat_count": PLAYERS_PER_TABLE,
        "buy_in_min": table.buy_in_min,
        "buy_in_max": table.buy_in_max,
        "turn_seconds": 600,
        "rules": dict(table.rules),
    }
    robots_http = []
    try:
        for n in range(robots):
            base = bases[n % len(bases)]
            client = httpx.AsyncClient(base_url=base, timeout=30, limits=_ROBOT_LIMITS)
            robots_http.append(client)
            await login(client, robot_name(n), password)
        plans = []
        for t in range(tables):
            made = await owner.post(
                f"{bases[t % len(bases)]}/api/tables",
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
            at = [bases[(t * PLAYERS_PER_TABLE + s) % len(bases)] for s in range(len(cookies))]
            plans.append(
                TablePlan(
                    table_id=table_id,
                    seed=rng.random(),
                    cookies=cookies,
                    bases=tuple(at) if len(bases) > 1 else (),
                )
            )
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
    floor: bool = True,
    async_commit: bool = False,
    processes: int = 1,
    redis_url: str | None = None,
) -> int:
    from app.db.migrate import upgrade_head

    if tables < 1 or actions < 1 or clients < 1 or processes < 1:
        print(
            "bench live: tables, actions, clients and processes must be at least 1",
            file=sys.stderr,
        )
        return 2
    cluster = cluster_for("bench live", database_url, processes, redis_url)
    upgrade_head(database_url)
    think = think_ms / 1000
    try:
        summary = asyncio.run(
            _bench(database_url, tables, actions, game, seed, think, clients, async_commit, cluster)
        )
    finally:
        if cluster:
            asyncio.run(forget_keys(cluster))
    # The floors are one process each: with several, they are not run, and that is said.
    summary |= asyncio.run(
        _floors(summary, database_url, actions, seed, think, floor and not cluster)
    )
    if cluster and floor:
        for name in ("floor", "floor_insert"):
            summary[f"{name}_skipped"] = "the floors are single-process: not run with --processes"
    print(
        f"{summary['game']}: {tables} table(s), think {think_ms} ms, "
        f"{summary['actions']} actions in {summary['seconds']} s on {summary['database']}, "
        f"{summary['clients']} client process(es)"
        + (", asynchronous commit" if async_commit else "")
        + (f", {processes} server processes" if cluster else "")
    )
    if cluster:
        print(
            "server (actions arriving at their table's own process only; worst process's "
            f"figures): action received -> last seat's broadcast sent: "
            f"median {summary['server_median_ms']} ms, p99 {summary['server_p99_ms']} ms, "
            f"max {summary['server_max_ms']} ms ({summary['server_actions']} actions over "
            f"{processes} processes)"
        )
        print(
            "tables served by each process at the end: "
            + ", ".join(str(count) for count in summary["tables_per_process"])
        )
    else:
        print(
            f"server: action received -> last seat's broadcast sent: "
            f"median {summary['server_median_ms']} ms, p99 {summary['server_p99_ms']} ms, "
            f"max {summary['server_max_ms']} ms ({summary['server_actions']} actions)"
        )
    print(
        f"end to end: action sent -> last seat received: median {summary['median_ms']} ms, "
        f"p99 {summary['p99_ms']} ms, max {summary['max_ms']} ms"
    )
    pauses = ", ".join(
        f"gen {generation}: {p['count']} (p99 {p['p99_ms']} ms, max {p['max_ms']} ms)"
        for generation, p in summary["gc_pauses"].items()
    )
    print(f"garbage collections during play: {pauses or 'not reported'}")
    print(
        f"throughput: {summary['actions_per_second']} accepted actions/s; "
        f"errors: {summary['errors']} error frame(s) read; "
        f"{summary['actions_per_write']} actions per commit"
    )
    print(
        ("server memory" if not cluster else f"server memory ({processes} processes together)")
        + f": {summary['server_rss_before_mb']} MB before seating, "
        f"{summary['server_rss_mb']} MB seated: about {summary['rss_kb_per_table']} KB "
        f"a table, {summary['rss_kb_per_socket']} KB a socket"
    )
    for name, title in (("floor", "floor"), ("floor_insert", "floor + INSERT")):
        _print_floor(summary, name, title)
    stuck = [*summary["gave_up"], *summary["floor_gave_up"], *summary["floor_insert_gave_up"]]
    if stuck:  # every reason is in the JSON line; a few say enough here
        print(f"gave up on {len(stuck)} table(s), e.g.: " + "; ".join(stuck[:SHOWN_STUCK]))
    print(json.dumps(summary))
    return 1 if stuck else 0


def _print_floor(summary: dict[str, Any], name: str, title: str) -> None:
    if summary[f"{name}_skipped"] is not None:
        print(f"{title}: skipped ({summary[f'{name}_skipped']})")
        return
    print(
        f"{title}: server p99 {summary[f'{name}_server_p99_ms']} ms, end to end p99 "
        f"{summary[f'{name}_p99_ms']} ms (medians {summary[f'{name}_server_median_ms']} / "
        f"{summary[f'{name}_median_ms']} ms), {summary[f'{name}_actions_per_second']} "
        f"actions/s, {summary[f'{name}_errors']} error(s); Salon's p99 over it: server "
        f"{summary[f'server_p99_over_{name}']}x, end to end {summary[f'p99_over_{name}']}x"
    )
