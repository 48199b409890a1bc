"""Computer players at live tables: practice tables with play money, bots an admin seats or
that fill empty seats, a person taking a bot's seat between hands, and "suggest". Real
Uvicorn, real WebSocket clients, both databases."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import orjson
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from app.bots.base import Decision
from app.config import Settings
from app.db.models import PLAY_KINDS, Account, LedgerEntry, User
from app.db.session import Database
from app.main import create_app
from app.services import ledger
from app.services.audit import club_audit
from app.tables.clock import FakeClock
from tests.helpers import add_member, found_club, post
from tests.tables.harness import Player, serving

pytestmark = pytest.mark.usefixtures("db")


@dataclass
class Club:
    host: str
    app: FastAPI
    clock: FakeClock
    owner: Player
    ana: Player
    bob: Player


@asynccontextmanager
async def club(settings: Settings, db: Database) -> AsyncIterator[Club]:
    await found_club(db)
    for name in ("ana", "bob"):
        await add_member(db, name, chips=1000)
    clock = FakeClock()
    app = create_app(
        settings.model_copy(
            update={
                "next_hand_seconds": 3.0,
                "bot_think_min_seconds": 0,
                "bot_think_max_seconds": 0,
                # Bots that never think make Ana answer faster than any person: her socket
                # may send more than a person's 20 messages in 2 s.
                "ws_messages_per_window": 1000,
            }
        ),
        clock=clock,
    )
    async with serving(app) as host:
        people = [Player(host, name) for name in ("owner", "ana", "bob")]
        for person in people:
            await person.login()
        try:
            yield Club(host, app, clock, *people)
        finally:
            for person in people:
                await person.close()
                await person.http.aclose()


async def balances(db: Database) -> dict[str, int]:
    async with db.transaction() as session:
        rows = (await session.execute(select(Account.key, Account.balance))).all()
    return {key: int(balance) for key, balance in rows}


async def deal_next(player: Player, clock: FakeClock) -> None:
    """Once the table counts down to its next hand (after a hand, bots that can no longer
    play may first be replaced), let the countdown run out."""
    await player.wait_for(lambda p: p.view["next_hand_in"] is not None)
    await clock.advance(player.view["next_hand_in"])


async def until_asked(player: Player, clock: FakeClock) -> None:
    """Deal hands until one waits for `player` (the bots may settle one among themselves
    without asking anything of a person)."""
    for number in range(1, 21):
        await deal_next(player, clock)
        await player.wait_for(
            lambda p, n=number: (
                bool((p.hand or {}).get("legal_actions"))
                or (p.view["last_result"] or {}).get("number") == n
            ),
            seconds=20,
        )
        if (player.hand or {}).get("legal_actions"):
            return
    raise AssertionError("no hand waited for the player")


async def play_out(player: Player, rng: random.Random) -> dict[str, Any]:
    """`player` plays any legal move whenever it is their turn, until the hand is over;
    the bots play the other seats. Returns the hand's result."""
    for _ in range(400):
        hand = player.hand
        if player.view.get("last_result") is not None and (hand is None or hand["phase"] == "over"):
            result: dict[str, Any] = player.view["last_result"]
            return result
        legal = (hand or {}).get("legal_actions") or []
        before = player.version
        if legal:
            choice = dict(rng.choice(legal))
            if "min" in choice:
                choice["amount"] = choice.pop("min")
                choice.pop("max")
            await player.act(choice)
        await player.wait_for(lambda p, v=before: p.version > v, seconds=20)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("game", ["bourre", "bouillotte"])
