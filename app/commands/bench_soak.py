"""``salon bench soak``: hours of play at many tables, watched for leaks, errors and losses.

Starts ``salon serve`` on a scratch database (one process, or ``--processes N`` sharing a
PostgreSQL database through a Redis, as ``salon bench live`` does) and opens ``--tables``
tables, Bourré and Bouillotte in turn, of three kinds (`KINDS`):

- **bots**: the club's owner seats four bots (club level) and they play on their own; a
  bot that leaves (its chips gone, or under the table's minimum) is replaced by another;
- **fill**: a table that fills its empty seats with bots while a person plays, and one
  member playing there;
- **practice**: a member's practice table (play money, bots in the other seats).

Every member is a real WebSocket client, as a page is: it acts when its seat is to act (a
legal action at random), tops up when short of chips between hands, stands up every few
hands and sits down again a moment later ("members coming and going"), and reconnects,
to the next process, whenever its socket closes. Every error frame it reads is counted by
code. Bots think briefly and hands follow each other at once, so tables play at full speed.

With several processes, one ``salon serve`` process is killed (SIGKILL) every
``--kill-every`` minutes, in turn, and started again on its port.

Every ``--sample-seconds`` the memory (RSS) of each server process is read; every
``--audit-every`` minutes, and at the end, the ledger is audited (`salon audit`'s own code)
and every table is checked for dealing. At the end, every action a member had seen
accepted must be stored exactly once (by its client id). Printed: the figures, the RSS
curve, and a verdict (app/commands/soak_verdict.py) — exit status 1 when it fails — then
a JSON line.

The database must be a scratch one: it is migrated and seeded; a database that already has
a club is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from sqlalchemy import func, select
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from app.commands.bench_clients import Seat, choose, needs_chips, rss_mb
from app.commands.bench_servers import (
    FULL_SPEED,
    OWNER,
    Cluster,
    cluster_for,
    forget_keys,
    free_ports,
    login,
    robot_name,
    seed_club,
    server_env,
    server_log,
    start_server,
    wait_healthy,
)
from app.commands.soak_verdict import Life, Verdict, judge, unexpected_errors, who
from app.db.models import Hand, HandAction
from app.db.session import Database
from app.engine.registry import driver
from app.services.audit import club_audit

GAMES = ("bourre", "bouillotte")
# The kinds of table, in turn: a handful of tables has one of each.
KINDS = ("fill", "practice", "bots", "bots", "bots")
SEATS = 4
BOT_LEVEL = "club"
# How long a request or a reconnection keeps trying while a process is down.
RETRY_SECONDS = 30.0
# How often the bots' tables are looked over for a seat to fill.
KEEPER_SECONDS = 5.0
# A bots' table that started no hand for this long (or since the run began, if shorter)
# has stopped dealing.
STUCK_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Soak:
    minutes: float
    tables: int
    kill_every: float  # minutes; 0: never (one process is never killed)
    audit_every: float  # minutes
    sample_seconds: float
    seed: int


@dataclass(slots=True)
class Figures:
    """What the run saw, as it goes."""

    started: float = field(default_factory=time.monotonic)
    errors: Counter[str] = field(default_factory=Counter)
    # Requests refused (409), by code: asked at the wrong moment, changing nothing.
    refusals: Counter[str] = field(default_factory=Counter)
    # Requests answered with something else than success or a refusal: said, and a failure.
    failed_requests: list[str] = field(default_factory=list)
    acknowledged: dict[int, list[str]] = field(default_factory=dict)  # member id -> client ids
    actions_sent: int = 0
    top_ups: int = 0
    comings_and_goings: int = 0
    reconnections: int = 0
    # Sockets refused `no_spectators` as a member's stand took effect (Member._stint).
    refused_after_standing: int = 0
    # Requests done by a process killed before it answered, found so when sent again.
    done_before_answered: int = 0
    kills: int = 0
    audits: list[dict[str, Any]] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)

    def now(self) -> float:
        return round(time.monotonic() - self.started, 1)


class Servers:
    """The `salon serve` processes, each on its own port for the whole run; one killed is
    started again on the same port. Their memory, sampled."""

    def __init__(self, env: dict[str, str], data_dir: str, processes: int) -> None:
        self.env = env
        self.ports = free_ports(processes)
        self.logs = [server_log(data_dir, processes, n) for n in range(processes)]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.running: list[subprocess.Popen[bytes]] = []
        self.down: set[int] = set()
        self.curve: list[tuple[float, list[float | None]]] = []
        # Processes found stopped without being killed (said once each).
        self.died: dict[int, str] = {}

    async def start(self) -> None:
        for n, port in enumerate(self.ports):
            self.running.append(start_server(self.env, port, self.logs[n]))
        for n, server in enumerate(self.running):
            await wait_healthy(server, self.bases[n], self.logs[n])

    async def kill_and_restart(self, n: int) -> None:
        """SIGKILL process `n` (no shutdown of any kind), then start it again."""
        self.down.add(n)
        self.running[n].send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.running[n].wait)
        self.running[n] = start_server(self.env, self.ports[n], self.logs[n])
        await wait_healthy(self.running[n], self.bases[n], self.logs[n])
        self.down.discard(n)

    def live_bases(self) -> list[str]:
        return [base for n, base in enumerate(self.bases) if n not in self.down] or self.bases

    def sample(self, at: float) -> None:
        row: list[float | None] = []
        for n, server in enumerate(self.running):
            mb = None
            if n not in self.down and server.poll() is None:
                with contextlib.suppress(OSError, RuntimeError):
                    mb = rss_mb(server.pid)
            elif n not in self.down:
                self.died.setdefault(
                    n,
                    f"process {n} stopped by itself by {at:.0f} s (status "
                    f"{server.returncode}); see {self.logs[n]}",
                )
            row.append(mb)
        self.curve.append((at, row))

    def memory(self, kill_every_minutes: float) -> Life:
        """What the verdict judges: one process's curve, or the sum of several's over the
        samples where all were up, with the kills' cycle (app/commands/soak_verdict.py says
        why)."""
        if len(self.running) == 1:
            return Life(0, tuple((at, row[0]) for at, row in self.curve if row[0] is not None))
        full = [
            (at, round(sum(mb for mb in row if mb is not None), 1))
            for at, row in self.curve
            if None not in row
        ]
        cycle = kill_every_minutes * 60 * len(self.running) if kill_every_minutes > 0 else None
        return Life(None, tuple(full), processes=len(self.running), cycle=cycle)

    def stop(self) -> None:
        for server in self.running:
            server.terminate()
        for server in self.running:
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


class Refused(Exception):
    """A request answered with a refusal (409): asked at the wrong moment, changes nothing."""


class Client:
    """One login's HTTP requests, sent to the processes in turn as a balancer would, and
    tried again on the next one while a process is down."""

    def __init__(self, servers: Servers, figures: Figures) -> None:
        self.servers = servers
        self.figures = figures
        self.http = httpx.AsyncClient(timeout=30, limits=httpx.Limits(keepalive_expiry=2))
        self._turn = itertools.count()

    def base(self) -> str:
        bases = self.servers.live_bases()
        return bases[next(self._turn) % len(bases)]

    async def login(self, name: str, password: str) -> None:
        self.http.base_url = httpx.URL(self.base())
        await login(self.http, name, password)

    async def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        *,
        done_if_repeated: str | None = None,
    ) -> Any:
        """Send a request, and again (to the next live process) while there is no answer
        or a 503. `done_if_repeated`: the error code that, answering a request sent again
        after one went unanswered, means the first was done (its process was killed after
        doing it, before answering): a stand has no request key, and once done, a stand
        again is refused so. None then."""
        deadline = time.monotonic() + RETRY_SECONDS
        unanswered = False
        while True:
            try:
                answer = await self.http.request(
                    method,
                    self.base() + path,
                    json=body,
                    headers={"X-CSRF-Token": self.http.cookies.get("salon_csrf") or ""},
                )
            except httpx.TransportError:
                answer = None
                unanswered = True
            if answer is not None and answer.status_code < 300:
                return answer.json()
            if unanswered and answer is not None and done_if_repeated is not None:
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    if answer.json()["error"]["code"] == done_if_repeated:
                        self.figures.done_before_answered += 1
                        return None
            if answer is not None and answer.status_code == 409:
                code = str(answer.json()["error"]["code"])
                self.figures.refusals[code] += 1
                raise Refused(code)
            if answer is not None and answer.status_code != 503:
                said = f"{method} {path}: {answer.status_code} {answer.text[:200]}"
                self.figures.failed_requests.append(said)
                raise Refused(said)
            if time.monotonic() > deadline:
                said = f"{method} {path}: no answer for {RETRY_SECONDS:.0f} s"
                self.figures.failed_requests.append(said)
                raise Refused(said)
            await asyncio.sleep(0.2)

    async def close(self) -> None:
        await self.http.aclose()


@dataclass(slots=True)
class Table:
    id: int
    game: str
    kind: str
    buy_in: int


async def _open_table(owner: Client, n: int, game: str, bot_fill: bool) -> Table:
    bench = driver(game).bench_table
    made = await owner.call(
        "POST",
        "/api/tables",
        {
            "name": f"Soak {n}",
            "game": game,
            "seat_count": SEATS,
            "buy_in_min": bench.buy_in_min,
            "buy_in_max": bench.buy_in_max,
            # A member whose process was killed mid-turn is back within seconds; one that
            # is not is played for by the timer, and the table goes on.
            "turn_seconds": 20,
            "rules": dict(bench.rules),
        },
    )
    if bot_fill:
        await owner.call("PUT", f"/api/tables/{made['id']}/bot-fill", {"level": BOT_LEVEL})
    return Table(made["id"], game, "fill" if bot_fill else "bots", bench.buy_in)


async def _fill_with_bots(owner: Client, table: Table) -> int:
    """Seat a bot in each empty seat of a bots' table; how many sat down."""
    seen = await owner.call("GET", f"/api/tables/{table.id}")
    taken = {seat["seat"] for seat in seen["seats"]}
    seated = 0
    for seat in range(SEATS):
        if seat in taken:
            continue
        body = {"level": BOT_LEVEL, "seat": seat, "request_key": f"soak-bot-{secrets.token_hex(8)}"}
        with contextlib.suppress(Refused):  # a hand started, or a bot is leaving: next round
            await owner.call("POST", f"/api/tables/{table.id}/bots", body)
            seated += 1
    return seated


