"""Hands played live for the hand-history tests: a real server, real sockets, random play."""

from __future__ import annotations

import random
from typing import Any

from tests.tables.harness import Player, Room, play_until_over, seated

TABLES: dict[str, dict[str, Any]] = {
    "bourre": {
        "name": "History B",
        "game": "bourre",
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
    },
    "bouillotte": {
        "name": "History O",
        "game": "bouillotte",
        "seat_count": 4,
        "buy_in_min": 100,
        "buy_in_max": 100,
    },
}
NAMES = ["ana", "bob", "cyd", "dee"]


async def open_sockets(players: list[Player], table_id: int) -> None:
    for player in players:
        await player.open(table_id)
        await player.wait_for(lambda p: p.snapshot is not None)


async def play_hands(
    room: Room, count: int, rng: random.Random, watchers: list[Player] | None = None
) -> None:
    """Deal and play `count` hands at random; everyone (and the watchers) sees each end.
    Whoever lost every chip buys again so that the game goes on."""
    everyone = [*room.players, *(watchers or [])]
    first = room.players[0].view.get("last_result") or {}
    start = int(first.get("number", 0))
    for number in range(start + 1, start + count + 1):
        await room.clock.advance(3)
        await room.players[0].wait_for(
            lambda p, n=number: (
                (p.hand or {}).get("number") == n
                or (p.view.get("last_result") or {}).get("number") == n
            )
        )
        players = seated(room)
        await play_until_over(players, rng)
        for player in everyone:
            await player.wait_for(
                lambda p, n=number: (p.view.get("last_result") or {}).get("number") == n
            )
        for seat in room.players[0].view["seats"]:
            if seat["stack"] == 0:
                rebuy = await players[seat["seat"]].post(
                    f"/api/tables/{room.table_id}/top-up",
                    {"amount": 100, "request_key": f"rebuy-{number}-{seat['seat']}"},
                )
                assert rebuy.status_code == 200, rebuy.text
