"""A real Uvicorn server in this event loop, and players driving it over real WebSockets.

The server runs the app with a `FakeClock`, so tests start hands and expire turn timers by
advancing time instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
import uvicorn
from fastapi import FastAPI
from websockets.asyncio.client import ClientConnection, connect

from app.config import Settings
from app.db.session import Database
from app.main import create_app
from app.tables.clock import FakeClock
from tests.helpers import add_member, csrf_headers, found_club, login, post
from tests.live import free_port

_ids = itertools.count(1)


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[str]:
    """Serve `app` on a free port; yields "127.0.0.1:PORT"."""
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        ws_max_size=64 * 1024,
        timeout_graceful_shutdown=5,
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


class Player:
    """A member with a browser-like HTTP session and one table WebSocket."""

    def __init__(self, host: str, username: str) -> None:
        self.host = host
        self.username = username
        self.http = httpx.AsyncClient(base_url=f"http://{host}")
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.snapshot: dict[str, Any] | None = None
        self._changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None

    async def login(self) -> None:
        response = await login(self.http, self.username)
        assert response.status_code == 200, response.text

    async def post(self, path: str, body: Any = None) -> httpx.Response:
        return await post(self.http, path, body)

    async def get(self, path: str) -> httpx.Response:
        return await self.http.get(path)

    async def put(self, path: str, body: Any = None) -> httpx.Response:
        return await self.http.put(path, json=body, headers=csrf_headers(self.http))

    async def delete(self, path: str) -> httpx.Response:
        return await self.http.delete(path, headers=csrf_headers(self.http))

    async def open(
        self, table_id: int, version: int | None = None, invite: str | None = None
    ) -> None:
        params = {"version": version, "invite": invite}
        query = "&".join(f"{k}={v}" for k, v in params.items() if v is not None)
        query = f"?{query}" if query else ""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await connect(
            f"ws://{self.host}/ws/tables/{table_id}{query}",
            additional_headers={"Cookie": cookie},
            origin=f"http://{self.host}",  # type: ignore[arg-type]
            max_size=2**20,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                frame = orjson.loads(raw)
                async with self._changed:
                    self.frames.append(frame)
                    if frame["type"] == "snapshot":
                        self.snapshot = frame
                    self._changed.notify_all()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self.ws = None

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(orjson.dumps(message).decode())

    async def wait_for(self, ready: Callable[[Player], bool], seconds: float = 10) -> None:
        async with asyncio.timeout(seconds), self._changed:
            await self._changed.wait_for(lambda: ready(self))

    @property
    def version(self) -> int:
        return int(self.snapshot["version"]) if self.snapshot else -1

    @property
    def view(self) -> dict[str, Any]:
        assert self.snapshot is not None
        view: dict[str, Any] = self.snapshot["view"]
        return view

    @property
    def hand(self) -> dict[str, Any] | None:
        hand: dict[str, Any] | None = self.view.get("hand") if self.snapshot else None
        return hand

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error"]

    async def act(self, action: dict[str, Any]) -> None:
        """Send an action (with a fresh client id and the version it was decided on)."""
        message = {"type": "action", "id": f"a{next(_ids)}", "version": self.version, **action}
        message.pop("seat", None)
        await self.send(message)


def hand_state(player: Player) -> dict[str, Any]:
    """What a player sees of the hand: its number, phase, turn, own cards, pot, stacks and
    the trick on the table (to compare before and after a restart)."""
    hand = player.hand or {}
    return {
        "number": hand.get("number"),
        "phase": hand.get("phase"),
        "to_act": hand.get("to_act"),
        "cards": sorted(hand.get("hand", [])),
        "pot": hand.get("pot"),
        "stacks": [s["stack"] for s in hand.get("seats", [])],
        "trick": hand.get("trick"),
    }


async def log_in(host: str, name: str, secret: str) -> Player:
    """A member logged in with their password over HTTP, as a browser would."""
    player = Player(host, name)
    token = (await player.http.get("/api/auth/csrf")).json()["csrf_token"]
    response = await player.http.post(
        "/api/auth/login",
        json={"username": name, "password": secret},
        headers={"X-CSRF-Token": token},
    )
    assert response.status_code == 200, response.text
    return player


def seated(room: Room) -> dict[int, Player]:
    """The players by the seat the table shows them on (seats may be drawn at the first
    hand, rules/bouillotte.md §1), from the first player's last snapshot."""
    by_name = {p.username: p for p in room.players}
    return {s["seat"]: by_name[s["username"]] for s in room.players[0].view["seats"]}