async def test_a_practice_hand_against_bots_moves_no_club_chip(
    settings: Settings, db: Database, game: str
) -> None:
    async with club(settings, db) as room:
        before = await balances(db)
        opened = await room.ana.post(
            "/api/tables/practice", {"game": game, "seat_count": 4, "level": "club"}
        )
        assert opened.status_code == 201, opened.text
        table = opened.json()
        assert table["practice"] is True and table["private"] is True
        seats = table["seats"]
        assert seats[0]["username"] == "ana"
        assert len(seats) == 4 and all(s["bot"] == "club" for s in seats[1:])
        assert all(s["name"].endswith("(bot)") for s in seats[1:])

        # Every decision a bot makes is made from exactly its seat's socket view.
        actor = room.app.state.tables.actors[table["id"]]
        decided: list[tuple[int, dict[str, Any], Decision]] = []

        def watch(view: Mapping[str, Any], decision: Decision) -> None:
            seat = view["you"]["seat"]
            socket_view = orjson.loads(actor._snapshot_for(seat))["view"]
            assert view == socket_view
            legal = view["hand"]["legal_actions"]
            asked = {k: v for k, v in decision.action.items()}
            assert any(
                {k: v for k, v in option.items() if k not in ("seat", "min", "max")}
                == {k: v for k, v in asked.items() if k != "amount"}
                for option in legal
            ), (decision, legal)
            # Its own cards only: no other seat's, and nothing of the stock.
            shown = view["hand"]
            assert shown["viewer"] == seat and "hands" not in shown
            assert {"deck", "stock_cards", "seed"}.isdisjoint(shown)
            decided.append((seat, dict(view), decision))

        actor.bot_observer = watch
        await room.ana.open(table["id"])
        await room.ana.wait_for(lambda p: p.snapshot is not None)
        rng = random.Random(5)
        for number in (1, 2, 3):  # many states: three hands' worth of decisions
            await deal_next(room.ana, room.clock)
            await room.ana.wait_for(lambda p, n=number: (p.hand or {}).get("number") == n)
            result = await play_out(room.ana, rng)
            assert result["number"] == number
        assert len(decided) >= 10, "the bots made too few decisions"
        # (Bouillotte draws the seats before the first hand: the bots' may have changed.)
        bot_seats = {s["seat"] for s in room.ana.view["seats"] if s["bot"]}
        assert len(bot_seats) == 3 and {seat for seat, _, _ in decided} <= bot_seats
        after = await balances(db)
        # Ana's own chips and the club's never moved: only play money did.
        assert after["member:2"] == before["member:2"] == 1000
        assert after["bank"] == before["bank"]
        async with db.transaction() as session:
            kinds = dict((await session.execute(select(Account.key, Account.kind))).all())
            entries = (await session.execute(select(LedgerEntry))).scalars().all()
            audit = await club_audit(session)
            report = await ledger.audit(session)
        practice_keys = {k for k, kind in kinds.items() if kind in PLAY_KINDS}
        assert f"pot:{table['id']}" in practice_keys and "play:bank" in practice_keys
        moved = [e for e in entries if e.from_account_id != e.to_account_id]
        assert moved and audit.ok, audit.problems
        assert report.chips_in_circulation == -before["bank"]

        # Ana sits out: bots do not play on for nobody, and come back when she does.
        await room.ana.post(f"/api/tables/{table['id']}/sit-out")
        await room.ana.wait_for(lambda p: not any(s["bot"] for s in p.view["seats"]))
        await room.ana.post(f"/api/tables/{table['id']}/sit-in")
        await room.ana.wait_for(lambda p: sum(1 for s in p.view["seats"] if s["bot"]) == 3)


async def test_admin_fills_a_club_table_and_a_person_takes_a_bots_seat_between_hands(
    settings: Settings, db: Database
) -> None:
    async with club(settings, db) as room:
        made = await room.owner.post(
            "/api/tables",
            {
                "name": "Bots welcome",
                "game": "bourre",
                "seat_count": 3,
                "buy_in_min": 20,
                "buy_in_max": 200,
            },
        )
        table_id = made.json()["id"]
        refused = await room.ana.put(f"/api/tables/{table_id}/bot-fill", {"level": "random"})
        assert refused.status_code == 403
        filled = await room.owner.put(f"/api/tables/{table_id}/bot-fill", {"level": "random"})
        assert filled.status_code == 200, filled.text
        # Nobody plays yet: no bot sits down for nobody.
        assert (await room.owner.get(f"/api/tables/{table_id}")).json()["seats"] == []
        bank_before = (await balances(db))["bank"]

        sat = await room.ana.post(
            f"/api/tables/{table_id}/seat", {"buy_in": 100, "request_key": "ana-sits-0001"}
        )
        assert sat.status_code == 200, sat.text
        seats = (await room.owner.get(f"/api/tables/{table_id}")).json()["seats"]
        bots = [s for s in seats if s["bot"]]
        assert len(seats) == 3 and len(bots) == 2
        # Each bot bought in from the club's bank, at the table's maximum.
        assert (await balances(db))["bank"] == bank_before - 2 * 200

        await room.ana.open(table_id)
        await room.ana.wait_for(lambda p: p.snapshot is not None)
        await until_asked(room.ana, room.clock)
        # Bob asks for a seat while the hand is played: a bot gives way when it ends.
        asked = await room.bob.post(
            f"/api/tables/{table_id}/seat", {"buy_in": 100, "request_key": "bob-sits-0001"}
        )
        assert asked.status_code == 200, asked.text
        assert asked.json().get("after_hand") is True, (asked.json(), room.ana.view)
        await play_out(room.ana, random.Random(7))
        await room.ana.wait_for(
            lambda p: any(s["username"] == "bob" for s in p.view["seats"]), seconds=10
        )
        seats = room.ana.view["seats"]
        assert len(seats) == 3 and sum(1 for s in seats if s["bot"]) == 1
        assert [s["seat"] for s in seats if s["username"] == "bob"] == [asked.json()["seat"]]
        async with db.transaction() as session:
            audit = await club_audit(session)
        assert audit.ok, audit.problems

        # When the people leave, so do the bots, and every bot chip is back in the bank.
        for person in (room.ana, room.bob):
            await person.post(f"/api/tables/{table_id}/stand")
        final = (await room.owner.get(f"/api/tables/{table_id}")).json()["seats"]
        assert final == []
        after = await balances(db)
        assert after["member:2"] + after["member:3"] + after["bank"] + after[f"pot:{table_id}"] == (
            2000 + bank_before
        )


