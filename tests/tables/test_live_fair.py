"""Fair dealing at a live table (docs/fair-shuffle.md): the server seed is committed when the
countdown starts, seated players' browsers contribute, and the hand is dealt from the mix.

Real WebSocket clients on a real server, on SQLite and on Postgres.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Hand
from app.db.session import Database
from app.engine import log as table_log
from app.engine import rng
from app.main import create_app
from app.tables.clock import FakeClock
from tests.helpers import csrf_headers
from tests.tables.harness import Player, Room, open_room, play_until_over, seated, serving

NAMES = ["ana", "bob", "cyd"]
TABLE = {
    "name": "Fair",
    "game": "bourre",
    "seat_count": 4,
    "buy_in_min": 20,
    "buy_in_max": 200,
    "turn_seconds": 30,
}


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    # Whole hands are played at test speed: no flood limit.
    async with open_room(
        settings, db, TABLE, NAMES, buy_in=100, ws_messages_per_window=10_000
    ) as room:
        # Seeds published as each hand ends, so that the reports can be checked at once.
        reveal = await room.owner.http.patch(
            "/api/admin/club", json={"seed_reveal": "hand"}, headers=csrf_headers(room.owner.http)
        )
        assert reveal.status_code == 200, reveal.text
        for player in room.players:
            await player.open(room.table_id)
            await player.wait_for(lambda p: p.snapshot is not None)
        yield room


def pending(player: Player) -> dict[str, Any] | None:
    """The coming hand's commitment and who has contributed, as this player sees it."""
    if player.snapshot is None:
        return None
    found: dict[str, Any] | None = player.view.get("next_hand")
    return found


def events(player: Player, kind: str) -> list[dict[str, Any]]:
    return [f["data"] for f in player.frames if f["type"] == "event" and f["kind"] == kind]


async def contribute(player: Player, seat: int, value: str) -> None:
    """Send a contribution and wait until every player's view shows it taken."""
    errors = len(player.errors())
    await player.send({"type": "entropy", "value": value})
    await player.wait_for(lambda p: seat in ((pending(p) or {}).get("contributed") or []))
    assert len(player.errors()) == errors, player.errors()


async def refused(player: Player, message: dict[str, Any]) -> str:
    before = len(player.errors())
    await player.send(message)
    await player.wait_for(lambda p: len(p.errors()) > before)
    code: str = player.errors()[-1]["code"]
    return code


async def stored_hands(db: Database) -> list[Hand]:
    async with db.transaction() as session:
        rows = await session.scalars(select(Hand).order_by(Hand.number))
        return list(rows.all())


