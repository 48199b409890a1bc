"""Chat over a real table socket: every script is welcome, characters that hide or reorder
text are refused with a stable code, and what is stored and sent is the NFC form."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import ChatMessage
from app.db.session import Database
from tests.tables.harness import Player, Room, open_room

HIDDEN = ["\u202eevil", "Zero\u200bwidth", "\ufeffhello", "\u200b", "a\u2066b\u2069"]
WELCOME = ["مرحبا", "میز\u200cها", "Γεια σας", "Привет"]  # noqa: RUF001 (Arabic letters)
NFD, NFC = "Cafe\u0301 ?", "Café ?"


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {"name": "Chat", "game": "bourre", "seat_count": 2, "buy_in_min": 20, "buy_in_max": 200}
    async with open_room(settings, db, table, ["ana", "bob"], buy_in=100) as room:
        for player in room.players:
            await player.open(room.table_id)
            await player.wait_for(lambda p: p.snapshot is not None)
        yield room


def chat(player: Player) -> list[str]:
    return [f["text"] for f in player.frames if f["type"] == "chat"]


async def test_chat_text_is_checked_and_normalised(room: Room, db: Database) -> None:
    speaker, listener = room.players
    for n, text in enumerate(HIDDEN, start=1):
        await speaker.send({"type": "chat", "text": text})
        await speaker.wait_for(lambda p, n=n: len(p.errors()) == n)
    assert {e["code"] for e in speaker.errors()} == {"invalid_message"}
    for text in [*WELCOME, NFD]:  # five lines: the most ten seconds allow
        await speaker.send({"type": "chat", "text": text})
    await listener.wait_for(lambda p: len(chat(p)) == len(WELCOME) + 1)
    assert chat(listener) == [*WELCOME, NFC]
    async with db.transaction() as session:
        stored = (await session.scalars(select(ChatMessage.text).order_by(ChatMessage.id))).all()
    assert stored == [*WELCOME, NFC]
