"""A club night, played through as a club plays it, then settled as its treasurer settles it.

Five members and three house bots at two tables — 'Cajun' (Bourré: Alice, Bob, Carol and two
bots an admin seated) and 'Salon rouge' (Bouillotte: Dave, Emile and a bot) — and Carol's
practice table on the side, some forty hands in all over real WebSockets. On the way: Carol
arrives while the first deal is gathering and is dealt in; Alice reloads her page mid-hand
and gets that hand's log back; Bob lets the turn timer play two hands, is told he was sat
out, and comes back; at Bouillotte the members go all in until one of them is broke, and the
table waits for his cave (saying so) instead of stalling. At the end everyone stands up and
the admin sends the bots away; then the sessions, who pays whom, the CSVs and the dashboard
must tell the ledger's story to the chip: every member's net is what their balance moved,
bots only on the house's lines, practice only on its own, the dashboard's figures those of
the ledger's audit.
"""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Account, AccountKind
from app.db.session import Database
from app.main import create_app
from app.services import ledger
from app.services.overview import circulation
from app.tables.clock import FakeClock
from tests.helpers import add_member, found_club
from tests.tables.harness import Player, serving

pytestmark = pytest.mark.usefixtures("db")

MEMBERS = ("alice", "bob", "carol", "dave", "emile")
CHIPS = 1000
TURN = 20
GATHERING = 10.0
PAUSE = 3.0
CAVE = 60
HANDS = 40


@dataclass
class Night:
    clock: FakeClock
    owner: Player
    people: dict[str, Player]

    def __getitem__(self, name: str) -> Player:
        return self.people[name]


@asynccontextmanager
async def club_night(settings: Settings, db: Database) -> AsyncIterator[Night]:
    await found_club(db)
    for name in MEMBERS:
        await add_member(db, name, chips=CHIPS)
    clock = FakeClock()
    app = create_app(
        settings.model_copy(
            update={
                "next_hand_seconds": PAUSE,
                "gathering_seconds": GATHERING,
                "bot_think_min_seconds": 0,
                "bot_think_max_seconds": 0,
                # Robots answer faster than a person's message limit allows.
                "ws_messages_per_window": 1000,
            }
        ),
        clock=clock,
    )
    async with serving(app) as host:
        owner = Player(host, "owner")
        people = {name: Player(host, name) for name in MEMBERS}
        for person in [owner, *people.values()]:
            await person.login()
        try:
            yield Night(clock, owner, people)
        finally:
            for person in [owner, *people.values()]:
                await person.close()
                await person.http.aclose()


async def sit(player: Player, table_id: int, buy_in: int) -> int:
    sat = await player.post(
        f"/api/tables/{table_id}/seat",
        {"buy_in": buy_in, "request_key": f"sit-{player.username}-{table_id}-0001"},
    )
    assert sat.status_code == 200, sat.text
    seat: int = sat.json()["seat"]
    await player.open(table_id)
    await player.wait_for(lambda p: p.snapshot is not None)
    return seat


def my_seat(player: Player) -> int | None:
    seat: int | None = player.view["you"]["seat"]
    return seat


def hand_number(player: Player) -> int | None:
    return (player.hand or {}).get("number")


def settled(player: Player, number: int) -> bool:
    result = player.view["last_result"]
    return player.hand is None and result is not None and result["number"] == number


def pick(legal: list[dict[str, Any]], rng: random.Random, bold: bool) -> dict[str, Any]:
    """A member's move: the bold go all in or call whenever they can (Bouillotte), others
    come in to most Bourré hands and otherwise play any legal move at a modest amount."""
    kinds = [a["action"] for a in legal]
    if bold:
        for kind in ("all_in", "call", "decline", "pass", "check"):
            if kind in kinds:
                return {"action": kind}
    playing = [a for a in legal if a["action"] == "play"]
    choice = dict(playing[0] if playing and rng.random() < 0.8 else rng.choice(legal))
    if "min" in choice:
        choice["amount"] = choice.pop("min")
        choice.pop("max")
    return choice