async def test_every_commitment_matches_the_server_seed_published_after(
    room: Room, db: Database
) -> None:
    """For several hands: the commitment shown before the deal is SHA-256 of the server seed
    published at the end, the seed is the mix of that server seed and the contributions
    sent, the contributions are recorded with the hand they preceded, and the stored hand
    replays from its (mixed) seed to the reported result."""
    players = seated(room)
    watcher = room.players[0]
    rand = random.Random(5)
    sent_by_hand: dict[int, dict[str, str]] = {}
    seen_by_hand: dict[int, str] = {}
    for number in (1, 2, 3):
        await watcher.wait_for(lambda p: pending(p) is not None and p.hand is None)
        seen = pending(watcher)
        assert seen is not None and seen["contributed"] == []
        # Every seated player sees the same commitment before anyone contributes.
        for player in players.values():
            await player.wait_for(
                lambda p, c=seen["commitment"]: (pending(p) or {}).get("commitment") == c
            )
        # Different seats contribute to different hands; hand 3 has none at all.
        contributors = {1: [0, 2], 2: [1, 0, 2], 3: []}[number]
        sent: dict[str, str] = {}
        for seat in contributors:
            value = secrets.token_hex(32)
            await contribute(players[seat], seat, value)
            sent[str(seat)] = value
        sent_by_hand[number] = sent
        seen_by_hand[number] = seen["commitment"]
        await room.clock.advance(3)
        for player in players.values():
            await player.wait_for(lambda p, n=number: (p.hand or {}).get("number") == n)
        opening = events(watcher, "new_hand")[-1]
        assert opening["number"] == number
        assert opening["commitment"] == seen["commitment"]
        assert opening["contributions"] == dict(sorted(sent.items()))
        assert watcher.hand is not None and watcher.hand["commitment"] == seen["commitment"]
        await play_until_over(players, rand)
        await watcher.wait_for(
            lambda p, n=number: any(e.get("number") == n for e in events(p, "hand_over"))
        )
        await watcher.wait_for(lambda p: p.hand is None)

    # The table's report of each hand (the engine's own `hand_over` events carry no number).
    reports = {e["number"]: e for e in events(watcher, "hand_over") if "number" in e}
    rows = {row.number: row for row in await stored_hands(db)}
    for number, commitment in seen_by_hand.items():
        report = reports[number]
        server_seed = bytes.fromhex(report["server_seed"])
        assert hashlib.sha256(server_seed).hexdigest() == commitment
        contributions = rng.contributions_from_hex(report["contributions"])
        assert report["contributions"] == dict(sorted(sent_by_hand[number].items()))
        assert report["seed"] == rng.mixed_seed(server_seed, contributions).hex()
        row = rows[number]
        assert row.commitment == commitment
        assert row.server_seed == report["server_seed"]
        assert row.seed == report["seed"]
        assert row.contributions == report["contributions"]
        assert row.entry is not None and row.entry["seed"] == report["seed"]
        replayed = table_log.replay({**row.header, "hands": [row.entry]})["hands"][0]
        assert replayed["stacks"] == report["stacks"]
        assert replayed["players"] == report["players"]
        assert replayed["tricks"] == report["tricks"]


async def test_bad_entropy_messages_are_refused_and_change_nothing(
    room: Room, db: Database
) -> None:
    players = seated(room)
    ana, bob = players[0], players[1]
    await ana.wait_for(lambda p: pending(p) is not None)
    version = ana.version
    good = secrets.token_hex(32)
    for message in [
        {"type": "entropy", "value": good.upper()},  # one spelling only: lowercase
        {"type": "entropy", "value": good[:-1]},
        {"type": "entropy", "value": good + "0"},
        {"type": "entropy", "value": "g" * 64},
        {"type": "entropy", "value": 7},
        {"type": "entropy"},
        {"type": "entropy", "value": good, "seat": 3},
    ]:
        assert await refused(ana, message) == "invalid_message", message
    # A spectator does not add to the deal.
    room.owner.frames.clear()
    await room.owner.open(room.table_id)
    await room.owner.wait_for(lambda p: p.snapshot is not None)
    assert await refused(room.owner, {"type": "entropy", "value": good}) == "not_seated"
    assert ana.version == version and (pending(ana) or {}).get("contributed") == []

    await contribute(ana, 0, good)
    assert await refused(ana, {"type": "entropy", "value": secrets.token_hex(32)}) == (
        "entropy_already_sent"
    )
    await room.clock.advance(3)
    for player in players.values():
        await player.wait_for(lambda p: p.hand is not None)
    # Once dealt, the hand's seed is fixed: a late contribution is refused.
    assert await refused(bob, {"type": "entropy", "value": secrets.token_hex(32)}) == (
        "entropy_closed"
    )
    assert pending(bob) is None
    (row,) = await stored_hands(db)
    assert row.contributions == {"0": good}
    assert row.server_seed is not None
    assert (
        row.seed == rng.mixed_seed(bytes.fromhex(row.server_seed), {0: bytes.fromhex(good)}).hex()
    )
    assert events(ana, "contributed") == [{"seat": 0, "commitment": row.commitment}]


