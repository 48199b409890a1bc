"""The server side of the live benches (``salon bench live``, ``salon bench soak``).

A scratch club seeded with robot members, ``salon serve`` processes started on it (one, or
several sharing a PostgreSQL database through a Redis under a key prefix of the run's own),
their health and their memory, and a robot's login. The benches differ in what they play;
how they start and watch the servers is the same.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import httpx
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.commands.bench_clients import free_port, rss_mb
from app.db.models import MemberStatus, Role
from app.db.session import Database
from app.services import club, ledger, members

# Where several processes look for a Redis when neither --redis-url nor REDIS_URL says.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# The club's owner, who opens the benches' tables.
OWNER = "benchowner"


@dataclass(frozen=True, slots=True)
class Cluster:
    """Several server processes sharing the database, coordinated by a Redis under a prefix
    of this run's own."""

    processes: int
    redis_url: str
    prefix: str


def robot_name(n: int) -> str:
    return f"robot{n:03d}"


async def seed_club(url: str, robots: int, password: str, bench: str) -> None:
    """A club owned by `OWNER` with `robots` members holding plenty of chips, all with
    `password`; refused (naming `bench`) on a database that already has a club."""
    db = Database(url, null_pool=True)
    try:
        async with db.transaction() as session:
            if await club.club_exists(session):
                raise SystemExit(f"{bench}: this database already has a club; use a scratch one")
            await club.create_club(
                session, name="Bench", owner_username=OWNER, owner_password=password
            )
            for n in range(robots):
                user = await members.create_user(
                    session,
                    username=robot_name(n),
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


# A bench's tables play at full speed: the next hand dealt at once, no gathering for
# latecomers (every player is seated at once, after a new cave too), and no flood limit on
# the clients' frames.
FULL_SPEED = {
    "SALON_NEXT_HAND_SECONDS": "0.05",
    "SALON_GATHERING_SECONDS": "0.05",
    "SALON_WS_MESSAGES_PER_WINDOW": "100000",
}


def server_env(url: str, data_dir: str, cluster: Cluster | None, **settings: str) -> dict[str, str]:
    """The environment of the bench's `salon serve` processes: this database, this data
    directory, the Redis of `cluster` if any (never a club's own keys otherwise), and the
    `SALON_*` settings given."""
    env = {**os.environ, "DATABASE_URL": url, "SALON_DATA_DIR": data_dir, **settings}
    for inherited in ("REDIS_URL", "SALON_REDIS_URL", "SALON_REDIS_PREFIX"):
        env.pop(inherited, None)  # one process unless asked: never a club's own Redis keys
    if cluster:
        env |= {"REDIS_URL": cluster.redis_url, "SALON_REDIS_PREFIX": cluster.prefix}
    return env


def free_ports(count: int) -> list[int]:
    """`count` different free ports."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return ports


def server_log(data_dir: str, processes: int, n: int) -> Path:
    return Path(data_dir) / ("server.log" if processes == 1 else f"server-{n}.log")


def start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """`salon serve` on `port`, its output (appended) in `log`."""
    return subprocess.Popen(  # noqa: S603 (our own command)
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        env=env,
        stdout=log.open("a"),
        stderr=subprocess.STDOUT,
    )


async def wait_healthy(server: subprocess.Popen[bytes], base: str, log: Path) -> None:
    async with httpx.AsyncClient(base_url=base) as probe:
        for _ in range(300):
            if server.poll() is not None:
                raise SystemExit(f"bench: a server process stopped at start-up; see {log}")
            try:
                if (await probe.get("/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                await asyncio.sleep(0.1)


def rss(servers: list[subprocess.Popen[bytes]]) -> float:
    """The server processes' resident memory together (MB)."""
    return round(sum(rss_mb(server.pid) for server in servers), 1)


async def redis_answers(redis_url: str) -> str | None:
    """None if the Redis at `redis_url` answers, else why not."""
    redis = Redis.from_url(redis_url)
    try:
        await redis.ping()
    except (RedisError, OSError, ValueError) as error:
        return str(error) or type(error).__name__
    finally:
        await redis.aclose()
    return None


async def forget_keys(cluster: Cluster) -> None:
    """Delete this run's keys (best effort: they would expire or lie unused anyway)."""
    redis = Redis.from_url(cluster.redis_url)
    try:
        async for key in redis.scan_iter(match=f"{cluster.prefix}:*", count=500):
            await redis.delete(key)
    except (RedisError, OSError):
        pass
    finally:
        await redis.aclose()


async def login(client: httpx.AsyncClient, name: str, password: str) -> None:
    token = (await client.get("/api/auth/csrf")).json()["csrf_token"]
    response = await client.post(
        "/api/auth/login",
        json={"username": name, "password": password},
        headers={"X-CSRF-Token": token},
    )
    response.raise_for_status()


def cluster_for(
    bench: str, database_url: str, processes: int, redis_url: str | None
) -> Cluster | None:
    """The cluster of `processes` server processes, None for one; with several, refused
    (said on stderr, exit status 2) without PostgreSQL or without a Redis that answers."""
    if processes <= 1:
        return None
    if not database_url.startswith(("postgresql", "postgres:")):
        print(
            f"{bench}: several processes can only share a PostgreSQL database; "
            "give --database-url a postgresql:// one, or run with --processes 1",
            file=sys.stderr,
        )
        raise SystemExit(2)
    redis_url = redis_url or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    why = asyncio.run(redis_answers(redis_url))
    if why is not None:
        print(
            f"{bench}: --processes {processes} needs a Redis, and none answered at "
            f"{redis_url} ({why}); give one with --redis-url",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return Cluster(processes, redis_url, "bench-" + secrets.token_hex(4))
