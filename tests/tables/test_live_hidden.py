"""Hidden information over the wire: many random hands through the real server, and every
frame any seat or spectator received is checked against what that viewer could see at
that moment (by replaying the stored hand, step by step, in the engine)."""

from __future__ import annotations

import random
import re
from bisect import bisect_left, bisect_right
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Hand, HandAction
from app.db.session import Database
from app.engine.base import Action
from app.engine.bouillotte import BouillotteRules
from app.engine.bouillotte.session import BouillotteSession
from app.engine.bourre import BourreRules, BourreSession
from app.engine.cards import names_in
from app.engine.rng import seed_from_hex
from tests.tables.harness import Player, Room, open_room, play_until_over, seated

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
HANDS = 4

TABLES = {
    "bourre": {
        "name": "Hidden B",
        "game": "bourre",
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
    },
    "bouillotte": {
        "name": "Hidden O",
        "game": "bouillotte",
        "seat_count": 4,
        "buy_in_min": 100,
        "buy_in_max": 100,
    },
}


@pytest.fixture(params=["bourre", "bouillotte"])
async def room(
    request: pytest.FixtureRequest, settings: Settings, db: Database
) -> AsyncIterator[Room]:
    # Robots act far faster than people: lift the per-socket message limit for them.
    async with open_room(
        settings,
        db,
        TABLES[request.param],
        ["ana", "bob", "cyd", "dee"],
        100,
        ws_messages_per_window=10_000,
    ) as room:
        yield room


def cards_in(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        if CARD.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            cards_in(key, out)
            cards_in(item, out)
    elif isinstance(value, list):
        for item in value:
            cards_in(item, out)
    return out


Step = tuple[int, list[set[str]], set[str]]  # version, what each seat may see, public


def visibility_steps(hand: Hand, actions: list[HandAction], start_version: int) -> list[Step]:
    """What each seat (and everyone) may see after the deal and after every action."""
    header = hand.header
    stacks = [s["stack"] for s in header["seats"]]
    seed = seed_from_hex(hand.seed)
    away = hand.players.get("sitting_out", [])
    bourre = header["game"] == "bourre"
    if bourre:
        engine: Any = BourreSession(
            BourreRules.from_dict(header["rules"]),
            stacks,
            button=header["dealer"],
            pot=header.get("pot", 0),
            exempt=header.get("exempt", []),
        ).start_hand(seed=seed, sitting_out=away)
    else:
        engine = BouillotteSession(
            BouillotteRules.from_dict(header["rules"]),
            stacks,
            button=header["dealer"],
            pot=header.get("pot", 0),
        ).start_hand(seed=seed, sitting_out=away)
    n = len(stacks)
    own: list[set[str]] = [set() for _ in range(n)]
    public: set[str] = set()
    steps: list[Step] = []

    def record(version: int) -> None:
        for seat in range(n):
            own[seat] |= set(names_in(engine.hands[seat]))
        if bourre:
            public.update(names_in(engine.played | engine.public_out | (1 << engine.turned)))
        elif engine.dealt:
            public.update(names_in(1 << engine.upcard))
        steps.append((version, [set(s) for s in own], set(public)))

    record(start_version)
    for row in actions:
        data = row.action
        engine.apply(
            Action(
                data["seat"],
                data["action"],
                card=data.get("card"),
                cards=tuple(data["cards"]) if "cards" in data else None,
                amount=data.get("amount"),
            )
        )
        record(row.table_version)
    result = hand.result or {}
    if not bourre and result.get("showdown"):  # the showdown shows every hand dealt in
        final_version, seen, shown = steps[-1]
        everything = set().union(*seen)
        steps[-1] = (final_version, seen, shown | everything)
    return steps


def check_viewer(
    player: Player, seat: int | None, hands: dict[int, list[Step]], starts: dict[int, int]
) -> int:
    """Every card in every frame this viewer got was visible to it then; returns how many
    frames carried cards."""
    ordered = sorted(starts.items(), key=lambda kv: kv[1])
    start_versions = [v for _, v in ordered]
    checked = 0
    for frame in player.frames:
        if frame["type"] not in ("event", "snapshot"):
            continue
        if frame.get("kind") == "seats_drawn":
            continue  # Bouillotte's seat draw: its own cards, shown to all, none of a hand's
        found = cards_in(frame, set())
        if not found:
            continue
        version = frame["version"]
        index = bisect_right(start_versions, version) - 1
        assert index >= 0, f"cards {found} shown before any hand"
        number = ordered[index][0]
        steps = hands[number]
        # An action's events carry the versions up to the one stored with the action: a
        # frame belongs to the first step at or after its version.
        at = min(bisect_left([s[0] for s in steps], version), len(steps) - 1)
        _, seen, public = steps[at]
        allowed = public | (seen[seat] if seat is not None else set())
        assert found <= allowed, (player.username, frame["type"], version, found - allowed)
        checked += 1
    return checked


async def test_no_frame_shows_a_card_its_viewer_may_not_see(room: Room, db: Database) -> None:
    for player in [*room.players, room.owner]:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
    rng = random.Random(5)
    for number in range(1, HANDS + 1):
        await room.clock.advance(3)
        for watcher in (room.owner, room.players[0]):
            await watcher.wait_for(
                lambda p, n=number: (
                    (p.hand or {}).get("number") == n
                    or (p.view.get("last_result") or {}).get("number") == n
                )
            )
        players = seated(room)  # Bouillotte's seats are drawn when the first hand starts
        await play_until_over(players, rng)
        for player in [*room.players, room.owner]:
            await player.wait_for(
                lambda p, n=number: (p.view.get("last_result") or {}).get("number") == n
            )
        # Whoever lost every chip buys a new cave (Bouillotte) so the game goes on.
        for seat in room.owner.view["seats"]:
            if seat["stack"] == 0:
                rebuy = await players[seat["seat"]].post(
                    f"/api/tables/{room.table_id}/top-up",
                    {"amount": 100, "request_key": f"rebuy-{number}-{seat['seat']}"},
                )
                assert rebuy.status_code == 200, rebuy.text
    starts = {
        f["data"]["number"]: f["version"]
        for f in room.owner.frames
        if f["type"] == "event" and f["kind"] == "new_hand"
    }
    assert sorted(starts) == list(range(1, HANDS + 1))
    async with db.transaction() as session:
        rows = (await session.scalars(select(Hand).order_by(Hand.number))).all()
        steps = {
            hand.number: visibility_steps(
                hand,
                list(
                    (
                        await session.scalars(
                            select(HandAction)
                            .where(HandAction.hand_id == hand.id)
                            .order_by(HandAction.seq)
                        )
                    ).all()
                ),
                starts[hand.number],
            )
            for hand in rows
        }
    checked = sum(check_viewer(p, n, steps, starts) for n, p in players.items())
    spectator = check_viewer(room.owner, None, steps, starts)
    assert checked > 20 and spectator > 0
