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
from fastapi import FastAPI
from pydantic import ValidationError
from sqlalchemy import Table, select

from app.api.games import GAMES_DESCRIBED
from app.api.schemas import TableCreate
from app.cli import build_parser
from app.db.models import GameTable, RuleSet, User
from app.db.session import Database
from app.engine import log as table_log
from app.engine import registry, rng
from app.engine.cards import RANKS, make_card
from app.engine.driver import GameDriver
from app.errors import InvalidInput
from app.services import rule_words, rulesets, tables
from app.services.hand_text import GAME_TITLES
from app.services.rulesets import RuleSetDraft
from app.services.tables import TableSpec
from tests.helpers import found_club, logged_in_client, post

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


def test_the_database_leaves_the_games_to_the_registry() -> None:
    """No check lists the games, so a new one needs no migration (0012 dropped them)."""
    for model in (GameTable, RuleSet):
        table = model.__table__
        assert isinstance(table, Table)
        for constraint in table.constraints:
            text = str(getattr(constraint, "sqltext", ""))
            assert not any(game in text for game in GAMES), (table.name, text)


def _table(game: str) -> dict[str, Any]:
    return {"name": "T", "game": game, "seat_count": 4, "buy_in_min": 10, "buy_in_max": 10}


def test_a_table_is_opened_for_a_registry_game_only() -> None:
    for game in GAMES:
        assert TableCreate.model_validate(_table(game)).game == game
    with pytest.raises(ValidationError):
        TableCreate.model_validate(_table("chess"))


async def test_an_unknown_game_is_refused_with_its_code_and_nothing_is_written(
    app: FastAPI, db: Database
) -> None:
    owner_id = await found_club(db)
    owner = await logged_in_client(app, "owner")
    table = await post(owner, "/api/tables", _table("chess"))
    ruleset = await post(owner, "/api/admin/rulesets", {"game": "chess", "name": "Mine"})
    for refused in (table, ruleset):
        assert refused.status_code == 422
        error = refused.json()["error"]
        assert error["code"] == "invalid_input"
        assert [e["field"] for e in error["details"]["errors"]] == ["body.game"]
    # Below the API, the services refuse it too (the CLI and the pages call them).
    async with db.transaction() as session:
        user = await session.get(User, owner_id)
        assert user is not None
        spec = TableSpec(
            name="T", game="chess", rules={}, seat_count=4, buy_in_min=10, buy_in_max=10
        )
        with pytest.raises(InvalidInput) as opened:
            await tables.create_table(session, user, spec)
        assert opened.value.code == "unknown_game"
        with pytest.raises(InvalidInput) as saved:
            await rulesets.create_ruleset(
                session, user, RuleSetDraft(game="chess", name="Mine", options={})
            )
        assert saved.value.code == "unknown_game"
    async with db.transaction() as session:
        for model in (GameTable, RuleSet):
            assert (await session.scalars(select(model))).all() == []
    await owner.aclose()


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


def test_the_described_packs_are_the_ones_the_engines_deal_from() -> None:
    """The shuffle verifier (static/js/fair.js) deals from the packs GET /api/games
    describes: for every number of players, the cards each engine shuffles."""
    seed = bytes(range(32))
    for game, described in zip(registry.DRIVERS, GAMES_DESCRIBED, strict=True):
        assert sorted(described.packs) == list(range(game.min_seats, game.max_seats + 1))
        for players, ranks in described.packs.items():
            cards = sorted(make_card(RANKS.index(r), suit) for r in ranks for suit in range(4))
            assert tuple(cards) == game.packs[players]
            assert rng.shuffled(cards, seed, 0) == game.dealt_deck(seed, players)


@pytest.mark.parametrize("game", registry.DRIVERS, ids=GAMES)
def test_the_live_bench_opens_tables_its_game_accepts(game: GameDriver) -> None:
    bench = game.bench_table
    body = {**_table(game.name), "buy_in_min": bench.buy_in_min, "buy_in_max": bench.buy_in_max}
    assert TableCreate.model_validate({**body, "rules": dict(bench.rules)}).game == game.name
    rules = game.resolve_rules(None, bench.rules)
    assert bench.buy_in_min <= bench.buy_in <= bench.buy_in_max
    assert game.buy_in_rule(rules, bench.buy_in_min, bench.buy_in_max) is None
    # A robot whose chips are gone can always buy again, or its table would stop dealing.
    assert game.top_up_rule(rules, 0, bench.buy_in) is None


def test_the_games_are_named_in_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's and the API's one-line descriptions name every game."""
    assert registry.titles_said() == "Bourré and Bouillotte"
    for titles, said in ((["A"], "A"), (["A", "B", "C"], "A, B and C")):
        games = tuple(argparse.Namespace(title=title) for title in titles)
        monkeypatch.setattr(registry, "DRIVERS", games)
        assert registry.titles_said() == said
