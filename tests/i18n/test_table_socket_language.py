"""The table's socket speaks its member's language: real Uvicorn, real WebSocket clients.
A refusal is sent to the one connection that asked, in its own language, while everyone at
the table shares the same language-free events."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.config import Settings
from app.db.session import Database
from tests.tables.harness import Player, Room, deal, open_room

# What each may be told for the same illegal action (a card played while the table waits
# for declarations): out of turn, or not the time for it.
SAID = {
    "en": {
        "not_your_turn": "It is not your turn.",
        "wrong_phase": "You cannot do that now: it is time to Play / Pass.",
    },
    "ru": {
        "not_your_turn": "Сейчас не ваш ход.",
        "wrong_phase": "Сейчас так нельзя: сейчас время для: Играю / Пас.",
    },
}


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Babel",
        "game": "bourre",
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
    }
    async with open_room(settings, db, table, ["olga", "emma"], buy_in=100) as room:
        yield room


async def _refusal(player: Player) -> dict[str, Any]:
    await player.act({"action": "card", "card": "2C"})
    await player.wait_for(lambda p: bool(p.errors()))
    return player.errors()[-1]


async def test_each_member_hears_a_refusal_in_their_language(room: Room) -> None:
    olga, emma = room.players
    # Olga chooses Russian on her account (the menu's cookie forgotten: the account speaks).
    chosen = await olga.http.post(
        "/language", data={"language": "ru", "csrf_token": olga.http.cookies["salon_csrf"]}
    )
    assert chosen.status_code == 303, chosen.text
    olga.http.cookies.delete("salon_language")
    for player in room.players:
        await player.open(room.table_id)
        await player.wait_for(lambda p: p.snapshot is not None)
    await deal(room)

    for player, language in ((olga, "ru"), (emma, "en")):
        error = await _refusal(player)
        assert error["code"] in SAID[language], error
        assert error["message"] == SAID[language][error["code"]], error
        assert error["ref"]
    # The table's events reached both alike: the same versions, no sentence of Salon's.
    assert olga.version == emma.version


async def test_a_new_language_reaches_the_next_socket(room: Room) -> None:
    emma = room.players[1]
    await emma.open(room.table_id)
    await emma.wait_for(lambda p: p.snapshot is not None)
    await emma.send({"type": "nonsense"})
    await emma.wait_for(lambda p: bool(p.errors()))
    assert emma.errors()[-1]["message"].startswith("Invalid message")
    await emma.close()

    chosen = await emma.http.post(
        "/language", data={"language": "ru", "csrf_token": emma.http.cookies["salon_csrf"]}
    )
    assert chosen.status_code == 303
    emma.frames.clear()
    await emma.open(room.table_id)
    await emma.wait_for(lambda p: p.snapshot is not None)
    await emma.send({"type": "nonsense"})
    await emma.wait_for(lambda p: bool(p.errors()))
    error = emma.errors()[-1]
    assert error["code"] == "invalid_message"
    assert error["message"].startswith("Неверное сообщение"), error
