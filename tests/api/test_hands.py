"""Hand histories: per-seat rows written with each hand, the list, the hand page redacted to
its viewer, the exports, and the seeds kept back until the club's reveal policy allows."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from app.api import hands as hands_api
from app.config import Settings
from app.db.models import Hand, HandAction, HandSeat
from app.db.session import Database
from app.engine.bouillotte.deck import PACKS
from app.engine.cards import CARD_NAMES
from app.engine.log import replay
from app.engine.rng import contributions_from_hex, mixed_seed, shuffled, shuffled_deck
from app.services.hand_results import pot_of
from tests.api.hand_play import NAMES, TABLES, open_sockets, play_hands
from tests.helpers import add_member, csrf_headers
from tests.tables.harness import Player, Room, open_room
from tests.tables.test_live_hidden import cards_in, visibility_steps

HEX_SEED = re.compile(r"[0-9a-f]{64}")


@pytest.fixture(params=["bourre", "bouillotte"])
async def room(
    request: pytest.FixtureRequest, settings: Settings, db: Database
) -> AsyncIterator[Room]:
    async with open_room(
        settings, db, TABLES[request.param], NAMES, 100, ws_messages_per_window=10_000
    ) as room:
        yield room


async def spectator(room: Room, db: Database) -> Player:
    await add_member(db, "eve")
    eve = Player(room.host, "eve")
    await eve.login()
    return eve


async def set_policy(room: Room, policy: str) -> None:
    http = room.owner.http
    answer = await http.patch(
        "/api/admin/club", json={"seed_reveal": policy}, headers=csrf_headers(http)
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["seed_reveal"] == policy


async def stored(db: Database) -> list[tuple[Hand, list[HandAction], list[HandSeat]]]:
    async with db.transaction() as session:
        hands = (await session.scalars(select(Hand).order_by(Hand.number))).all()
        out = []
        for hand in hands:
            actions = (
                await session.scalars(
                    select(HandAction).where(HandAction.hand_id == hand.id).order_by(HandAction.seq)
                )
            ).all()
            seats = (
                await session.scalars(
                    select(HandSeat).where(HandSeat.hand_id == hand.id).order_by(HandSeat.seat_no)
                )
            ).all()
            out.append((hand, list(actions), list(seats)))
    return out


async def test_each_hand_stores_its_seat_results(room: Room, db: Database) -> None:
    await open_sockets(room.players, room.table_id)
    await play_hands(room, 3, random.Random(11))
    overs = [
        f
        for f in room.players[0].frames
        if f.get("kind") == "hand_over" and "number" in f["data"]  # the table's, not the engine's
    ]
    assert len(overs) == 3
    for hand, _, seats in await stored(db):
        report = hand.result or {}
        assert not hand.running and hand.ended_at is not None
        assert [f["data"]["hand_id"] for f in overs if f["data"]["number"] == hand.number] == [
            hand.id
        ]
        game = hand.header["game"]
        assert hand.pot == pot_of(game, report) and hand.session == 1
        assert seats, "every hand dealt in at least two players"
        users = {int(k): v for k, v in hand.players["users"].items()}
        for row in seats:
            assert row.user_id == users[row.seat_no] and row.game == game
            assert row.stack_before == hand.header["seats"][row.seat_no]["stack"]
            assert row.net == row.stack_after - row.stack_before
            assert row.ended_at == hand.ended_at and row.table_id == hand.table_id
        # Chips are conserved: what the players lost is what the pot gained.
        assert sum(r.net for r in seats) + report["carry"] - hand.header.get("pot", 0) == 0
        winners = {r.seat_no for r in seats if r.won}
        if game == "bourre":
            names = list(report["stacks"])
            assert {names[s] for s in winners} == ({report["winner"]} - {None})
        else:
            assert winners == {
                s
                for s in range(len(report["stacks"]))
                if list(report["stacks"])[s] in {p["winner"] for p in report["pots"]}
            }


async def test_the_list_is_newest_first_paged_and_filtered(room: Room, db: Database) -> None:
    await open_sockets(room.players, room.table_id)
    await play_hands(room, 4, random.Random(12))
    ana = room.players[0]
    seen: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(10):
        query = "/api/hands?limit=3" + (f"&cursor={cursor}" if cursor else "")
        page = await ana.http.get(query)
        assert page.status_code == 200, page.text
        body = page.json()
        seen += body["hands"]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    rows = await stored(db)
    dealt = [
        hand for hand, _, seats in rows if any(s.user_id == _user_id(hand, "ana") for s in seats)
    ]
    assert [h["id"] for h in seen] == [hand.id for hand in reversed(dealt)]
    first = seen[0]
    assert set(first) == {
        "id",
        "table_id",
        "table_name",
        "game",
        "number",
        "ended_at",
        "pot",
        "practice",
        "players",
        "winners",
        "my_net",
    }
    assert not any(h["practice"] for h in seen)
    assert first["table_name"] == TABLES[first["game"]]["name"]
    for summary in seen:
        hand, _, seats = next(r for r in rows if r[0].id == summary["id"])
        assert summary["pot"] == hand.pot
        by_seat = {s.seat_no: s for s in seats}
        assert [(p["seat"], p["net"], p["won"]) for p in summary["players"]] == [
            (s.seat_no, s.net, s.won) for s in seats
        ]
        ana_row = next(s for s in seats if s.user_id == _user_id(hand, "ana"))
        assert summary["my_net"] == ana_row.net and ana_row.seat_no in by_seat
        assert {p["username"] for p in summary["players"]} <= set(NAMES)
    # Filters: the game, the table, a date range, the pot.
    game = seen[0]["game"]
    other = "bourre" if game == "bouillotte" else "bouillotte"
    assert (await ana.http.get(f"/api/hands?game={other}")).json()["hands"] == []
    assert len((await ana.http.get(f"/api/hands?table_id={room.table_id}")).json()["hands"]) == min(
        len(seen), 25
    )
    newest = seen[0]["ended_at"]
    since = (await ana.http.get("/api/hands", params={"since": newest})).json()["hands"]
    assert [h["id"] for h in since] == [seen[0]["id"]]
    until = (await ana.http.get("/api/hands", params={"until": newest})).json()["hands"]
    assert seen[0]["id"] not in [h["id"] for h in until] and len(until) == len(seen) - 1
    # A member sees only their own hands; the member filter is the admins'.
    assert (await ana.http.get("/api/hands?member_id=1")).status_code == 403
    top = max(h["pot"] for h in seen)
    admin = room.owner.http
    assert all(
        h["pot"] >= top for h in (await admin.get(f"/api/hands?min_pot={top}")).json()["hands"]
    )
    bob_id = _user_id(rows[0][0], "bob")
    bobs = (await admin.get(f"/api/hands?member_id={bob_id}&limit=100")).json()["hands"]
    assert {h["id"] for h in bobs} == {
        hand.id for hand, _, seats in rows if any(s.user_id == bob_id for s in seats)
    }
    assert all(h["my_net"] is None for h in bobs)
    bad = await ana.http.get("/api/hands?cursor=not-a-cursor")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_cursor"


def _user_id(hand: Hand, username: str) -> int:
    for seat, user_id in hand.players["users"].items():
        if hand.header["seats"][int(seat)]["name"] == username:
            return int(user_id)
    raise AssertionError(f"{username} was not seated")


async def test_the_hand_page_shows_each_viewer_only_what_they_saw(room: Room, db: Database) -> None:
    eve = await spectator(room, db)
    await open_sockets([*room.players, eve], room.table_id)
    await play_hands(room, 4, random.Random(13), watchers=[eve])
    rows = await stored(db)
    checked = 0
    for hand, actions, seats in rows:
        steps = visibility_steps(hand, actions, 0)
        users = {int(k): v for k, v in hand.players["users"].items()}
        dealt = {s.seat_no for s in seats}
        for player in room.players:
            seat = next(s for s, u in users.items() if u == _user_id(hand, player.username))
            answer = await player.http.get(f"/api/hands/{hand.id}")
            if seat not in dealt:
                assert answer.status_code == 404
                continue
            assert answer.status_code == 200, answer.text
            detail = answer.json()
            assert detail["full"] is False and detail["viewer_seat"] == seat
            assert detail["seed"] is None and detail["revealed"] is False
            assert detail["commitment"] == hand.commitment
            assert len(detail["steps"]) == len(actions) + 2
            assert detail["steps"][0]["kind"] == "deal" and detail["steps"][-1]["kind"] == "end"
            for index, step in enumerate(detail["steps"]):
                _, seen, public = steps[min(index, len(steps) - 1)]
                allowed = public | seen[seat]
                found = cards_in(step, set())
                assert found <= allowed, (player.username, index, found - allowed)
                assert step["view"]["you"] == {"seat": seat}
                assert set(step["view"]) == {
                    "table",
                    "seats",
                    "you",
                    "pot",
                    "hand",
                    "turn_ends_in",
                    "next_hand_in",
                    "last_result",
                }
            everything_else = {k: v for k, v in detail.items() if k != "steps"}
            final_allowed = steps[-1][2] | steps[-1][1][seat]
            assert cards_in(everything_else, set()) <= final_allowed
            assert not HEX_SEED.search(json.dumps(detail).replace(hand.commitment, ""))
            text = await player.http.get(f"/api/hands/{hand.id}/log.txt")
            assert text.status_code == 200
            assert text.headers["content-type"].startswith("text/plain")
            assert _cards_in_text(text.text) <= final_allowed, player.username
            assert hand.seed not in text.text
            refused = await player.http.get(f"/api/hands/{hand.id}/log.json")
            assert refused.status_code == 409
            assert refused.json()["error"]["code"] == "not_revealed"
            checked += 1
        assert (await eve.http.get(f"/api/hands/{hand.id}")).status_code == 404
        assert (await eve.http.get(f"/api/hands/{hand.id}/log.txt")).status_code == 404
        # The admin sees every card dealt, marked as a full view, and the seed.
        full = (await room.owner.http.get(f"/api/hands/{hand.id}")).json()
        assert full["full"] is True and full["seed"] == hand.seed and full["viewer_seat"] is None
        dealt_cards = set().union(*(steps[-1][1][s] for s in dealt))
        assert dealt_cards <= cards_in(full["steps"], set())
        assert all(step["view"]["hand"]["full"] is True for step in full["steps"][:-1])
    assert checked >= 8
    # Among them, players who passed or folded: their cards stayed hidden from the others.
    assert any(a.action["action"] in ("pass", "fold") for _, actions, _ in rows for a in actions)
    assert (await eve.http.get("/api/hands")).json() == {"hands": [], "next_cursor": None}


_TEXT_CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♥♦♣])")
_SUIT_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _cards_in_text(text: str) -> set[str]:
    return {
        ("T" if rank == "10" else rank) + _SUIT_LETTER[suit]
        for rank, suit in _TEXT_CARD.findall(text)
    }


async def test_the_admins_log_replays_to_the_stored_result(room: Room, db: Database) -> None:
    await open_sockets(room.players, room.table_id)
    await play_hands(room, 6, random.Random(14))
    for hand, _, _ in await stored(db):
        answer = await room.owner.http.get(f"/api/hands/{hand.id}/log.json")
        assert answer.status_code == 200, answer.text
        document = answer.json()
        assert len(document["hands"]) == 1 and document["hands"][0]["seed"] == hand.seed
        replayed = replay(document)
        expected = {
            k: v
            for k, v in (hand.result or {}).items()
            if k not in ("number", "seed", "hand_id", "server_seed", "contributions", "timeouts")
        }
        assert replayed["hands"] == [expected]
        text = (await room.owner.http.get(f"/api/hands/{hand.id}/log.txt")).text
        assert f"Hand #{hand.number}" in text and hand.seed in text
    assert hand.ended_at is not None
    await the_record_says_when_in_the_readers_zone(room.owner, hand.id, hand.ended_at)


async def the_record_says_when_in_the_readers_zone(
    reader: Player, hand_id: int, ended_at: datetime
) -> None:
    """The printed record's time is in the zone the reader's browser names, named; without
    one, or with a name that is no zone, it is in UTC, named so."""

    async def ended(query: str) -> str:
        answer = await reader.http.get(f"/api/hands/{hand_id}/log.txt{query}")
        assert answer.status_code == 200, answer.text
        return next(line for line in answer.text.splitlines() if line.startswith("Ended "))

    utc = ended_at.replace(tzinfo=UTC) if ended_at.tzinfo is None else ended_at
    paris = utc.astimezone(ZoneInfo("Europe/Paris"))
    assert await ended("?tz=Europe/Paris") == (
        f"Ended {paris.day} {paris:%b %Y, %H:%M} (Europe/Paris)"
    )
    in_utc = f"Ended {utc.day} {utc:%b %Y, %H:%M} UTC"
    assert await ended("") == in_utc
    for bogus in ("Mars/Olympus_Mons", "../../etc/passwd", "zone.tab", "x" * 500):
        assert await ended(f"?tz={bogus}") == in_utc, bogus


@pytest.mark.parametrize("policy", ["hand", "session"])
async def test_no_seed_reaches_a_player_before_the_policy_allows(
    room: Room, db: Database, policy: str
) -> None:
    await set_policy(room, policy)
    eve = await spectator(room, db)
    await open_sockets([*room.players, eve], room.table_id)
    await play_hands(room, 3, random.Random(15), watchers=[eve])
    rows = await stored(db)
    # The seed and the server seed it was mixed from each derive every hidden card.
    seeds = {hand.seed for hand, _, _ in rows} | {hand.server_seed for hand, _, _ in rows}
    assert None not in seeds
    ana = room.players[0]
    paths = (
        "/api/hands",
        *(f"/api/hands/{hand.id}" for hand, _, _ in rows),
        *(f"/api/hands/{hand.id}/log.txt" for hand, _, _ in rows),
        *(f"/api/hands/{hand.id}/log.json" for hand, _, _ in rows),
        "/api/hands/stats",
        "/api/hands/mine.csv",
        f"/api/tables/{room.table_id}",
    )
    responses = [(await viewer.http.get(path)).text for viewer in (ana, eve) for path in paths]
    frames = [json.dumps(f) for p in [*room.players, eve] for f in p.frames]
    leaked = {s for s in seeds for text in [*frames, *responses] if s in text}
    if policy == "session":
        assert leaked == set()
        assert all(not hand.revealed for hand, _, _ in rows)
        overs = [f for f in ana.frames if f.get("kind") == "hand_over" and "number" in f["data"]]
        assert overs and all("seed" not in f["data"] for f in overs)
        assert all("server_seed" not in f["data"] for f in overs)
        assert "seed" not in ana.view["last_result"]
        # The table closes: its session ends and every seed of it is revealed together.
        closed = await room.owner.post(f"/api/tables/{room.table_id}/close")
        assert closed.status_code == 200, closed.text
        await ana.wait_for(lambda p: p.view["table"]["status"] == "closed")
        for hand, _, seats in rows:
            detail = (await ana.http.get(f"/api/hands/{hand.id}")).json()
            assert detail["revealed"] is True and detail["seed"] == hand.seed
            # What the Verify panel checks: the server seed, the shares, the pack as dealt.
            assert detail["server_seed"] == hand.server_seed
            assert detail["contributions"] == hand.contributions
            seed = bytes.fromhex(hand.seed)
            assert seed == mixed_seed(
                bytes.fromhex(hand.server_seed), contributions_from_hex(hand.contributions)
            )
            pack = (
                shuffled_deck(seed)
                if hand.header["game"] == "bourre"
                else shuffled(PACKS[len(seats)], seed, 0)  # the pack of the players dealt in
            )
            assert detail["deck"] == [CARD_NAMES[c] for c in pack]
            log = await ana.http.get(f"/api/hands/{hand.id}/log.json")
            assert log.status_code == 200 and replay(log.json())["hands"]
    else:
        assert leaked == seeds  # each seed was shown when its hand ended
        assert all(hand.revealed for hand, _, _ in rows)


async def test_the_last_player_leaving_ends_the_session(room: Room, db: Database) -> None:
    await open_sockets(room.players, room.table_id)
    await play_hands(room, 1, random.Random(16))
    for player in room.players:
        left = await player.post(f"/api/tables/{room.table_id}/stand")
        assert left.status_code == 200, left.text
    (hand, _, _), *_ = await stored(db)
    assert hand.session == 1
    async with db.transaction() as session:
        refreshed = await session.get(Hand, hand.id)
        assert refreshed is not None and refreshed.revealed
    ana = room.players[0]
    detail = (await ana.http.get(f"/api/hands/{hand.id}")).json()
    assert detail["seed"] == hand.seed


async def test_statistics_and_my_csv_come_from_the_seat_rows(room: Room, db: Database) -> None:
    await open_sockets(room.players, room.table_id)
    await play_hands(room, 4, random.Random(17))
    rows = await stored(db)
    bob = room.players[1]
    bob_id = _user_id(rows[0][0], "bob")
    mine = [s for _, _, seats in rows for s in seats if s.user_id == bob_id]
    game = rows[0][0].header["game"]
    stats = (await bob.http.get("/api/hands/stats")).json()
    assert stats["by_game"] == {
        game: {
            "hands": len(mine),
            "won": sum(s.won for s in mine),
            "net": sum(s.net for s in mine),
            "bourres_paid": sum(s.bourres_paid for s in mine),
            "brelans": sum(s.brelan for s in mine),
        }
    }
    month = mine[0].ended_at.strftime("%Y-%m")
    assert stats["by_month"] == [{"month": month, "game": game, **stats["by_game"][game]}]
    day = mine[0].ended_at.strftime("%Y-%m-%d")
    assert stats["net_by_day"] == [{"day": day, "net": sum(s.net for s in mine)}]
    export = await bob.http.get("/api/hands/mine.csv")
    assert export.status_code == 200 and export.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(export.text)))
    assert [int(r["hand_id"]) for r in lines] == [s.hand_id for s in reversed(mine)]
    assert [int(r["net"]) for r in lines] == [s.net for s in reversed(mine)]


async def test_admins_export_a_session_or_a_date_range(
    room: Room, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hands_api, "EXPORT_BATCH", 2)  # several batches for three hands
    await open_sockets(room.players, room.table_id)
    await play_hands(room, 3, random.Random(18))
    rows = await stored(db)
    admin = room.owner.http
    jsonl = await admin.get(
        "/api/admin/hands/export", params={"table_id": room.table_id, "session": 1}
    )
    assert jsonl.status_code == 200, jsonl.text
    records = [json.loads(line) for line in jsonl.text.splitlines()]
    assert [r["id"] for r in records] == [hand.id for hand, _, _ in rows]
    assert all(r["seed"] == hand.seed for r, (hand, _, _) in zip(records, rows, strict=True))
    assert all(replay(r["log"])["hands"] for r in records)
    later = rows[1][0].ended_at
    assert later is not None
    ranged = await admin.get("/api/admin/hands/export", params={"since": later.isoformat()})
    assert [json.loads(line)["id"] for line in ranged.text.splitlines()] == [
        hand.id for hand, _, _ in rows[1:]
    ]
    table = await admin.get("/api/admin/hands/export", params={"format": "csv"})
    assert table.status_code == 200 and table.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(table.text)))
    assert len(lines) == sum(len(seats) for _, _, seats in rows)
    refused = await room.players[0].http.get("/api/admin/hands/export")
    assert refused.status_code == 403