async def _keep_filled(owner: Client, table: Table) -> None:
    with contextlib.suppress(Refused):
        await _fill_with_bots(owner, table)


@dataclass(slots=True)
class Stint:
    """A member's few hands between sitting down and standing up."""

    hands: int
    seen: set[int] = field(default_factory=set)
    standing: bool = False


class Member:
    """A member at their table, as a page is: plays their seat, tops up, comes and goes."""

    def __init__(
        self, number: int, client: Client, table: Table, figures: Figures, rng: random.Random
    ) -> None:
        self.number = number
        self.client = client
        self.table = table
        self.figures = figures
        self.rng = rng
        self.user_id = 0
        self.username = ""
        self.seat: Seat | None = None
        self.sent = itertools.count(1)

    async def sit(self) -> None:
        body = {"buy_in": self.table.buy_in, "request_key": f"soak-sit-{secrets.token_hex(8)}"}
        await self.client.call("POST", f"/api/tables/{self.table.id}/seat", body)

    async def run(self, until: float) -> None:
        """Play stints of a few hands until `until` (monotonic), standing up between them;
        a member who cannot connect or sit down again for `RETRY_SECONDS` stops (said)."""
        try:
            while time.monotonic() < until:
                if not await self._stint(until, hands=self.rng.randint(3, 8)):
                    return
                await asyncio.sleep(self.rng.uniform(1.0, 3.0))  # away a moment, then back
                await self._come_back()
                self.figures.comings_and_goings += 1
        except (Refused, OSError, WebSocketException) as error:
            self.figures.failed_requests.append(f"member {self.username} stopped: {error}")

    async def _stint(self, until: float, hands: int) -> bool:
        """Play `hands` hands, then stand up and play on until the seat is given up (at
        the end of a hand the member was dealt in); reconnect whenever the socket closes.
        False if time ran out first."""
        stint = Stint(hands)
        while time.monotonic() < until:
            if stint.standing and not await self._seated():
                return True
            seat = await self._connect()
            reader = asyncio.create_task(seat.read())
            stood_up = 0
            try:
                if await self._play(seat, until, stint):
                    return True
            except WebSocketException:
                pass  # its process was killed, or the table moved: connect again, as a page does
            finally:
                await seat.ws.close()
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, WebSocketException):
                    await reader
                if stint.standing:
                    # The stand took effect (at the end of the hand) between `_seated()`
                    # and this socket's opening: at a table without spectators the member,
                    # seated no longer, is refused as a watcher — the stint is over. The
                    # page stops there too (static/js/table/socket.js, FINAL_CODES). Only
                    # after a stand: a member refused so while seated lost their seat.
                    stood_up = seat.codes.pop("no_spectators", 0)
                    self.figures.refused_after_standing += stood_up
                self.figures.errors.update(seat.codes)
            if stood_up:
                return True
        return False

    async def _seated(self) -> bool:
        seen = await self.client.call("GET", f"/api/tables/{self.table.id}")
        return any(seat["username"] == self.username for seat in seen["seats"])

    async def _come_back(self) -> None:
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            try:
                await self.sit()
                return
            except Refused:
                if time.monotonic() > deadline:
                    raise
            await asyncio.sleep(0.5)

    async def _connect(self) -> Seat:
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            base = self.client.base()
            cookies = "; ".join(f"{k}={v}" for k, v in self.client.http.cookies.items())
            try:
                ws = await connect(
                    f"ws://{base.removeprefix('http://')}/ws/tables/{self.table.id}",
                    additional_headers={"Cookie": cookies},
                    origin=base,  # type: ignore[arg-type]
                    max_size=2**20,
                )
                return Seat(ws, dict(self.client.http.cookies.items()))
            except (OSError, WebSocketException):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)
            finally:
                self.figures.reconnections += 1

    async def _play(self, seat: Seat, until: float, stint: Stint) -> bool:
        """Play on this socket until it closes (False) or the stint is over (True)."""
        while not seat.closed and time.monotonic() < until:
            view = seat.view
            hand = view.get("hand")
            mine = (view.get("you") or {}).get("seat")
            if seat.snapshots and stint.standing and mine is None:
                return True
            if hand and hand.get("number") is not None:
                stint.seen.add(int(hand["number"]))
            if len(stint.seen) > stint.hands and not stint.standing:
                with contextlib.suppress(Refused):
                    await self.client.call(
                        "POST", f"/api/tables/{self.table.id}/stand", done_if_repeated="not_seated"
                    )
                stint.standing = True
                continue
            if mine is None or not hand:
                if mine is not None and not hand and not stint.standing:
                    await self._top_up(view, mine)
                await self._wait(seat, 1.0)
                continue
            if mine not in (hand.get("to_act") or []) or not hand.get("legal_actions"):
                await self._wait(seat, 1.0)
                continue
            await self._act(seat, hand["legal_actions"])
        return False

    async def _act(self, seat: Seat, legal: list[dict[str, Any]]) -> None:
        """Send an action, then a ping: the socket's messages are dealt with in order, so
        once the pong is read, a refusal of the action would have been read before it. No
        refusal by then: the table accepted the action, and stored it before answering."""
        sent = next(self.sent)
        client_id = f"soak{self.number}-{sent}"
        action = {"type": "action", "id": client_id, "version": seat.version}
        self.figures.actions_sent += 1
        await seat.ws.send(orjson.dumps(action | choose(legal, self.rng)).decode())
        await seat.ws.send(orjson.dumps({"type": "ping", "nonce": sent}).decode())
        deadline = time.monotonic() + RETRY_SECONDS
        while not seat.closed and sent not in seat.pongs and time.monotonic() < deadline:
            await self._wait(seat, 1.0)
        if sent in seat.pongs and client_id not in seat.refused:
            self.figures.acknowledged.setdefault(self.user_id, []).append(client_id)
        elif not seat.closed:  # refused or unanswered: look again before choosing again
            await seat.ws.send(orjson.dumps({"type": "resync", "version": 0}).decode())
            await self._wait(seat, 1.0)

    async def _top_up(self, view: dict[str, Any], mine: int) -> None:
        stack = next((s["stack"] for s in view.get("seats", []) if s["seat"] == mine), None)
        if stack is None or not needs_chips(self.table.game, stack, self.table.buy_in):
            return
        body = {"amount": self.table.buy_in, "request_key": f"soak-top-{secrets.token_hex(8)}"}
        try:
            await self.client.call("POST", f"/api/tables/{self.table.id}/top-up", body)
            self.figures.top_ups += 1
        except Refused:
            pass  # a hand started meanwhile: after it, then

    @staticmethod
    async def _wait(seat: Seat, seconds: float) -> bool:
        """Wait for the socket to read something; False if nothing came in `seconds`."""
        seat.changed.clear()
        try:
            await asyncio.wait_for(seat.changed.wait(), seconds)
        except TimeoutError:
            return False
        return True


