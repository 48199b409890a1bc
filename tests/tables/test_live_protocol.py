"""What the live table does with every kind of frame, good and bad."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.config import Settings
from app.db.models import ChatMessage
from app.db.session import Database
from tests.tables.harness import Player, Room, open_room

NAMES = ["ana", "bob", "cyd", "dee"]


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Protocol",
        "game": "bourre",
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
        "turn_seconds": 30,
    }
    async with open_room(settings, db, table, NAMES, buy_in=100) as room:
        for player in room.players:
            await player.open(room.table_id)
            await player.wait_for(lambda p: p.snapshot is not None)
        await room.clock.advance(3)
        for player in room.players:
            await player.wait_for(lambda p: p.hand is not None)
        yield room


def to_act(room: Room) -> tuple[Player, list[Player]]:
    hand = room.players[0].hand
    assert hand is not None
    seat = hand["to_act"][0]
    return room.players[seat], [p for n, p in enumerate(room.players) if n != seat]


async def next_error(player: Player, before: int) -> dict[str, object]:
    await player.wait_for(lambda p: len(p.errors()) > before)
    return player.errors()[-1]


async def test_the_handshake_checks_session_and_origin(room: Room) -> None:
    url = f"ws://{room.host}/ws/tables/{room.table_id}"
    with pytest.raises(InvalidStatus) as no_cookie:
        await connect(url, origin=f"http://{room.host}")  # type: ignore[arg-type]
    assert no_cookie.value.response.status_code == 403
    cookie = "; ".join(f"{k}={v}" for k, v in room.players[0].http.cookies.items())
    with pytest.raises(InvalidStatus) as bad_origin:
        await connect(url, additional_headers={"Cookie": cookie}, origin="http://evil.example")  # type: ignore[arg-type]
    assert bad_origin.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as no_table:
        await connect(
            f"ws://{room.host}/ws/tables/999",
            additional_headers={"Cookie": cookie},
            origin=f"http://{room.host}",  # type: ignore[arg-type]
        )
    assert no_table.value.response.status_code == 403


async def test_bad_frames_are_answered_and_change_nothing(room: Room) -> None:
    actor, _ = to_act(room)
    version = actor.version
    for raw, code in [
        ("{not json", "malformed_json"),
        ('{"type":"shout"}', "invalid_message"),
        ('{"type":"action","id":"x1","action":"play","amount":-3}', "invalid_message"),
    ]:
        before = len(actor.errors())
        assert actor.ws is not None
        await actor.ws.send(raw)
        assert (await next_error(actor, before))["code"] == code
    assert actor.version == version
    # Acting still works after all that.
    await actor.act({"action": "pass"})
    await actor.wait_for(lambda p: p.version > version)


async def test_out_of_turn_illegal_stale_and_repeated_actions(room: Room) -> None:
    actor, others = to_act(room)
    waiting = others[0]
    version = actor.version
    before = len(waiting.errors())
    await waiting.act({"action": "play"})
    error = await next_error(waiting, before)
    assert error["code"] == "not_your_turn" and str(error["ref"]).startswith("a")

    before = len(actor.errors())
    await actor.act({"action": "card", "card": actor.hand["hand"][0]})  # type: ignore[index]
    assert (await next_error(actor, before))["code"] == "wrong_phase"
    assert actor.version == version

    # The same client id twice: applied once.
    message = {"type": "action", "id": "same-id-1", "action": "play", "version": version}
    await actor.send(message)
    await actor.wait_for(lambda p: p.version > version)
    applied = actor.version
    await actor.send(message)
    await actor.send({"type": "ping"})
    await actor.wait_for(lambda p: p.frames[-1]["type"] == "pong")
    assert actor.version == applied
    assert len([e for e in actor.errors() if e.get("ref") == "same-id-1"]) == 0

    # An action decided on an older view is refused as stale.
    now_to_act, _ = to_act(room)
    await now_to_act.wait_for(lambda p: p.version >= applied)
    before = len(now_to_act.errors())
    await now_to_act.send({"type": "action", "id": "late-1", "action": "pass", "version": version})
    assert (await next_error(now_to_act, before))["code"] == "stale_version"
    assert now_to_act.version == applied


async def test_two_players_acting_at_once(room: Room) -> None:
    actor, others = to_act(room)
    version = actor.version
    errors_before = len(others[0].errors())
    await asyncio.gather(actor.act({"action": "pass"}), others[0].act({"action": "pass"}))
    await actor.wait_for(lambda p: p.version > version)
    error = await next_error(others[0], errors_before)
    assert error["code"] in ("not_your_turn", "stale_version")
    hand = actor.hand
    assert hand is not None
    assert [s["status"] for s in hand["seats"]].count("passed") == 1


async def test_an_oversized_frame_closes_the_socket_with_1009(room: Room) -> None:
    actor, others = to_act(room)
    hand = others[0].hand
    assert actor.ws is not None
    await actor.ws.send('{"type":"chat","text":"' + "x" * 5000 + '"}')
    await actor.wait_for(lambda p: any(e["code"] == "frame_too_large" for e in p.errors()))
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            await actor.ws.send('{"type":"ping"}')
            await asyncio.sleep(0.02)
    assert actor.ws.close_code == 1009
    # The game did not notice (the others only see that seat go offline).
    await others[0].wait_for(lambda p: not p.view["seats"][room.players.index(actor)]["connected"])
    assert others[0].hand == hand


async def test_a_flood_is_throttled_then_cut_off(room: Room) -> None:
    actor, others = to_act(room)
    hand = others[0].hand
    assert actor.ws is not None
    with pytest.raises(ConnectionClosed):
        for _ in range(200):
            await actor.ws.send('{"type":"ping"}')
        await asyncio.sleep(0.5)
        await actor.ws.send('{"type":"ping"}')
        await asyncio.wait_for(actor.ws.wait_closed(), 5)
        await actor.ws.send('{"type":"ping"}')
    assert actor.ws.close_code == 1008
    assert any(e["code"] == "rate_limited" for e in actor.errors())
    await others[0].wait_for(lambda p: not p.view["seats"][room.players.index(actor)]["connected"])
    assert others[0].hand == hand


async def test_reconnecting_mid_hand_catches_up(room: Room) -> None:
    away = room.players[3]
    last_seen = away.version
    await away.close()
    for _ in range(2):
        actor, _ = to_act(room)
        if actor is away:
            break
        before = actor.version
        await actor.act({"action": "play"})
        await actor.wait_for(lambda p, v=before: p.version > v)
    back = Player(room.host, away.username)
    back.http = away.http
    await back.open(room.table_id, version=last_seen)
    await back.wait_for(lambda p: p.snapshot is not None)
    missed = [f for f in back.frames if f["type"] == "event"]
    assert missed and all(f["version"] > last_seen for f in missed)
    assert back.version == room.players[0].version
    assert back.hand is not None and back.hand["viewer"] == 3 and len(back.hand["hand"]) == 5
    # An explicit resync from a version long gone gets a plain snapshot.
    snapshots = len([f for f in back.frames if f["type"] == "snapshot"])
    await back.send({"type": "resync", "version": 0})
    await back.wait_for(lambda p: len([f for f in p.frames if f["type"] == "snapshot"]) > snapshots)
    await back.close()


async def test_spectators_see_no_private_card(room: Room) -> None:
    await room.owner.open(room.table_id)
    await room.owner.wait_for(lambda p: p.snapshot is not None)
    hand = room.owner.hand
    assert hand is not None
    assert room.owner.view["you"]["seat"] is None
    assert "hand" not in hand and "legal_actions" not in hand
    held = {card for p in room.players for card in (p.hand or {}).get("hand", [])}
    text = str(room.owner.frames)
    assert not [card for card in held if f"'{card}'" in text and card != hand["turned_card"]]


async def test_chat_is_stored_broadcast_and_rate_limited(room: Room, db: Database) -> None:
    speaker, listeners = room.players[0], room.players[1:]
    await speaker.send({"type": "chat", "text": "<b>bonsoir</b> à tous"})
    for listener in listeners:
        await listener.wait_for(lambda p: any(f["type"] == "chat" for f in p.frames))
    chat = next(f for f in listeners[0].frames if f["type"] == "chat")
    assert chat["text"] == "<b>bonsoir</b> à tous" and chat["user"] == "Ana"
    for n in range(6):
        await speaker.send({"type": "chat", "text": f"line {n}"})
    await speaker.wait_for(lambda p: any(e["code"] == "rate_limited" for e in p.errors()))
    async with db.transaction() as session:
        stored = await session.scalar(select(func.count()).select_from(ChatMessage))
    assert stored == 5  # the first line and four more: the sixth in ten seconds was refused


async def test_a_page_opened_later_gets_the_recent_chat_and_a_reconnect_does_not(
    room: Room,
) -> None:
    speaker, latecomer = room.players[0], room.players[1]
    await latecomer.close()
    for n in range(3):
        await speaker.send({"type": "chat", "text": f"line {n}"})
    await speaker.wait_for(lambda p: sum(f["type"] == "chat" for f in p.frames) == 3)
    seen = latecomer.version
    latecomer.frames.clear()
    await latecomer.open(room.table_id, version=seen)  # a reconnect: it has the chat already
    await latecomer.wait_for(lambda p: any(f["type"] == "snapshot" for f in p.frames))
    await latecomer.send({"type": "ping", "nonce": 7})
    await latecomer.wait_for(lambda p: any(f["type"] == "pong" for f in p.frames))
    assert not [f for f in latecomer.frames if f["type"] == "chat"]
    await latecomer.close()
    latecomer.frames.clear()
    await latecomer.open(room.table_id)  # a page opened afresh: the snapshot, then the chat
    await latecomer.wait_for(lambda p: sum(f["type"] == "chat" for f in p.frames) == 3)
    kinds = [f["type"] for f in latecomer.frames]
    assert kinds.index("snapshot") < kinds.index("chat")
    lines = [f["text"] for f in latecomer.frames if f["type"] == "chat"]
    assert lines == ["line 0", "line 1", "line 2"]
    assert {f["user"] for f in latecomer.frames if f["type"] == "chat"} == {"Ana"}


async def test_a_throttled_action_is_named_in_its_refusal(room: Room) -> None:
    """Past the soft limit actions are dropped with `rate_limited`; each refusal carries the
    id of the action it dropped, so the client knows which ones to send again."""
    _, others = to_act(room)
    sender = others[0]
    ids = [f"burst-{n}" for n in range(30)]
    for client_id in ids:
        await sender.send({"type": "action", "id": client_id, "action": "play"})
    await sender.wait_for(lambda p: any(e["code"] == "rate_limited" for e in p.errors()))
    await sender.wait_for(lambda p: len(p.errors()) == len(ids))
    limited = [e for e in sender.errors() if e["code"] == "rate_limited"]
    assert limited and {e["ref"] for e in limited} <= set(ids)
    # Every action got exactly one answer, and each refusal names a different action.
    assert sorted(e["ref"] for e in sender.errors()) == sorted(ids)
