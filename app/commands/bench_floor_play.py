"""The floor's half of ``salon bench live``: start the floor server (`bench_floor`) as its
own process and let robots play it in the same shape as Salon's tables.

Same number of tables, four sockets each, the same actions per table, the same think time
drawn from the same seeds, the same client processes and socket reader: only the server
differs. The seats act in turn; an action is timed from its send to the moment every seat
at the table has read the version it made.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from app.commands.bench_clients import (
    GaveUp,
    Outcome,
    Play,
    Ready,
    Seat,
    TablePlan,
    bounded,
    drive_tables,
    free_port,
    percentiles,
    play_tables,
    wait_version,
)
from app.commands.bench_floor import DATABASE_ENV

PLAYERS_PER_TABLE = 4


async def _play_table(play: Play, plan: TablePlan, seats: list[Seat], outcome: Outcome) -> None:
    rng = random.Random(plan.seed)
    try:
        await bounded(wait_version(seats[0], 0), f"floor table {plan.table_id}: no snapshot")
        for n in range(play.actions):
            actor = seats[n % len(seats)]
            await bounded(
                wait_version(actor, seats[0].version),
                f"floor table {plan.table_id}: seat {n % len(seats)} saw no change",
            )
            if play.think:
                await asyncio.sleep(play.think * rng.uniform(0.5, 1.5))
            before = actor.version
            message = f'{{"type":"action","id":"b{n}","version":{before},"action":"play"}}'
            started = time.perf_counter()
            await actor.ws.send(message)
            await bounded(
                asyncio.gather(*(wait_version(s, before + 1) for s in seats)),
                f"floor table {plan.table_id}: an action reached not every seat",
            )
            outcome.samples.append((time.perf_counter() - started) * 1000)
    except GaveUp as stuck:
        outcome.gave_up.append(str(stuck))


async def drive_floor(play: Play, plans: list[TablePlan], ready: Ready) -> Outcome:
    """Open every seat's socket at these floor tables, wait for `ready`, then play."""
    host = play.base.removeprefix("http://")

    async def open_socket(plan: TablePlan, cookies: dict[str, str]) -> ClientConnection:
        return await connect(f"ws://{host}/t/{plan.table_id}", max_size=2**20)

    async def play_table(plan: TablePlan, seats: list[Seat], outcome: Outcome) -> None:
        await _play_table(play, plan, seats, outcome)

    return await drive_tables(plans, open_socket, play_table, ready)


async def measure_floor(
    *,
    dsn: str | None,
    tables: int,
    actions: int,
    think: float,
    seed: int,
    clients: int,
) -> dict[str, Any]:
    """Start a floor server (with the write-ahead INSERT when `dsn` is a Postgres one),
    play it, stop it: its figures, named as Salon's."""
    port = free_port()
    env = dict(os.environ)
    env.pop(DATABASE_ENV, None)
    if dsn:
        env[DATABASE_ENV] = dsn
    log = Path(tempfile.mkdtemp(prefix="salon-floor-")) / "floor.log"
    server = subprocess.Popen(  # noqa: ASYNC220, S603 (our own module, started once)
        [sys.executable, "-m", "app.commands.bench_floor", "--port", str(port)],
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(seed)  # the same seeds, so the same think times, as Salon's tables
    plans = [
        TablePlan(table_id=t, seed=rng.random(), cookies=[{}] * PLAYERS_PER_TABLE)
        for t in range(tables)
    ]
    play = Play(base=base, game="floor", actions=actions, think=think, buy_in=0)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as control:
            await _wait_listening(control, server, log)
            started = time.perf_counter()

            async def start() -> None:
                nonlocal started
                (await control.get("/latency/reset")).raise_for_status()
                started = time.perf_counter()

            outcome = await play_tables(drive_floor, play, plans, clients, start)
            elapsed = time.perf_counter() - started
            measured = (await control.get("/latency")).raise_for_status().json()
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # its figures are read: no need to wait longer
            server.kill()
            server.wait()
    median, p99, most = percentiles(outcome.samples)
    return {
        "actions": len(outcome.samples),
        "actions_per_second": round(len(outcome.samples) / elapsed, 1),
        "errors": outcome.errors,
        "gave_up": outcome.gave_up,
        "server_median_ms": measured["median_ms"],
        "server_p99_ms": measured["p99_ms"],
        "server_max_ms": measured["max_ms"],
        "median_ms": median,
        "p99_ms": p99,
        "max_ms": most,
    }


async def _wait_listening(
    control: httpx.AsyncClient, server: subprocess.Popen[bytes], log: Path
) -> None:
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:
        if server.poll() is not None:
            said = await asyncio.to_thread(log.read_text)
            raise RuntimeError(f"bench live: the floor server stopped:\n{said}")
        try:
            if (await control.get("/health")).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.05)
    raise RuntimeError("bench live: the floor server did not start listening in 30 s")
