"""/metrics on a real `salon serve`: one process of a club with Redis and PostgreSQL, a
bourre table played over WebSockets, then scraped as Prometheus would — from the trusted
network, and from outside through the trusted proxy with the token — and read with
prometheus-client's own parser. Whoever else asks gets the 404 of a page that does not
exist, and the Grafana dashboard asks only for metrics the scrape has."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.cluster.test_three_processes import (
    NAMES,
    first_choice,
    in_step,
    open_table,
    to_act,
    wait_for_hand,
)
from tests.live import PROJECT_DIR, demo_password, running_server, salon, salon_env
from tests.monitoring.scrape import Samples, names, parse, total, value
from tests.processes import demo_club_env, private_redis
from tests.tables.harness import Player, log_in

TOKEN = "scrape-token-0123456789abcdef"
# An address outside the trusted networks, as the trusted proxy (127.0.0.1) forwards it.
OUTSIDE = {"X-Forwarded-For": "203.0.113.9"}
ACTIONS = 3


@dataclass
class Club:
    base: str
    players: list[Player]


async def play(host: str, env: dict[str, str]) -> list[Player]:
    """Three members sit at a new bourre table, each with a socket open, and play
    `ACTIONS` actions."""
    admin = await log_in(host, "admin", demo_password(env, "admin"))
    table_id = await open_table(admin)
    await admin.http.aclose()
    players = []
    for name in NAMES:
        player = await log_in(host, name, demo_password(env, "member"))
        seated = await player.post(
            f"/api/tables/{table_id}/seat", {"buy_in": 150, "request_key": f"sit-{name}-0001"}
        )
        assert seated.status_code == 200, seated.text
        await player.open(table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
        players.append(player)
    await wait_for_hand(players)
    acted = 0
    for attempt in range(50):
        if acted == ACTIONS:
            return players
        await in_step(players)
        mover = to_act(players)
        if mover is None:
            await players[0].wait_for(lambda p, v=players[0].version: p.version > v, 15)
            continue
        before = mover.version
        choice = first_choice(mover)
        await mover.send({"type": "action", "id": f"m{attempt}", "version": before, **choice})
        await mover.wait_for(lambda p, v=before: p.version > v or bool(p.errors()), 15)
        if mover.errors():  # stale: someone's presence moved the table on; look again
            mover.frames[:] = [f for f in mover.frames if f["type"] != "error"]
            continue
        acted += 1
    raise AssertionError(f"only {acted} actions were accepted")


@pytest.fixture(scope="module")
async def club(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Club]:
    folder = tmp_path_factory.mktemp("metrics")
    with (
        private_redis(folder) as redis_server,
        demo_club_env(folder, redis_server.url, next_hand_seconds="0.3") as env,
    ):
        env["SALON_METRICS_TOKEN"] = TOKEN
        with running_server(env) as base:
            players = await play(base.removeprefix("http://"), env)
            try:
                yield Club(base, players)
            finally:
                for player in players:
                    await player.close()
                    await player.http.aclose()


def scrape(base: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.get(f"{base}/metrics", headers=headers or {}, timeout=10)


def scraped(base: str, headers: dict[str, str] | None = None) -> Samples:
    """A scrape once the last action's latency is recorded (the server records it as the
    last seated socket is handed its frame, a moment after the player may have read it)."""
    for _ in range(100):
        response = scrape(base, headers)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/plain")
        samples = parse(response.text)
        if value(samples, "salon_action_latency_seconds_count") >= ACTIONS:
            return samples
    raise AssertionError("the actions' latencies were not recorded")


@pytest.mark.parametrize("who", ["trusted network", "token through the proxy"])
def test_the_figures_of_play_are_scraped(club: Club, who: str) -> None:
    headers = {} if who == "trusted network" else {**OUTSIDE, "Authorization": f"Bearer {TOKEN}"}
    samples = scraped(club.base, headers)

    assert value(samples, "salon_actions_total") >= ACTIONS
    assert value(samples, "salon_action_latency_seconds_count") >= ACTIONS
    assert value(samples, "salon_action_latency_seconds_sum") > 0
    assert value(samples, "salon_action_latency_seconds_bucket", le="+Inf") >= ACTIONS
    # Every stored action went through a commit; a commit carries at least one.
    commits = value(samples, "salon_commit_batch_size_count")
    assert 0 < commits <= value(samples, "salon_commit_batch_size_sum")
    assert value(samples, "salon_commit_batch_size_sum") == value(samples, "salon_actions_total")
    assert value(samples, "salon_live_tables", game="bourre") >= 1
    assert total(samples, "salon_live_tables") >= 2  # the demo's tables, and ours
    assert value(samples, "salon_open_sockets") == len(NAMES)
    assert value(samples, "salon_members_online") == len(NAMES)
    assert value(samples, "salon_event_loop_lag_seconds_count") > 0
    assert {"0", "1", "2"} == {
        dict(labels)["generation"]
        for name, labels in samples
        if name == "salon_gc_pause_seconds_count"
    }
    assert value(samples, "salon_refused_writes_total", reason="fenced") == 0
    assert value(samples, "salon_refused_writes_total", reason="storage") == 0
    # Several processes' parts: Redis is up, and this one took the club's tables, nobody
    # holding their leases before it.
    assert value(samples, "salon_redis_up") == 1
    assert value(samples, "salon_lease_takeovers_total", reason="unowned") >= 2
    assert value(samples, "salon_lease_takeovers_total", reason="dead_owner") == 0
    assert value(samples, "salon_leases_lost_total") == 0
    assert value(samples, "process_resident_memory_bytes") > 0


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param(OUTSIDE, id="outside without a token"),
        pytest.param({**OUTSIDE, "Authorization": "Bearer wrong-token-0123456789"}, id="wrong"),
        pytest.param({"Authorization": "Bearer wrong-token-0123456789"}, id="wrong, inside"),
        pytest.param({**OUTSIDE, "Authorization": TOKEN}, id="not a bearer token"),
    ],
)
def test_anyone_else_gets_the_404_of_a_missing_page(club: Club, headers: dict[str, str]) -> None:
    refused = scrape(club.base, headers)
    missing = httpx.get(f"{club.base}/no-metrics-here", headers=headers)
    assert refused.status_code == missing.status_code == 404
    # ... though the page is there for the operator, from the same place.
    allowed = {**OUTSIDE, "Authorization": f"Bearer {TOKEN}"}
    assert scrape(club.base, allowed).status_code == 200
    assert refused.json()["error"]["code"] == missing.json()["error"]["code"] == "not_found"
    assert "salon_" not in refused.text


def test_the_dashboard_asks_only_for_scraped_metrics(club: Club) -> None:
    dashboard = json.loads((PROJECT_DIR / "deploy" / "grafana-salon.json").read_text())
    assert dashboard["templating"]["list"][0]["type"] == "datasource"
    assert dashboard["templating"]["list"][0]["query"] == "prometheus"
    queries = [
        target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])
    ]
    assert queries
    asked = {m for query in queries for m in re.findall(r"\b(?:salon|process)_[a-z_]+", query)}
    scraped_names = names(scraped(club.base))
    assert asked <= scraped_names, asked - scraped_names
    # A panel for each of Salon's metrics.
    families = {re.sub(r"_(bucket|count|sum)$", "", n) for n in scraped_names}
    shown = {re.sub(r"_(bucket|count|sum)$", "", n) for n in asked}
    assert {f for f in families if f.startswith("salon_")} <= shown


def test_forwarded_headers_from_an_untrusted_peer_are_not_believed(tmp_path: Path) -> None:
    """A server that believes no proxy and whose metrics network is elsewhere: a request
    claiming (X-Forwarded-For) to come from that network is refused, and so is an empty
    token; the token is let in."""
    env = salon_env(
        tmp_path,
        SALON_TRUSTED_PROXIES="",
        SALON_METRICS_NETWORKS="203.0.113.0/24",
        SALON_METRICS_TOKEN=TOKEN,
    )
    assert salon("migrate", env=env).returncode == 0
    with running_server(env) as base:
        for headers in ({"X-Forwarded-For": "203.0.113.9"}, {"Authorization": "Bearer"}, {}):
            assert scrape(base, headers).status_code == 404, headers
        assert scrape(base, {"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def redis_up(base: str) -> float:
    return value(parse(scrape(base).text), "salon_redis_up")


def wait_for_redis_up(base: str, expected: float) -> None:
    deadline = time.monotonic() + 30
    while redis_up(base) != expected:
        assert time.monotonic() < deadline, f"salon_redis_up did not become {expected}"
        time.sleep(0.05)


def test_redis_up_follows_the_processes_connection(tmp_path: Path) -> None:
    with (
        private_redis(tmp_path) as redis_server,
        demo_club_env(tmp_path, redis_server.url, next_hand_seconds="0.3") as env,
        running_server(env) as base,
    ):
        assert redis_up(base) == 1
        redis_server.stop()
        wait_for_redis_up(base, 0)
        redis_server.start()
        wait_for_redis_up(base, 1)


async def test_writes_the_database_did_not_take_are_counted(tmp_path: Path) -> None:
    """One process on SQLite: the actions' table disappears under a table in play. The
    action that found it gone is refused, and so is the next one while the table waits."""
    env = salon_env(tmp_path, SALON_NEXT_HAND_SECONDS="0.3")
    assert salon("migrate", env=env).returncode == 0
    assert salon("demo", env=env).returncode == 0
    with running_server(env) as base:
        players = await play(base.removeprefix("http://"), env)
        try:
            refused = refused_storage(base)
            with sqlite3.connect(tmp_path / "salon.db") as database:
                database.execute("ALTER TABLE hand_actions RENAME TO hand_actions_gone")
            for more in (1, 2):
                await in_step(players)
                mover = to_act(players)
                assert mover is not None
                await mover.send(
                    {"type": "action", "id": f"away{more}", "version": mover.version}
                    | first_choice(mover)
                )
                await mover.wait_for(lambda p: bool(p.errors()), 15)
                assert [e["code"] for e in mover.errors()] == ["storage_unavailable"]
                mover.frames[:] = [f for f in mover.frames if f["type"] != "error"]
                assert refused_storage(base) == refused + more
        finally:
            for player in players:
                await player.close()
                await player.http.aclose()


def refused_storage(base: str) -> float:
    return value(parse(scrape(base).text), "salon_refused_writes_total", reason="storage")
