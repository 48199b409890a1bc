"""Chat moderation at a live table, over real WebSockets: an admin who does not sit there
reads the chat, removes a line (every page replaces it at once, and a reload shows it
removed), and mutes a member (their lines are refused, saying until when). And a close
that waits for the hand to end is logged when it happens."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import datetime

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import AdminAction
from app.db.session import Database
from app.services.moderation import REMOVED_TEXT
from tests.tables.harness import Player, Room, deal, open_room, play_until_over, seated, watch

TABLE = {
    "name": "Moderated",
    "game": "bourre",
    "seat_count": 4,
    "buy_in_min": 20,
    "buy_in_max": 200,
    "turn_seconds": 30,
}


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    async with open_room(settings, db, TABLE, ["ana", "bob"], buy_in=100) as room:
        await watch(room)
        yield room


def chats(player: Player) -> list[dict[str, object]]:
    return [f for f in player.frames if f["type"] == "chat"]


async def member_id(room: Room, username: str) -> int:
    listed = (await room.owner.http.get("/api/admin/members")).json()
    return int(next(m["id"] for m in listed if m["username"] == username))


async def test_an_admin_removes_a_line_for_everyone_at_once(room: Room, db: Database) -> None:
    ana, bob = room.players
    await ana.send({"type": "chat", "text": "something rude"})
    await bob.wait_for(lambda p: len(chats(p)) == 1)
    line = chats(bob)[0]

    # The admin reads the chat of a table they do not sit at.
    read = await room.owner.http.get(f"/api/admin/tables/{room.table_id}/chat")
    assert read.status_code == 200
    assert [(c["id"], c["text"], c["username"]) for c in read.json()] == [
        (line["id"], "something rude", "ana")
    ]

    removed = await room.owner.post(f"/api/admin/chat/{line['id']}/remove")
    assert removed.status_code == 200, removed.text
    for player in (ana, bob):
        await player.wait_for(lambda p: len(chats(p)) == 2)
        replaced = chats(player)[-1]
        assert replaced["id"] == line["id"]
        assert replaced["removed"] is True
        assert replaced["text"] == REMOVED_TEXT

    # A reload: the page opened afresh gets the line as removed, never its words.
    await bob.close()
    bob.frames.clear()
    await bob.open(room.table_id)
    await bob.wait_for(lambda p: len(chats(p)) == 1)
    assert chats(bob)[0]["id"] == line["id"]
    assert chats(bob)[0]["text"] == REMOVED_TEXT and chats(bob)[0]["removed"] is True
    assert "something rude" not in str(bob.frames)

    # The admins still read what was said, and who removed it; the log has one row.
    again = (await room.owner.http.get(f"/api/admin/tables/{room.table_id}/chat")).json()
    assert again[0]["text"] == "something rude" and again[0]["removed_by"] == "owner"
    twice = await room.owner.post(f"/api/admin/chat/{line['id']}/remove")
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "chat_line_removed"
    async with db.transaction() as session:
        rows = (
            await session.scalars(select(AdminAction).where(AdminAction.action != "table.open"))
        ).all()
    assert [(r.action, r.before, r.after) for r in rows] == [
        (
            "chat.remove",
            {"text": "something rude", "table_id": room.table_id, "author": "ana"},
            {"text": REMOVED_TEXT},
        )
    ]


async def test_a_muted_member_is_refused_until_unmuted(room: Room) -> None:
    ana, bob = room.players
    ana_id = await member_id(room, "ana")
    muted = await room.owner.post("/api/admin/chat/mute", {"member_id": ana_id, "minutes": 90})
    assert muted.status_code == 200, muted.text
    until = muted.json()["muted_until"]

    await ana.send({"type": "chat", "text": "can I speak?"})
    await ana.wait_for(lambda p: bool(p.errors()))
    refusal = ana.errors()[-1]
    assert refusal["code"] == "chat_muted"
    # How long is left, which reads the same in every time zone; the instant is in details.
    assert refusal["message"] == "An admin muted you in the chat: you may chat again in 90 minutes."
    said = datetime.fromisoformat(str(refusal["details"]["until"]))  # type: ignore[index]
    assert said == datetime.fromisoformat(until.replace("Z", "+00:00"))

    # Bob still speaks, and nobody ever got Ana's line.
    await bob.send({"type": "chat", "text": "I can"})
    await ana.wait_for(lambda p: len(chats(p)) == 1)
    assert [c["text"] for c in chats(ana)] == ["I can"]
    assert "can I speak?" not in str(bob.frames)

    unmuted = await room.owner.post("/api/admin/chat/unmute", {"member_id": ana_id})
    assert unmuted.status_code == 200
    await ana.send({"type": "chat", "text": "thank you"})
    await bob.wait_for(lambda p: len(chats(p)) == 2)
    assert chats(bob)[-1]["text"] == "thank you"


async def test_mutes_are_checked(room: Room) -> None:
    ana_id = await member_id(room, "ana")
    too_long = await room.owner.post(
        "/api/admin/chat/mute", {"member_id": ana_id, "minutes": 31 * 24 * 60}
    )
    assert too_long.status_code == 422
    owner_id = await member_id(room, "owner")
    self_mute = await room.owner.post("/api/admin/chat/mute", {"member_id": owner_id, "minutes": 5})
    assert self_mute.status_code == 403
    not_muted = await room.owner.post("/api/admin/chat/unmute", {"member_id": ana_id})
    assert not_muted.status_code == 409 and not_muted.json()["error"]["code"] == "not_muted"


async def test_a_close_delayed_by_a_hand_is_logged_when_it_happens(
    room: Room, db: Database
) -> None:
    """Closing during a hand only marks the table closing; the audit row is written with
    the close itself, in its transaction, under the name of the admin who asked."""
    await deal(room)
    asked = await room.owner.post(f"/api/tables/{room.table_id}/close")
    assert asked.json()["status"] == "closing"
    assert await closes(db) == []
    await play_until_over(seated(room), random.Random(14))
    for player in room.players:
        await player.wait_for(
            lambda p: any(f["type"] == "event" and f["kind"] == "closed" for f in p.frames)
        )
    rows = await closes(db)
    assert [(r.actor_id, r.before, r.after) for r in rows] == [
        (await member_id(room, "owner"), {"status": "open"}, {"status": "closed"})
    ]


async def closes(db: Database) -> list[AdminAction]:
    async with db.transaction() as session:
        query = select(AdminAction).where(AdminAction.action == "table.close")
        return list((await session.scalars(query)).all())