async def _open_practice(client: Client, game: str) -> Table:
    made = await client.call(
        "POST", "/api/tables/practice", {"game": game, "seat_count": SEATS, "level": BOT_LEVEL}
    )
    return Table(made["id"], game, "practice", made["buy_in_max"])


async def _audit(db: Database, figures: Figures) -> None:
    """`salon audit`'s checks, on one snapshot of the database (tables play meanwhile: read
    statement by statement, the ledger and the seats could be seen at different moments)."""
    async with db.transaction() as session:
        if db.kind == "postgresql":
            await session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        report = await club_audit(session)
    figures.audits.append({"at": figures.now(), "ok": report.ok, "problems": report.problems})


async def _dealing(db: Database, tables: list[Table], figures: Figures) -> None:
    """Say which bots' tables started no hand lately (a member's table may be idle while
    its member is away)."""
    window = min(STUCK_SECONDS, figures.now())
    async with db.transaction() as session:
        rows = await session.execute(
            select(Hand.table_id, func.max(Hand.started_at)).group_by(Hand.table_id)
        )
        latest = dict(rows.all())
        now = await session.scalar(select(func.now()))
    assert now is not None
    for table in tables:
        if table.kind != "bots":
            continue
        last = latest.get(table.id)
        if last is None or (now - last).total_seconds() > window:
            figures.stuck.append(
                f"table {table.id} ({table.game}) started no hand in {window:.0f} s "
                f"at {figures.now():.0f} s"
            )


