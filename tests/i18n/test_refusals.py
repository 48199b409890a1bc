"""Refusals in the caller's language: an API's errors (their codes unchanged), the generic
answers of the app's error handlers, and the engines' refusals, whose sentences are made
outside the engine from each code and its parameters."""

# ruff: noqa: RUF001 - Russian and Greek sentences, as meant

from __future__ import annotations

import ast
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import update

from app.db.models import User
from app.db.session import Database
from app.engine.base import Action, EngineError
from app.engine.bouillotte.state import BouillotteHand
from app.i18n import use_language
from app.tables.refusal_words import SENTENCES, refusal_sentence
from tests.engine.bouillotte import helpers as bouillotte
from tests.engine.bouillotte.test_betting import FOUR
from tests.engine.helpers import refused
from tests.engine.test_tricks import FOLLOW, _tricks
from tests.helpers import add_member, found_club, logged_in_client, post

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    """These tests switch the language of the test's own context: put English back."""
    yield None
    use_language("en")


async def _speaking(
    app: FastAPI, db: Database, name: str, language: str | None
) -> httpx.AsyncClient:
    await add_member(db, name)
    async with db.transaction() as session:
        await session.execute(update(User).where(User.username == name).values(language=language))
    return await logged_in_client(app, name)


async def test_an_api_refusal_speaks_the_callers_language(app: FastAPI, db: Database) -> None:
    await found_club(db)
    said = {
        "fa": "میزی با شناسهٔ 424242 نیست.",
        "ru": "Нет стола с номером 424242.",
        None: "No table with id 424242.",
    }
    for n, (language, sentence) in enumerate(said.items()):
        client = await _speaking(app, db, f"member{n}", language)
        answer = await client.get("/api/tables/424242")
        await client.aclose()
        assert answer.status_code == 404
        error = answer.json()["error"]
        assert (error["code"], error["message"]) == ("table_not_found", sentence)


async def test_the_error_handlers_answer_in_the_browsers_language(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    nowhere = await client.get("/api/nowhere", headers={"accept-language": "ru"})
    assert nowhere.status_code == 404
    assert nowhere.json()["error"]["code"] == "not_found"
    assert nowhere.json()["error"]["message"] == "По этому адресу ничего нет."
    english = await client.get("/api/nowhere")
    assert english.json()["error"]["message"] == "There is nothing at this address."
    # A body refused before any route ran: the field and the problem, in Persian words.
    refused_body = await client.post(
        "/api/auth/login", content=b"[]", headers={"accept-language": "fa"}
    )
    error = refused_body.json()["error"]
    assert refused_body.status_code in (403, 422), refused_body.text
    assert error["code"] in ("invalid_input", "csrf_failed", "forbidden")
    assert not error["message"].isascii(), error


def _engine_codes() -> set[str]:
    """Every code an engine refuses with, read from the engines' source: the first argument
    of each `EngineError(...)`, and the code given to a helper that builds one."""
    codes: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id == "EngineError":
                arguments = node.args[:1]
            elif any(
                isinstance(found, ast.Call)
                and isinstance(found.func, ast.Name)
                and found.func.id == "EngineError"
                for found in ast.walk(_definition(path, node.func.id))
            ):
                arguments = node.args[1:2]  # a helper: (message, code)
            else:
                continue
            for argument in arguments:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    codes.add(argument.value)
    return codes


def _definition(path: Path, name: str) -> ast.AST:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return ast.Module(body=[], type_ignores=[])


def test_every_engine_refusal_code_has_a_sentence() -> None:
    codes = _engine_codes()
    assert {"must_follow_suit", "bet_out_of_range", "not_your_turn", "too_many_players"} <= codes
    assert codes - set(SENTENCES) == set()


def test_a_code_without_a_sentence_keeps_the_engines_message() -> None:
    use_language("ru")
    error = EngineError("some_new_refusal", "A sentence in English.")
    assert refusal_sentence(error) == "A sentence in English."


def test_bourre_refusals_are_said_with_the_games_words() -> None:
    hand = _tricks(FOLLOW)
    hand.apply(Action(0, "card", card="9H"))
    follow = refused(hand, Action(1, "card", card="3S"))
    beat = refused(hand, Action(1, "card", card="8H"))
    said = {
        "en": ("You hold hearts: you must follow suit.", "You must beat the 9♥: play Q♥."),
        "ru": ("У вас есть червы: нужно ходить в масть.", "Нужно перебить 9♥: сыграйте Q♥."),
        "fr": (
            "Vous avez du cœur : vous devez fournir.",
            "Vous devez monter sur le 9♥ : jouez Q♥.",
        ),
    }
    for language, (follow_words, beat_words) in said.items():
        use_language(language)
        assert refusal_sentence(follow) == follow_words
        assert refusal_sentence(beat) == beat_words


def test_bouillotte_bets_are_refused_with_their_bounds() -> None:
    hand: BouillotteHand = bouillotte.start(FOUR, "9S", stacks=[100, 100, 100, 100])
    bouillotte.play(hand, "2 straddle, 1 decline")
    low = bouillotte.refused(hand, Action(1, "open", amount=5))
    high = bouillotte.refused(hand, Action(1, "open", amount=101))
    use_language("el")
    assert refusal_sentence(low) == "Το μικρότερο άνοιγμα είναι 6."
    assert refusal_sentence(high) == "Μπορείτε να ανοίξετε το πολύ με 100, όλη την κάβα σας."
    use_language("fa")
    assert refusal_sentence(low) == "کوچک‌ترین شرط باز کردن 6 است."


async def test_a_games_buy_in_rule_is_said_in_the_admins_language(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    async with db.transaction() as session:
        await session.execute(update(User).where(User.username == "owner").values(language="ru"))
    owner = await logged_in_client(app, "owner")
    table = {"name": "Salon", "game": "bouillotte", "seat_count": 4}
    refused_table = await post(owner, "/api/tables", {**table, "buy_in_min": 5, "buy_in_max": 9})
    await owner.aclose()
    assert refused_table.status_code == 422, refused_table.text
    error = refused_table.json()["error"]
    assert error["code"] == "invalid_buy_in"
    assert error["message"].startswith("В буйотте у всех одинаковый кав: вход — ")


async def test_a_refused_configuration_names_its_option_in_the_admins_language(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    async with db.transaction() as session:
        await session.execute(update(User).where(User.username == "owner").values(language="ru"))
    owner = await logged_in_client(app, "owner")
    options = {"game": "bourre", "name": "X", "options": {"ante": 0}}
    refused_rules = await post(owner, "/api/admin/rulesets", options)
    await owner.aclose()
    assert refused_rules.status_code == 422, refused_rules.text
    error = refused_rules.json()["error"]
    assert (error["code"], error["details"]["field"]) == ("invalid_rules", "ante")
    assert error["message"].startswith("Анте: нужно целое число от 1 фишка до "), error