async def legal_for(players: dict[int, Player], seat: int) -> list[dict[str, Any]]:
    """What `seat` may do, once it has seen the table's latest version."""
    player = players[seat]
    target = next(iter(players.values())).version
    await player.wait_for(lambda p, v=target: p.version >= v)
    legal: list[dict[str, Any]] = (player.hand or {}).get("legal_actions") or []
    return legal


async def act_at(players: dict[int, Player], seat: int, action: dict[str, Any]) -> None:
    """`seat` sends `action`; returns once it was accepted and every player has seen it."""
    player = players[seat]
    before = player.version
    await player.act(action)
    await player.wait_for(lambda p, v=before: p.version > v or bool(p.errors()))
    assert not player.errors(), player.errors()
    for other in players.values():
        await other.wait_for(lambda p, v=player.version: p.version >= v)


async def play_until_over(players: dict[int, Player], rng: random.Random, limit: int = 400) -> None:
    """Random legal play by whoever the table says is to act, until the hand is over."""
    for _ in range(limit):
        hand = next(iter(players.values())).hand
        if hand is None or hand.get("phase") == "over":
            return
        seat = hand["to_act"][0]
        legal = await legal_for(players, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        # Mostly come in: a hand where everybody passes plays no trick.
        playing = [a for a in legal if a["action"] == "play"]
        choice = dict(playing[0] if playing and rng.random() < 0.8 else rng.choice(legal))
        if "min" in choice:  # a bet: any total in the legal range, usually a modest one
            low, high = choice.pop("min"), choice.pop("max")
            choice["amount"] = low if rng.random() < 0.7 else rng.randint(low, high)
        await act_at(players, seat, choice)
    raise AssertionError("the hand did not end")


@dataclass
class Room:
    host: str
    clock: FakeClock
    owner: Player
    players: list[Player]
    table_id: int
    app: FastAPI


@asynccontextmanager
async def open_room(
    settings: Settings,
    db: Database,
    table: dict[str, Any],
    names: list[str],
    buy_in: int,
    seats: Sequence[int] | None = None,
    **overrides: Any,
) -> AsyncIterator[Room]:
    """A club, members with 1000 chips, a table made by the owner, everyone seated in
    order (on seat n, or on `seats[n]`), and a real server whose clock only moves when the
    test says so."""
    await found_club(db)
    for name in names:
        await add_member(db, name, chips=1000)
    clock = FakeClock()
    app = create_app(
        # Play starts after the same 3 s as between hands (not the club's longer gathering).
        settings.model_copy(
            update={"next_hand_seconds": 3.0, "gathering_seconds": 3.0, **overrides}
        ),
        clock=clock,
    )
    async with serving(app) as host:
        owner = Player(host, "owner")
        await owner.login()
        created = await owner.post("/api/tables", table)
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        players = [Player(host, name) for name in names]
        for n, player in enumerate(players):
            await player.login()
            seated = await player.post(
                f"/api/tables/{table_id}/seat",
                {
                    "seat": seats[n] if seats else n,
                    "buy_in": buy_in,
                    "request_key": f"sit-{player.username}-0001",
                },
            )
            assert seated.status_code == 200, seated.text
        try:
            yield Room(host, clock, owner, players, table_id, app)
        finally:
            for player in [owner, *players]:
                await player.close()
                await player.http.aclose()


async def watch(room: Room) -> None:
    """Every seated player opens the table's socket and has their first snapshot."""
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)


async def deal(room: Room) -> None:
    """Let the pause before the next hand run out; every player sees the new hand."""
    await room.clock.advance(3)
    for player in room.players:
        await player.wait_for(lambda p: p.hand is not None)
