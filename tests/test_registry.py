"""Every list of games in Salon is the registry's: a game added there is offered everywhere,
and nowhere else has to learn its name."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from sqlalchemy import Table

from app.api.schemas import TableCreate
from app.cli import build_parser
from app.db.models import GameTable
from app.engine import log as table_log
from app.engine import registry
from app.services import rule_words
from app.services.hand_text import GAME_TITLES

GAMES = list(registry.GAME_NAMES)
STATIC_JS = Path(__file__).parents[1] / "static" / "js"


def _subcommand(parser: argparse.ArgumentParser, *path: str) -> argparse.ArgumentParser:
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return parser


def _choices(parser: argparse.ArgumentParser, option: str) -> list[str]:
    action = next(a for a in parser._actions if option in a.option_strings)
    assert action.choices is not None
    return list(action.choices)


def test_the_registry_keys_each_driver_by_its_name() -> None:
    assert [game.name for game in registry.DRIVERS] == GAMES
    assert GAMES[0] == registry.DEFAULT_GAME
    for game in registry.DRIVERS:
        assert registry.driver(game.name) is game
        assert 2 <= game.min_seats <= game.max_seats <= table_log.MAX_SEATS
        assert game.title


@pytest.mark.parametrize("bench", ["engine", "live"])
def test_the_benchmarks_offer_the_registry_games(bench: str) -> None:
    parser = _subcommand(build_parser(), "bench", bench)
    assert _choices(parser, "--game") == GAMES
    assert parser.get_default("game") == registry.DEFAULT_GAME


def test_the_python_side_lists_are_the_registry() -> None:
    assert list(table_log.GAMES) == GAMES
    assert list(rule_words.GAMES) == GAMES
    assert {game.name: game.title for game in registry.DRIVERS} == GAME_TITLES
    table = GameTable.__table__
    assert isinstance(table, Table)
    constraint = next(c for c in table.constraints if "game_known" in str(c.name))
    assert str(getattr(constraint, "sqltext", "")) == f"game IN ({', '.join(map(repr, GAMES))})"


def _table(game: str) -> dict[str, Any]:
    return {"name": "T", "game": game, "seat_count": 4, "buy_in_min": 10, "buy_in_max": 10}


def test_a_table_is_opened_for_a_registry_game_only() -> None:
    for game in GAMES:
        assert TableCreate.model_validate(_table(game)).game == game
    with pytest.raises(ValidationError):
        TableCreate.model_validate(_table("chess"))


async def test_the_api_describes_and_accepts_exactly_the_registry_games(
    client: httpx.AsyncClient,
) -> None:
    described = (await client.get("/api/games")).json()
    assert [game["name"] for game in described] == GAMES
    for game, entry in zip(registry.DRIVERS, described, strict=True):
        assert entry["title"] == game.title
        assert (entry["min_seats"], entry["max_seats"]) == (game.min_seats, game.max_seats)
        assert entry["presets"] == game.preset_names()
        assert entry["buy_in_option"] == game.buy_in_option
    schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]
    for schema in ("TableCreate", "RuleSetCreate"):
        assert schemas[schema]["properties"]["game"]["enum"] == GAMES


def test_each_game_has_its_front_end_module() -> None:
    """The table and replay pages load `static/js/table/<key>.js` for a table's game."""
    for game in GAMES:
        module = (STATIC_JS / "table" / f"{game}.js").read_text()
        for export in ("SHORTCUT_LIST", "STAGES", "keepsTricks", "viewerOrder", "myArea"):
            assert re.search(rf"export (const|function) {export}\b", module), (game, export)


async def test_every_page_embeds_the_description_for_the_scripts(
    client: httpx.AsyncClient,
) -> None:
    page = (await client.get("/login")).text
    embedded = re.search(r'<script type="application/json" id="salon-games">(.*?)</script>', page)
    assert embedded is not None
    described = (await client.get("/api/games")).json()
    assert json.loads(embedded.group(1)) == described
