"""A stored hand dealt again through the engine, as the table dealt it.

The hand's seed, its table-log header and what the table carried into it (button,
exemptions, who sat out) deal exactly the hand that was played; its stored actions then
replay it step by step (see `hand_steps`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engine.base import Action
from app.engine.rng import seed_from_hex
from app.tables.games import LiveHand, driver


def deal_stored(header: Mapping[str, Any], players: Mapping[str, Any], seed_hex: str) -> LiveHand:
    """The stored hand, dealt and not yet played (as `TableActor._restore` deals it)."""
    game = driver(str(header["game"]))
    stacks = [int(s["stack"]) for s in header["seats"]]
    return game.deal(
        game.parse_rules(header.get("rules", {})),
        stacks,
        int(header.get("pot", 0)),
        players.get("state", {}),
        seed_from_hex(seed_hex),
        players.get("sitting_out", []),
    )


def action_from_log(data: Mapping[str, Any]) -> Action:
    """An action in its table-log form, as the engine takes it."""
    cards = data.get("cards")
    return Action(
        int(data["seat"]),
        str(data["action"]),
        card=data.get("card"),
        cards=tuple(cards) if cards is not None else None,
        amount=data.get("amount"),
    )
