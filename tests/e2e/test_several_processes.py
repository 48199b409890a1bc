"""Two processes serve the club: the players' browsers talk to one of them while the table
is run by the other; that other process is killed mid-hand. The pages come back by
themselves, show the same hand with the same cards, and the next click is played."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import expect
from sqlalchemy import func, select

from app.db.models import Hand, HandAction
from app.db.session import Database
from tests.databases import create_postgres_database, drop_postgres_database
from tests.e2e.table_ui import (
    DEAL_TIMEOUT_MS,
    acting,
    join_from_lobby,
    member_at_table,
    my_cards,
    open_paused_table,
    resume,
    version,
)
from tests.e2e.ui import PHONE, NewPage, Shot, log_in
from tests.live import demo_password, salon, salon_env
from tests.processes import Process, RedisServer

T = TypeVar("T")


def in_thread(work: Callable[..., T], *args: Any) -> T:
    """Run `work` outside this thread: Playwright's synchronous API keeps an event loop
    running here, and the database helpers run one of their own."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(work, *args).result()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def cluster_env(tmp_path: Path, redis_server: RedisServer) -> Iterator[dict[str, str]]:
    """As tests/cluster's: the demo club on a fresh Postgres database, a private Redis."""
    url = in_thread(create_postgres_database)
    try:
        env = salon_env(
            tmp_path,
            url,
            REDIS_URL=redis_server.url,
            SALON_LEASE_SECONDS="1",
            SALON_NEXT_HAND_SECONDS="6",
        )
        assert salon("migrate", env=env).returncode == 0
        assert salon("demo", env=env).returncode == 0
        yield env
    finally:
        in_thread(drop_postgres_database, url)


def actions_stored(url: str, table_id: int) -> int:
    async def count() -> int:
        db = Database(url, null_pool=True)
        try:
            async with db.transaction() as session:
                stored = await session.scalar(
                    select(func.count())
                    .select_from(HandAction)
                    .join(Hand, Hand.id == HandAction.hand_id)
                    .where(Hand.table_id == table_id)
                )
            return int(stored or 0)
        finally:
            await db.dispose()

    stored: int = in_thread(asyncio.run, count())
    return stored


def test_pages_ride_out_the_death_of_the_process_running_their_table(
    cluster_env: dict[str, str],
    redis_server: RedisServer,
    new_page: NewPage,
    shot: Shot,
    expected_console: list[re.Pattern[str]],
) -> None:
    owner, other = Process(cluster_env, "A"), Process(cluster_env, "B")
    owner.start()
    other.start()
    try:
        admin = new_page()
        log_in(admin, f"http://{owner.host}", "admin", demo_password(cluster_env, "admin"))
        # Opened on the first process, which therefore runs the table.
        table_id = open_paused_table(
            admin, f"http://{owner.host}", name="Two rooms", game="bourre", seats=2
        )
        assert redis_server.client().get(f"salon:table:{table_id}:owner") == owner.process_id
        base = f"http://{other.host}"  # the players' browsers reach the other process
        pages = []
        for name in ("alice", "bob"):
            page = new_page(PHONE) if name == "bob" else new_page()
            member_at_table(page, base, name, demo_password(cluster_env, "member"))
            join_from_lobby(page, base, table_id, 100, 1000)
            pages.append(page)
        resume(admin)
        for page in pages:
            expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=DEAL_TIMEOUT_MS)
        before = [sorted(my_cards(page)) for page in pages]
        assert all(len(cards) == 5 for cards in before)

        # The admin's page was on the killed process: it retries its socket meanwhile.
        expected_console.append(re.compile(r"WebSocket connection to .* failed"))
        # The players' process sees the owner gone, takes the table, and closes their
        # sockets (1012): the pages open new ones by themselves.
        with pages[0].expect_websocket(timeout=20_000), pages[1].expect_websocket(timeout=20_000):
            owner.kill()
        for _ in range(200):
            taken = redis_server.client().get(f"salon:table:{table_id}:owner")
            if taken == other.process_id:
                break
            time.sleep(0.05)  # polls Redis, which answers in microseconds
        assert taken == other.process_id
        for page in pages:
            expect(page.locator("#connection")).to_have_text("Connected", timeout=20_000)
            expect(page.locator("#hand-info")).to_contain_text("Hand 1")
        assert [sorted(my_cards(page)) for page in pages] == before

        # Play goes on: once both pages have seen both players come back (each return is
        # news that redraws the table), the player to act declares, and it is stored.
        for page in pages:
            expect(page.locator(".seat--offline")).to_have_count(0)
        settled = version(pages[0])
        expect(pages[1].locator("#table-app")).to_have_attribute("data-version", str(settled))
        stored = actions_stored(cluster_env["DATABASE_URL"], table_id)
        page = acting(pages)
        page.locator("#controls").get_by_role("button", name="Play").click()
        for _ in range(200):
            if actions_stored(cluster_env["DATABASE_URL"], table_id) > stored:
                break
            time.sleep(0.05)  # polls a database and Redis, both answering in milliseconds
        assert actions_stored(cluster_env["DATABASE_URL"], table_id) == stored + 1
        expect(page.locator("#prompt")).not_to_contain_text("play this hand or pass")
        shot(pages[1], "failover-phone")
    finally:
        owner.stop()
        other.stop()
