"""Every action a table stores is in its canonical form, so every stored hand replays.

A field that a kind of action does not take (a card on a declaration, an amount on a card,
`cards` on a card) is refused with `invalid_message` naming the field, before the engine
sees it; nothing is stored. A Hypothesis property checks the shape rule against the
table-log parser for any mix of fields, and a seeded fuzz plays whole hands over real
WebSockets while adding random extra fields to actions, then replays every stored hand.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import Hand, HandAction
from app.db.session import Database
from app.engine import log as table_log
from app.engine.logdoc import MalformedLog
from tests.tables.harness import Player, Room, deal, open_room, seated, watch

NAMES = ["ana", "bob", "cyd"]
EXTRA_FIELDS = {
    "card": st.sampled_from(["AS", "2C", "TD"]),
    "cards": st.lists(st.sampled_from(["AS", "2C", "TD", "9H"]), max_size=3, unique=True),
    "amount": st.integers(min_value=0, max_value=500),
}


def _table(game: str) -> dict[str, Any]:
    if game == "bourre":
        return {
            "name": "Canon",
            "game": "bourre",
            "seat_count": 3,
            "buy_in_min": 20,
            "buy_in_max": 200,
            "turn_seconds": 30,
        }
    return {
        "name": "Canon",
        "game": "bouillotte",
        "seat_count": 3,
        "buy_in_min": 100,
        "buy_in_max": 100,
        "turn_seconds": 30,
    }


@pytest.fixture(params=["bourre", "bouillotte"])
async def room(
    request: pytest.FixtureRequest, settings: Settings, db: Database
) -> AsyncIterator[Room]:
    async with open_room(settings, db, _table(request.param), NAMES, buy_in=100) as room:
        await watch(room)
        await deal(room)
        yield room


def _seat_to_act(room: Room) -> Player:
    hand = room.players[0].hand
    assert hand is not None
    return seated(room)[hand["to_act"][0]]


async def _stored_actions(db: Database) -> int:
    async with db.transaction() as session:
        return int(await session.scalar(select(func.count()).select_from(HandAction)) or 0)


async def _refused(player: Player, message: dict[str, Any]) -> dict[str, Any]:
    before = len(player.errors())
    await player.act(message)
    await player.wait_for(lambda p: len(p.errors()) > before)
    error: dict[str, Any] = player.errors()[-1]
    return error


async def test_fields_an_action_does_not_take_are_refused_by_name(room: Room, db: Database) -> None:
    player = _seat_to_act(room)
    legal = (player.hand or {})["legal_actions"]
    version, stored = player.version, await _stored_actions(db)
    first = dict(legal[0])
    first.pop("min", None)
    first.pop("max", None)
    for field, value in (("card", "AS"), ("cards", []), ("amount", 5)):
        if field in first:
            continue
        error = await _refused(player, {**first, field: value})
        assert error["code"] == "invalid_message", error
        assert field in error["message"] and error["details"]["field"] == field
        assert error["ref"]
    assert player.version == version
    assert await _stored_actions(db) == stored
    # The same action without the extra field is accepted.
    await player.act(first)
    await player.wait_for(lambda p: p.version > version)
    assert await _stored_actions(db) == stored + 1


async def test_a_card_with_an_amount_is_refused_at_bourre(settings: Settings, db: Database) -> None:
    async with open_room(settings, db, _table("bourre"), NAMES, buy_in=100) as room:
        await watch(room)
        await deal(room)
        actor = _seat_to_act(room)
        card = actor.hand["hand"][0]  # type: ignore[index]
        error = await _refused(actor, {"action": "card", "card": card, "amount": 3})
        assert error["code"] == "invalid_message" and "amount" in error["message"]
        error = await _refused(actor, {"action": "card", "card": card, "cards": []})
        assert error["code"] == "invalid_message" and "cards" in error["message"]


@given(
    game=st.sampled_from(["bourre", "bouillotte"]),
    kind=st.sampled_from(
        ["play", "pass", "discard", "card", "take_trump", "open", "raise", "call", "fold"]
    ),
    extra=st.fixed_dictionaries({}, optional=EXTRA_FIELDS),
)
def test_whatever_the_parser_accepts_round_trips_unchanged(
    game: str, kind: str, extra: dict[str, Any]
) -> None:
    """The live check is the table-log parser itself: an accepted action's stored form
    parses back to the same action, and a refusal names the field at fault."""
    given_action = {"seat": 1, "action": kind, **extra}
    parse = table_log.GAMES[game].parse_action
    try:
        action = parse(given_action, "action")
    except MalformedLog as error:
        field = error.path.removeprefix("action.")
        # It names a field it was given (or the unknown kind), or one it needs and lacks.
        assert (field in given_action) != error.message.startswith("missing"), error.path
        return
    assert action.to_dict() == given_action
    assert parse(action.to_dict(), "action") == action


def _noisy(choice: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The chosen action, sometimes with a field it does not take."""
    noisy = dict(choice)
    for field, value in (("card", "AS"), ("cards", ["2C"]), ("amount", 7)):
        if field not in noisy and rng.random() < 0.3:
            noisy[field] = value
    return noisy


async def test_fuzzed_play_stores_only_hands_that_replay(room: Room, db: Database) -> None:
    rng = random.Random(11)
    players = seated(room)
    watcher = room.players[0]
    for _hand in range(2):
        await watcher.wait_for(lambda p: p.hand is not None and p.hand.get("phase") != "over")
        for _ in range(300):
            hand = watcher.hand
            if hand is None or hand.get("phase") == "over":
                break
            player = players[hand["to_act"][0]]
            await player.wait_for(lambda p, v=watcher.version: p.version >= v)
            legal = (player.hand or {}).get("legal_actions") or []
            # Modest play, so that nobody goes broke before the second hand.
            choice = dict(rng.choice([a for a in legal if a["action"] != "all_in"] or legal))
            if "min" in choice:
                choice["amount"] = choice.pop("min")
                choice.pop("max")
            noisy = _noisy(choice, rng)
            before, errors = player.version, len(player.errors())
            await player.act(noisy)
            await player.wait_for(
                lambda p, v=before, e=errors: p.version > v or len(p.errors()) > e
            )
            if len(player.errors()) > errors:
                assert noisy != choice and player.errors()[-1]["code"] == "invalid_message"
                await player.act(choice)
                await player.wait_for(lambda p, v=before: p.version > v)
            assert not [e for e in player.errors()[errors:] if e["code"] != "invalid_message"]
            for other in players.values():
                await other.wait_for(lambda p, v=player.version: p.version >= v)
        await watcher.wait_for(lambda p: p.hand is None)
        await room.clock.advance(3)
    async with db.transaction() as session:
        hands = list((await session.scalars(select(Hand).where(Hand.running.is_(False)))).all())
    assert len(hands) >= 2
    for hand in hands:
        assert hand.entry is not None
        document = {**hand.header, "hands": [hand.entry]}
        result = table_log.replay(document)
        assert result["hands"], result