async def test_a_restarted_table_rebuilds_the_hand_from_its_mixed_seed(
    room: Room, db: Database, settings: Settings
) -> None:
    """A new process restores the running hand from the stored seed: every player is shown
    the same cards as before."""
    players = seated(room)
    await room.players[0].wait_for(lambda p: pending(p) is not None)
    for seat, player in players.items():
        await contribute(player, seat, secrets.token_hex(32))
    await room.clock.advance(3)
    for player in players.values():
        await player.wait_for(lambda p: p.hand is not None)
    before = {seat: sorted(p.hand["hand"]) for seat, p in players.items() if p.hand}
    assert len(before) == len(players)

    restarted = create_app(
        settings.model_copy(update={"next_hand_seconds": 3.0}), clock=FakeClock()
    )
    async with serving(restarted) as host:
        for seat, player in players.items():
            again = Player(host, player.username)
            try:
                await again.login()
                await again.open(room.table_id)
                await again.wait_for(lambda p: p.hand is not None)
                assert again.hand is not None
                assert sorted(again.hand["hand"]) == before[seat]
            finally:
                await again.close()
                await again.http.aclose()


async def test_a_paused_countdown_throws_its_commitment_away(room: Room, db: Database) -> None:
    """A pause stops the countdown: its server seed is never used, contributions are closed,
    and the resumed countdown commits to a new server seed that takes contributions anew."""
    players = seated(room)
    ana, bob = players[0], players[1]
    await ana.wait_for(lambda p: pending(p) is not None)
    first = (pending(ana) or {})["commitment"]
    await contribute(ana, 0, secrets.token_hex(32))
    paused = await room.owner.post(f"/api/tables/{room.table_id}/pause")
    assert paused.status_code == 200, paused.text
    await ana.wait_for(lambda p: pending(p) is None)
    assert await refused(bob, {"type": "entropy", "value": secrets.token_hex(32)}) == (
        "entropy_closed"
    )
    resumed = await room.owner.post(f"/api/tables/{room.table_id}/resume")
    assert resumed.status_code == 200, resumed.text
    await ana.wait_for(lambda p: pending(p) is not None)
    second = pending(ana)
    assert second is not None and second["commitment"] != first and second["contributed"] == []
    value = secrets.token_hex(32)
    await contribute(bob, 1, value)
    await room.clock.advance(3)
    await ana.wait_for(lambda p: p.hand is not None)
    (row,) = await stored_hands(db)
    assert row.commitment == second["commitment"]
    assert row.contributions == {"1": value}


async def test_a_contribution_counts_for_the_seat_held_at_the_deal(
    settings: Settings, db: Database
) -> None:
    """At a Bouillotte table's first hand the seat draw may move players after they have
    contributed: each contribution is recorded under the seat its sender is dealt at. (The
    draw is random, so in some runs nobody moves and this only checks the plain case.)"""
    table = {**TABLE, "game": "bouillotte", "buy_in_min": 100, "buy_in_max": 100}
    names = ["ines", "jean", "karl", "lise"]
    async with open_room(
        settings, db, table, names, buy_in=100, ws_messages_per_window=10_000
    ) as room:
        for player in room.players:
            await player.open(room.table_id)
            await player.wait_for(lambda p: pending(p) is not None)
        sent: dict[str, str] = {}
        for seat, player in enumerate(room.players):  # seated in join order before the draw
            sent[player.username] = secrets.token_hex(32)
            await contribute(player, seat, sent[player.username])
        await room.clock.advance(3)
        for player in room.players:
            await player.wait_for(lambda p: p.hand is not None)
        (row,) = await stored_hands(db)
        at_deal = seated(room)
        assert row.contributions == {
            str(seat): sent[player.username] for seat, player in sorted(at_deal.items())
        }
        assert row.server_seed is not None
        mixed = rng.mixed_seed(
            bytes.fromhex(row.server_seed), rng.contributions_from_hex(row.contributions)
        )
        assert row.seed == mixed.hex()
