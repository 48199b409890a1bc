"""The floor of ``salon bench live``: the least a live table's server could do, to measure
Salon against on the same machine, in the same run.

A bare WebSocket broadcast server, run as its own process (``python -m
app.commands.bench_floor --port N``): no game, no sessions. A socket opened on ``/t/<table>``
joins that table and is sent a small snapshot; an action frame from any of its sockets
bumps the table's version and the new snapshot goes to every socket there. With
``SALON_FLOOR_DATABASE_URL`` set (Postgres), each action is first written ahead as one
committed ``INSERT`` through a prepared statement on a long-lived connection, as Salon
writes an accepted action before telling anyone.

It times what Salon's recorder times, from the action frame read to the last socket's send
returned: ``GET /latency`` reads the figures (count, median, p99, max in ms), ``GET
/latency/reset`` forgets them, ``GET /health`` answers once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import time
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

import orjson
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from app.config import Settings

DATABASE_ENV = "SALON_FLOOR_DATABASE_URL"
# As many long-lived connections as Salon's pool holds by default (SALON_DB_POOL_SIZE), or
# with many busy tables the floor would queue for one connection where Salon does not.
CONNECTIONS: int = Settings.model_fields["db_pool_size"].default
# Where the write-ahead goes, shaped like Salon's action rows: created in the scratch
# database when the floor starts, dropped when it stops.
CREATE = (
    "CREATE TABLE IF NOT EXISTS bench_floor_actions (id bigserial PRIMARY KEY,"
    " table_key text NOT NULL, client_id text NOT NULL, action jsonb NOT NULL,"
    " at timestamptz NOT NULL DEFAULT now())"
)
INSERT = "INSERT INTO bench_floor_actions (table_key, client_id, action) VALUES ($1, $2, $3::jsonb)"
DROP = "DROP TABLE IF EXISTS bench_floor_actions"

Insert = Callable[[str, str, str], Awaitable[None]]


class Floor:
    """The tables' sockets and versions, and the recorder."""

    def __init__(self, insert: Insert | None) -> None:
        self.insert = insert
        self.sockets: dict[str, set[ServerConnection]] = {}
        self.versions: dict[str, int] = {}
        self.samples: list[float] = []

    def frame(self, table: str) -> str:
        return orjson.dumps(
            {"type": "snapshot", "version": self.versions[table], "view": {}}
        ).decode()

    async def serve(self, ws: ServerConnection) -> None:
        table = ws.request.path if ws.request is not None else "/"
        peers = self.sockets.setdefault(table, set())
        self.versions.setdefault(table, 0)
        peers.add(ws)
        try:
            await ws.send(self.frame(table))
            async for raw in ws:
                received = time.perf_counter()
                message = orjson.loads(raw)
                if message.get("type") != "action":
                    await ws.send('{"type":"error","code":"invalid_message"}')
                    continue
                if self.insert is not None:
                    text = raw if isinstance(raw, str) else raw.decode()
                    await self.insert(table, str(message.get("id")), text)
                self.versions[table] += 1
                frame = self.frame(table)
                for peer in list(peers):
                    with contextlib.suppress(ConnectionClosed):  # a robot done early
                        await peer.send(frame)
                self.samples.append((time.perf_counter() - received) * 1000)
        finally:
            peers.discard(ws)

    def figures(self) -> dict[str, Any]:
        if not self.samples:
            return {"count": 0, "median_ms": None, "p99_ms": None, "max_ms": None}
        ordered = sorted(self.samples)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return {
            "count": len(ordered),
            "median_ms": round(statistics.median(ordered), 3),
            "p99_ms": round(p99, 3),
            "max_ms": round(ordered[-1], 3),
        }

    def answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """The control requests, answered before any WebSocket handshake."""
        if request.path == "/health":
            return connection.respond(HTTPStatus.OK, "ok\n")
        if request.path == "/latency":
            return connection.respond(HTTPStatus.OK, orjson.dumps(self.figures()).decode())
        if request.path == "/latency/reset":
            self.samples.clear()
            return connection.respond(HTTPStatus.OK, "ok\n")
        return None


async def _writer(dsn: str) -> tuple[Insert, Callable[[], Awaitable[None]]]:
    """The write-ahead: `CONNECTIONS` connections opened once, each with the INSERT
    prepared, lent to one action at a time; and how to close them (dropping the table)."""
    import asyncpg

    from app.db.session import postgres_connection

    # Its TLS as Salon reads it (`sslmode=` or `ssl=`), so both measure the same connection.
    bare, tls = postgres_connection(dsn)
    url = bare.replace("postgresql+asyncpg://", "postgresql://", 1)
    first = await asyncpg.connect(url, ssl=tls)
    await first.execute(CREATE)
    others = [await asyncpg.connect(url, ssl=tls) for _ in range(CONNECTIONS - 1)]
    connections = [first, *others]
    idle: asyncio.Queue[Any] = asyncio.Queue()
    for connection in connections:
        await idle.put(await connection.prepare(INSERT))

    async def insert(table: str, client_id: str, action: str) -> None:
        statement = await idle.get()
        try:  # outside a transaction: committed when it returns
            await statement.fetch(table, client_id, action)
        finally:
            idle.put_nowait(statement)

    async def close() -> None:
        # The others first: a statement prepared and never run keeps its connection
        # inside the statement's lock on the table, which the DROP would wait for.
        for connection in connections[1:]:
            await connection.close()
        with contextlib.suppress(Exception):
            await first.execute(DROP)
        await first.close()

    return insert, close


async def _main(port: int) -> None:
    dsn = os.environ.get(DATABASE_ENV)
    insert, close = await _writer(dsn) if dsn else (None, None)
    floor = Floor(insert)
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    try:
        async with serve(
            floor.serve,
            "127.0.0.1",
            port,
            process_request=floor.answer,
            compression=None,  # as `salon serve`: no deflate for frames this small
            max_size=64 * 1024,
        ):
            await stop
    finally:
        if close is not None:
            await close()


def main() -> None:
    parser = argparse.ArgumentParser(description="The bench's floor: a bare broadcast server")
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    try:  # the event loop `salon serve` gets from Uvicorn when it is installed
        import uvloop
    except ImportError:
        asyncio.run(_main(port))
    else:
        uvloop.run(_main(port))


if __name__ == "__main__":
    main()