async def _lost(db: Database, figures: Figures) -> list[str]:
    """Every action a member saw accepted, stored exactly once under its client id."""
    problems: list[str] = []
    async with db.transaction() as session:
        for user_id, client_ids in figures.acknowledged.items():
            rows = await session.execute(
                select(HandAction.client_id, func.count())
                .where(HandAction.user_id == user_id, HandAction.client_id.in_(client_ids))
                .group_by(HandAction.client_id)
            )
            stored = dict(rows.all())
            for client_id in client_ids:
                if stored.get(client_id, 0) != 1:
                    problems.append(
                        f"action {client_id} of member {user_id} stored "
                        f"{stored.get(client_id, 0)} time(s)"
                    )
    return problems


async def _counts(db: Database) -> tuple[int, int]:
    async with db.transaction() as session:
        hands = await session.scalar(select(func.count()).where(Hand.ended_at.is_not(None)))
        actions = await session.scalar(select(func.count()).select_from(HandAction))
    return int(hands or 0), int(actions or 0)


async def _every(seconds: float, until: float, work: Any) -> None:
    """Run `work()` every `seconds` from now until `until` (monotonic), on a fixed beat: a
    slow `work()` (a process starting again) does not push the next ones later; one slower
    than the beat is followed by a full period's rest, not by the beats it missed."""
    wake = time.monotonic()
    while True:
        wake += seconds
        if wake < time.monotonic():
            wake = time.monotonic() + seconds
        if wake >= until:
            return
        await asyncio.sleep(wake - time.monotonic())
        await work()