async def play_hand(
    night: Night,
    players: list[Player],
    rng: random.Random,
    *,
    idle: frozenset[str] = frozenset(),
    bold: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Play the running hand to its end: each member at the table plays their own turns
    from their own socket, the bots theirs; the `idle` let the turn timer play for them.
    Returns the hand's result as the first player saw it."""
    watcher = players[0]
    await watcher.wait_for(lambda p: p.hand is not None, seconds=20)
    number = hand_number(watcher)
    assert number is not None
    by_seat = {my_seat(p): p for p in players}
    for _ in range(600):
        if settled(watcher, number):
            result: dict[str, Any] = watcher.view["last_result"]
            return result
        hand = watcher.hand
        before = watcher.version
        if hand is not None and hand.get("phase") != "over" and hand["to_act"]:
            seat = hand["to_act"][0]
            member = by_seat.get(seat)
            if member is not None and member.username in idle:
                await night.clock.advance(TURN)
            elif member is not None:
                await member.wait_for(lambda p, v=before: p.version >= v)
                legal = (member.hand or {}).get("legal_actions") or []
                if legal:
                    await member.act(pick(legal, rng, member.username in bold))
        await watcher.wait_for(lambda p, v=before: p.version > v, seconds=20)
    raise AssertionError(f"hand {number} did not end")


async def next_deal(night: Night, watcher: Player, after: int) -> None:
    """The pause between hands runs out and the next hand is dealt."""
    await watcher.wait_for(
        lambda p: p.view["next_hand_in"] is not None or p.view["waiting_for"] is not None
    )
    assert watcher.view["waiting_for"] is None, watcher.view["waiting_for"]
    await night.clock.advance(watcher.view["next_hand_in"])
    await watcher.wait_for(lambda p: (hand_number(p) or 0) > after, seconds=20)


async def create_table(night: Night, body: dict[str, Any]) -> int:
    made = await night.owner.post("/api/tables", body)
    assert made.status_code == 201, made.text
    table_id: int = made.json()["id"]
    return table_id


async def seat_bot(night: Night, table_id: int, key: str) -> None:
    seated = await night.owner.post(
        f"/api/tables/{table_id}/bots", {"level": "club", "request_key": key}
    )
    assert seated.status_code == 200, seated.text


async def member_balances(db: Database) -> dict[int, int]:
    async with db.transaction() as session:
        rows = (
            await session.execute(
                select(Account.user_id, Account.balance).where(Account.kind == AccountKind.MEMBER)
            )
        ).all()
    return {int(user): int(balance) for user, balance in rows if user is not None}


# ---------------------------------------------------------------- the tables' stories


async def the_bourre_table(night: Night, rng: random.Random, hands: int) -> tuple[int, int]:
    """'Cajun': two bots, Alice and Bob sit, Carol arrives during the gathering; a reload;
    Bob timed out twice, told, back. Returns the table's id and the number of hands Carol
    was dealt in (the deck is the server's: she may go broke and sit the rest out)."""
    table_id = await create_table(
        night,
        {
            "name": "Cajun",
            "game": "bourre",
            "seat_count": 5,
            "buy_in_min": 20,
            "buy_in_max": 200,
            "turn_seconds": TURN,
        },
    )
    await seat_bot(night, table_id, "cajun-bot-0001")
    await seat_bot(night, table_id, "cajun-bot-0002")
    alice, bob, carol = night["alice"], night["bob"], night["carol"]
    await sit(alice, table_id, 150)
    await sit(bob, table_id, 150)
    # Play starts with a gathering countdown, not the instant two people sit.
    await alice.wait_for(lambda p: p.view["gathering"] is not None)
    assert alice.view["next_hand_in"] == pytest.approx(GATHERING, abs=0.5)
    await night.clock.advance(GATHERING / 2)
    carol_seat = await sit(carol, table_id, 150)
    players = [alice, bob, carol]
    # Everyone seated cuts the gathering short: the hand is dealt at once, Carol in it.
    for player in players:
        await player.send({"type": "deal_now"})
    await carol.wait_for(lambda p: p.hand is not None)
    assert carol.view["you"]["dealt_in"] is True and carol_seat is not None

    idle_hands = carol_hands = 0
    for number in range(1, hands + 1):
        if number > 1:
            await next_deal(night, alice, number - 1)
        if number == 2:
            # Alice reloads her page mid-hand: the new socket rebuilds that hand's log.
            await alice.close()
            alice.frames.clear()
            await alice.open(table_id)
            await alice.wait_for(lambda p: any(f["type"] == "hand_log" for f in p.frames))
            log = next(f for f in alice.frames if f["type"] == "hand_log")
            assert log["hand"] == hand_number(alice) == number
            assert log["events"] and log["events"][0]["kind"] == "new_hand"
        sat_out = bob_row(alice)["sitting_out"]
        idle = frozenset({"bob"}) if number >= 3 and idle_hands < 2 and not sat_out else frozenset()
        await carol.wait_for(lambda p, n=number: hand_number(p) == n)
        carol_hands += carol.view["you"]["dealt_in"] is True
        await play_hand(night, players, rng, idle=idle)
        idle_hands += bool(idle)
        if bob_row(alice)["sat_out_after"] is not None:
            # Sat out after his second timed-out hand, and told so with the count; his
            # "I'm back" is the sit-in, and he is dealt in again.
            assert idle_hands == 2 and bob_row(alice)["sat_out_after"] == 2
            await bob.wait_for(lambda p: bob_row(p)["sat_out_after"] == 2)
            back = await bob.post(f"/api/tables/{table_id}/sit-in")
            assert back.status_code == 200, back.text
            await alice.wait_for(lambda p: not bob_row(p)["sitting_out"])
            assert bob_row(alice)["sat_out_after"] is None
    assert idle_hands == 2 and not bob_row(alice)["sitting_out"]
    await stand_up(players, table_id)
    return table_id, carol_hands


async def stand_up(players: list[Player], table_id: int) -> None:
    """The players' night at this table ends: their stacks go back to their balances (the
    club's one clock moves on for the other tables; nobody is left for it to time out)."""
    for player in players:
        stood = await player.post(f"/api/tables/{table_id}/stand")
        assert stood.status_code == 200, stood.text
        await player.close()


def bob_row(player: Player) -> dict[str, Any]:
    row: dict[str, Any] = next(s for s in player.view["seats"] if s["username"] == "bob")
    return row


async def the_bouillotte_table(night: Night, rng: random.Random, hands: int) -> int:
    """'Salon rouge': a bot, Dave and Emile, who go all in at every turn until one of them
    is broke; the table waits for his cave, saying so, and deals again once he buys it."""
    table_id = await create_table(
        night,
        {
            "name": "Salon rouge",
            "game": "bouillotte",
            "seat_count": 4,
            "buy_in_min": CAVE,
            "buy_in_max": CAVE,
            "turn_seconds": TURN,
            "rules": {"cave": CAVE},
        },
    )
    await seat_bot(night, table_id, "rouge-bot-0001")
    dave, emile = night["dave"], night["emile"]
    await sit(dave, table_id, CAVE)
    await sit(emile, table_id, CAVE)
    players = [dave, emile]
    await dave.wait_for(lambda p: p.view["next_hand_in"] is not None)
    await night.clock.advance(dave.view["next_hand_in"])
    busts = 0
    for number in range(1, hands + 1):
        if number > 1:
            await dave.wait_for(
                lambda p: p.view["next_hand_in"] is not None or p.view["waiting_for"] is not None
            )
            waiting = dave.view["waiting_for"]
            if waiting is not None:
                # Only two players have chips and Bouillotte deals to three: however long
                # everyone waits, no countdown runs, and the view says what is awaited.
                await night.clock.advance(120)
                assert dave.view["next_hand_in"] is None and dave.hand is None
                assert waiting["code"] == "more_players" and waiting["min"] == 3
                broke = [p for p in players if my_seat(p) in waiting["broke"]]
                able = [s for s in dave.view["seats"] if s["stack"] > 0 and not s["sitting_out"]]
                assert waiting["missing"] == 3 - len(able)
                for player in broke:  # each buys a new cave
                    busts += 1
                    bought = await player.post(
                        f"/api/tables/{table_id}/top-up",
                        {"amount": CAVE, "request_key": f"cave-{player.username}-{number:04d}"},
                    )
                    assert bought.status_code == 200, bought.text
                # A bot that went broke left the table: the admin seats another.
                for extra in range(waiting["missing"] - len(broke)):
                    await seat_bot(night, table_id, f"rouge-bot-{number:04d}-{extra}")
                await dave.wait_for(lambda p: p.view["next_hand_in"] is not None)
            await next_deal(night, dave, number - 1)
        await play_hand(night, players, rng, bold=frozenset({"dave", "emile"}))
    assert busts >= 1, "no member went broke at Bouillotte"
    await stand_up(players, table_id)
    return table_id


async def the_practice_table(night: Night, rng: random.Random, hands: int) -> int:
    """Carol's practice table: play money against two bots."""
    carol = night["carol"]
    opened = await carol.post(
        "/api/tables/practice", {"game": "bourre", "seat_count": 3, "level": "club"}
    )
    assert opened.status_code == 201, opened.text
    table_id: int = opened.json()["id"]
    # Her socket at Cajun stays open in another tab: a second player for her practice.
    practice = Player(carol.host, "carol")
    practice.http = carol.http
    await practice.open(table_id)
    await practice.wait_for(lambda p: p.snapshot is not None)
    for number in range(1, hands + 1):
        await next_deal(night, practice, number - 1)
        await play_hand(night, [practice], rng)
    await practice.close()
    return table_id


# ---------------------------------------------------------------- the night, and its money


async def test_a_club_night_is_played_through_and_settled_to_the_chip(
    settings: Settings, db: Database
) -> None:
    rng = random.Random(2026)
    bourre_hands, bouillotte_hands, practice_hands = 22, 13, 5
    assert bourre_hands + bouillotte_hands + practice_hands == HANDS
    async with club_night(settings, db) as night:
        member_ids = {
            name: int((await night[name].get("/api/me")).json()["id"]) for name in MEMBERS
        }
        cajun, carol_hands = await the_bourre_table(night, rng, bourre_hands)
        rouge = await the_bouillotte_table(night, rng, bouillotte_hands)
        practice = await the_practice_table(night, rng, practice_hands)

        # The night ends: the admin sends the bots away and Carol closes her practice table.
        for table_id in (cajun, rouge):
            seats = (await night.owner.get(f"/api/tables/{table_id}")).json()["seats"]
            for seat in seats:
                assert seat["bot"], seat
                gone = await night.owner.delete(f"/api/tables/{table_id}/bots/{seat['seat']}")
                assert gone.status_code == 200, gone.text
        closed = await night["carol"].post(f"/api/tables/{practice}/close")
        assert closed.status_code == 200, closed.text

        balances = await member_balances(db)
        moved = {name: balances[member_ids[name]] - CHIPS for name in MEMBERS}
        assert sum(abs(n) for n in moved.values()) > 0, "nobody won or lost a chip all night"

        # Who pays whom: members only among the nets, each net what the member's balance
        # moved; the house (bank and bots) one party, apart.
        owner = night.owner
        settlement = (await owner.get("/api/admin/treasury/settlement")).json()
        nets = {row["member_id"]: row["net"] for row in settlement["nets"]}
        assert set(nets) <= set(member_ids.values())
        for name in MEMBERS:
            assert nets.get(member_ids[name], 0) == moved[name], (name, settlement)
        house = settlement["house"]
        assert house["net"] == -sum(moved.values())
        for transfer in settlement["transfers"]:
            for party in (transfer["payer_id"], transfer["payee_id"]):
                assert party is None or party in member_ids.values(), transfer
        # Settling every transfer brings every member's net to zero.
        after = dict(nets)
        for transfer in settlement["transfers"]:
            for party, sign in ((transfer["payer_id"], 1), (transfer["payee_id"], -1)):
                if party is not None:
                    after[party] += sign * transfer["amount"]
        assert set(after.values()) <= {0}

        # Sessions: members' rows by default, the bots' under their own filter; practice
        # in neither.
        sittings = (await owner.get("/api/admin/treasury/sessions")).json()
        assert sittings and not any(row["bot"] for row in sittings)
        assert {row["table_id"] for row in sittings} == {cajun, rouge}
        by_member: dict[int, int] = {}
        for row in sittings:
            by_member[row["member_id"]] = by_member.get(row["member_id"], 0) + row["net"]
        assert by_member == {member_ids[n]: moved[n] for n in MEMBERS}
        bots = (await owner.get("/api/admin/treasury/sessions?party=bots")).json()
        assert bots and all(row["bot"] for row in bots)
        assert {row["table_id"] for row in bots} <= {cajun, rouge}
        assert sum(row["net"] for row in bots) == house["bots_net"]
        exported = (await owner.get("/api/admin/treasury/sessions.csv")).text
        rows = list(csv.DictReader(io.StringIO(exported)))
        assert len(rows) == len(sittings)
        assert {row["party"] for row in rows} == {"member"}
        assert not any("(bot)" in cell for row in rows for cell in row.values())

        # Practice stays practice: Carol's statistics and export count her club hands only.
        carol = night["carol"]
        stats = (await carol.get("/api/hands/stats")).json()
        mine = list(csv.DictReader(io.StringIO((await carol.get("/api/hands/mine.csv")).text)))
        assert len(mine) == carol_hands
        assert {row["table_id"] for row in mine} == {str(cajun)}
        assert stats["by_game"]["bourre"]["hands"] == carol_hands

        # The dashboard's figures are the ledger's audit (what `salon audit` prints), each
        # said once: the members hold their balances (everyone stood up), the house nothing
        # (the bots went home, the pots were carried out by the last hands or are in them).
        async with db.transaction() as session:
            report = await ledger.audit(session)
            held = await circulation(session)
        dashboard = (await owner.get("/admin")).text
        shown = {
            testid: int(value)
            for testid, value in re.findall(r'data-testid="([a-z-]+)">(-?\d+)<', dashboard)
        }
        assert shown["circulation-total"] == held.total == report.chips_in_circulation
        assert shown["held-by-members"] == held.held_by_members == sum(balances.values())
        assert shown["bot-stacks"] == 0
        assert dashboard.count("held by members") == 1