async def test_admins_seat_and_send_away_bots_and_bots_cannot_log_in(
    settings: Settings, db: Database
) -> None:
    async with club(settings, db) as room:
        made = await room.owner.post(
            "/api/tables",
            {
                "name": "Two bots",
                "game": "bouillotte",
                "seat_count": 4,
                "buy_in_min": 50,
                "buy_in_max": 50,
                "rules": {"cave": 50},
            },
        )
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        body = {"level": "club", "request_key": "bot-seat-0001"}
        assert (await room.ana.post(f"/api/tables/{table_id}/bots", body)).status_code == 403
        seated = await room.owner.post(f"/api/tables/{table_id}/bots", body)
        assert seated.status_code == 200, seated.text
        again = await room.owner.post(f"/api/tables/{table_id}/bots", body)
        assert again.json() == seated.json()  # the same request key seats one bot
        bad = await room.owner.post(
            f"/api/tables/{table_id}/bots", {"level": "genius", "request_key": "bot-seat-0002"}
        )
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "unknown_bot_level"
        seats = (await room.owner.get(f"/api/tables/{table_id}")).json()["seats"]
        assert len(seats) == 1 and seats[0]["bot"] == "club"
        # A bot an admin seated stays when the table fills with bots and nobody plays:
        # only bots that came to fill the table go when there is nobody to play with.
        filling = await room.owner.put(f"/api/tables/{table_id}/bot-fill", {"level": "random"})
        assert filling.status_code == 200, filling.text
        seats = (await room.owner.get(f"/api/tables/{table_id}")).json()["seats"]
        assert len(seats) == 1 and seats[0]["bot"] == "club"
        await room.owner.put(f"/api/tables/{table_id}/bot-fill", {"level": None})
        async with db.transaction() as session:
            bot = await session.scalar(select(User).where(User.bot_level.is_not(None)))
            assert bot is not None
            lines = await ledger.entries(
                session, ledger.EntryFilter(account_key=f"seat:{table_id}:{bot.id}"), limit=None
            )
        assert [line.reason for line in lines] == [f"Bot buy-in at table {table_id}"]
        assert lines[0].from_account == "bank"
        stranger = Player(room.host, bot.username)
        login = await post(
            stranger.http, "/api/auth/login", {"username": bot.username, "password": "!bot"}
        )
        await stranger.http.aclose()
        assert login.status_code == 401 and login.json()["error"]["code"] == "bad_credentials"
        gone = await room.owner.delete(f"/api/tables/{table_id}/bots/{seated.json()['seat']}")
        assert gone.status_code == 200 and gone.json()["left"] is True
        assert (await room.owner.get(f"/api/tables/{table_id}")).json()["seats"] == []
        async with db.transaction() as session:
            lines = await ledger.entries(
                session, ledger.EntryFilter(account_key=f"seat:{table_id}:{bot.id}"), limit=None
            )
        # Its whole stack went back to the club's bank, and the line says it was a bot's.
        moves = {(line.reason, line.from_account, line.to_account) for line in lines}
        bot_seat = f"seat:{table_id}:{bot.id}"
        assert moves == {
            (f"Bot buy-in at table {table_id}", "bank", bot_seat),
            (f"Bot left table {table_id}", bot_seat, "bank"),
        }
        not_bot = await room.owner.delete(f"/api/tables/{table_id}/bots/0")
        assert not_bot.status_code == 409 and not_bot.json()["error"]["code"] == "not_a_bot"


async def test_suggest_answers_at_practice_tables_only(settings: Settings, db: Database) -> None:
    async with club(settings, db) as room:
        opened = await room.ana.post("/api/tables/practice", {"game": "bourre", "seat_count": 2})
        table_id = opened.json()["id"]
        await room.ana.open(table_id)
        await room.ana.wait_for(lambda p: p.snapshot is not None)
        await until_asked(room.ana, room.clock)
        await room.ana.send({"type": "suggest"})
        await room.ana.wait_for(lambda p: any(f["type"] == "suggestion" for f in p.frames))
        suggestion = next(f for f in room.ana.frames if f["type"] == "suggestion")
        legal = [
            {k: v for k, v in a.items() if k != "seat"} for a in room.ana.hand["legal_actions"]
        ]
        assert suggestion["action"] in legal
        assert suggestion["reason"].strip()
        # Bob cannot even see Ana's practice table, let alone close it; Ana may close it.
        assert (await room.bob.get(f"/api/tables/{table_id}")).status_code == 404
        assert (await room.bob.post(f"/api/tables/{table_id}/close")).status_code == 404
        closed = await room.ana.post(f"/api/tables/{table_id}/close")
        assert closed.status_code == 200 and closed.json()["status"] in ("closing", "closed")
        club_table = await room.owner.post(
            "/api/tables",
            {
                "name": "Club",
                "game": "bourre",
                "seat_count": 4,
                "buy_in_min": 20,
                "buy_in_max": 200,
            },
        )
        refused = await room.ana.post(f"/api/tables/{club_table.json()['id']}/close")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "admin_only"