async def _soak(url: str, soak: Soak, cluster: Cluster | None) -> dict[str, Any]:
    rng = random.Random(soak.seed)
    kinds = [KINDS[n % len(KINDS)] for n in range(soak.tables)]
    games = [GAMES[n % len(GAMES)] for n in range(soak.tables)]
    members = sum(kind != "bots" for kind in kinds)
    password = secrets.token_urlsafe(12)
    await seed_club(url, members, password, "bench soak")
    data_dir = tempfile.mkdtemp(prefix="salon-soak-")
    env = server_env(
        url,
        data_dir,
        cluster,
        **FULL_SPEED,
        SALON_BOT_THINK_MIN_SECONDS="0.02",
        SALON_BOT_THINK_MAX_SECONDS="0.1",
    )
    figures = Figures()
    servers = Servers(env, data_dir, cluster.processes if cluster else 1)
    db = Database(url, null_pool=True)
    clients: list[Client] = []
    try:
        await servers.start()
        figures.started = time.monotonic()
        servers.sample(0.0)
        owner = Client(servers, figures)
        clients.append(owner)
        await owner.login(OWNER, password)
        tables: list[Table] = []
        players: list[Member] = []
        for n, (kind, game) in enumerate(zip(kinds, games, strict=True)):
            if kind == "practice" or kind == "fill":
                client = Client(servers, figures)
                clients.append(client)
                await client.login(robot_name(len(players)), password)
                me = await client.call("GET", "/api/me")
                if kind == "practice":
                    table = await _open_practice(client, game)
                else:
                    table = await _open_table(owner, n, game, bot_fill=True)
                member = Member(len(players), client, table, figures, random.Random(rng.random()))
                member.user_id, member.username = int(me["id"]), me["username"]
                if kind == "fill":
                    await member.sit()
                players.append(member)
            else:
                table = await _open_table(owner, n, game, bot_fill=False)
                await _fill_with_bots(owner, table)
            tables.append(table)
        opening = figures.now()
        until = time.monotonic() + soak.minutes * 60

        async def keep_bots() -> None:
            # Every bots' table at once, not in turn: a pass in turn over 30 tables (a GET
            # and a POST or two each, a 503 tried again for up to 30 s while a table is
            # taken over) takes over a minute on a loaded machine, and a Bouillotte table
            # a bot busted out of (three players needed) waited that long for the next
            # one: counted stuck for the bench's own slowness.
            await asyncio.gather(
                *(_keep_filled(owner, table) for table in tables if table.kind == "bots")
            )

        async def kill() -> None:
            await servers.kill_and_restart(figures.kills % len(servers.bases))
            figures.kills += 1

        async def audit() -> None:
            await _audit(db, figures)
            await _dealing(db, tables, figures)

        async def sample() -> None:
            servers.sample(figures.now())

        work = [
            *(member.run(until) for member in players),
            _every(KEEPER_SECONDS, until, keep_bots),
            _every(soak.sample_seconds, until, sample),
            _every(soak.audit_every * 60, until, audit),
        ]
        if cluster and soak.kill_every > 0:
            work.append(_every(soak.kill_every * 60, until, kill))
        await asyncio.gather(*work)
        servers.sample(figures.now())
        await audit()
        lost = await _lost(db, figures)
        hands, actions = await _counts(db)
        elapsed = figures.now()
    finally:
        for client in clients:
            await client.close()
        servers.stop()
        await db.dispose()
    kills_expected = int(soak.minutes // soak.kill_every) if cluster and soak.kill_every else 0
    # The last kill may fall too near the end to be done: one short is no failure.
    verdict = judge(
        [servers.memory(soak.kill_every if cluster else 0)],
        figures.errors,
        [audit["problems"] for audit in figures.audits],
        lost,
        figures.stuck,
        [*figures.failed_requests, *servers.died.values()],
        hands,
        max(0, kills_expected - 1) if cluster else 0,
        figures.kills,
    )
    summary = _summary(url, soak, cluster, kinds, figures, servers, verdict, hands, actions)
    return summary | {"seconds": elapsed, "opening_seconds": opening}


def _summary(
    url: str,
    soak: Soak,
    cluster: Cluster | None,
    kinds: list[str],
    figures: Figures,
    servers: Servers,
    verdict: Verdict,
    hands: int,
    actions: int,
) -> dict[str, Any]:
    acknowledged = sum(len(ids) for ids in figures.acknowledged.values())
    return {
        "minutes": soak.minutes,
        "tables": soak.tables,
        "tables_by_kind": dict(Counter(kinds)),
        "processes": cluster.processes if cluster else 1,
        "database": "postgresql" if url.startswith("postgres") else url.split(":", 1)[0],
        "hands": hands,
        "hands_per_minute": round(hands / soak.minutes, 1),
        "actions": actions,
        "member_actions_sent": figures.actions_sent,
        "member_actions_acknowledged": acknowledged,
        "top_ups": figures.top_ups,
        "comings_and_goings": figures.comings_and_goings,
        "reconnections": figures.reconnections,
        "refused_after_standing": figures.refused_after_standing,
        "done_before_answered": figures.done_before_answered,
        "error_frames": dict(sorted(figures.errors.items())),
        "refused_requests": dict(sorted(figures.refusals.items())),
        "unexpected_error_frames": unexpected_errors(figures.errors),
        "failed_requests": figures.failed_requests,
        "processes_died": list(servers.died.values()),
        "kills": figures.kills,
        "audits": figures.audits,
        "stuck": figures.stuck,
        "rss_curve": [[at, row] for at, row in servers.curve],
        "memory": [
            {
                "process": g.process,
                "started_s": g.started,
                "middle_mb": g.middle_mb,
                "last_mb": g.last_mb,
                "grown_mb": g.grown_mb,
                "allowed_mb": g.allowed_mb,
            }
            for g in verdict.growths
        ],
        "verdict": "pass" if verdict.ok else "fail",
        "failures": verdict.failures,
    } | ({"redis_prefix": cluster.prefix} if cluster else {})


def _print(summary: dict[str, Any], soak: Soak) -> None:
    processes = summary["processes"]
    kinds = summary["tables_by_kind"]
    print(
        f"soak: {summary['tables']} table(s) ({kinds.get('bots', 0)} of bots, "
        f"{kinds.get('fill', 0)} filled by bots, {kinds.get('practice', 0)} practice; Bourré "
        f"and Bouillotte) played {soak.minutes:g} min (after {summary['opening_seconds']:.0f} s "
        f"opening them) on {summary['database']}, "
        + (
            f"{processes} server processes, one killed every {soak.kill_every} min"
            if processes > 1
            else "1 server process"
        )
    )
    print(
        f"hands played: {summary['hands']} ({summary['hands_per_minute']} a minute); actions "
        f"stored: {summary['actions']}"
    )
    print(
        f"members: {summary['member_actions_sent']} actions sent, "
        f"{summary['member_actions_acknowledged']} seen accepted; {summary['top_ups']} "
        f"top-ups, {summary['comings_and_goings']} comings and goings, "
        f"{summary['reconnections']} connections ({summary['refused_after_standing']} "
        "refused no_spectators as a stand took effect; "
        f"{summary['done_before_answered']} stand(s) done by a process killed before answering)"
    )
    frames = ", ".join(f"{code} x{n}" for code, n in summary["error_frames"].items())
    print(f"error frames: {frames or 'none'}")
    refused = ", ".join(f"{code} x{n}" for code, n in summary["refused_requests"].items())
    print(f"requests refused (409): {refused or 'none'}")
    if summary["unexpected_error_frames"]:
        print(f"  not refusals: {summary['unexpected_error_frames']}")
    if processes > 1:
        print(f"processes killed: {summary['kills']}")
    audits = summary["audits"]
    clean = sum(audit["ok"] for audit in audits)
    at = ", ".join(f"{audit['at'] / 60:.1f}" for audit in audits)
    print(f"audits: {clean} of {len(audits)} clean (at {at} min)")
    print(f"tables that stopped dealing: {len(summary['stuck']) or 'none'}")
    print("server memory (RSS, MB):")
    print("  min " + "".join(f"  process {n}" for n in range(processes)))
    for at, row in summary["rss_curve"]:
        cells = "".join(f"{'down' if mb is None else mb:>11}" for mb in row)
        print(f"{at / 60:5.1f} {cells}")
    for g in summary["memory"]:
        print(
            f"  {who(g['process'])}: middle third "
            f"{g['middle_mb']} MB, last third {g['last_mb']} MB ({g['grown_mb']:+} MB, "
            f"allowed {g['allowed_mb']} MB)"
        )
    if summary["verdict"] == "pass":
        print(
            "verdict: PASS (memory flat, no error frames but refusals, audits clean, nothing lost)"
        )
    else:
        print("verdict: FAIL: " + "; ".join(summary["failures"]))
    print(json.dumps(summary))


def run_soak_bench(
    database_url: str,
    soak: Soak,
    processes: int = 1,
    redis_url: str | None = None,
) -> int:
    from app.db.migrate import upgrade_head

    if soak.tables < 1 or processes < 1 or soak.minutes <= 0 or soak.sample_seconds <= 0:
        print(
            "bench soak: tables, processes, minutes and sample seconds must be positive",
            file=sys.stderr,
        )
        return 2
    if soak.audit_every <= 0:
        print("bench soak: --audit-every must be positive", file=sys.stderr)
        return 2
    cluster = cluster_for("bench soak", database_url, processes, redis_url)
    upgrade_head(database_url)
    try:
        summary = asyncio.run(_soak(database_url, soak, cluster))
    finally:
        if cluster:
            asyncio.run(forget_keys(cluster))
    _print(summary, soak)
    return 0 if summary["verdict"] == "pass" else 1
