"""Two processes serve the club: the players' browsers talk to one of them while the table
is run by the other; that other process is killed mid-hand. The pages come back by
themselves, show the same hand with the same cards, and the next click is played."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from sqlalchemy import func, select

from app.db.models import Hand, HandAction
from app.db.session import Database
from tests.e2e.table_ui import (
    acting,
    alice_and_bob_dealt_in,
    my_cards,
    open_paused_table,
    version,
)
from tests.e2e.ui import NewPage, Shot, log_in
from tests.live import demo_password
from tests.processes import Process, RedisServer, demo_club_env, in_thread


@pytest.fixture
def cluster_env(tmp_path: Path, redis_server: RedisServer) -> Iterator[dict[str, str]]:
    """As tests/cluster's, with the next hand a few seconds after the last (a person's pace)."""
    with demo_club_env(tmp_path, redis_server.url, next_hand_seconds="6") as env:
        yield env


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
        password = demo_password(cluster_env, "member")
        pages = alice_and_bob_dealt_in(new_page, base, admin, table_id, password)
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
