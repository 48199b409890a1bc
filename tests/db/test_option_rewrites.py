"""A migration that drops, renames or narrows a house-rule option rewrites every stored
copy of the game's rules (saved configurations, tables, hands' headers), on both
databases, so that they validate again; other games' rows and rows that are not an object
are left alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from app.db.migrate import alembic_config
from app.db.models import GameTable, Hand, RuleSet, User
from app.db.option_rewrites import rewrite_rule_options, rewritten_options
from app.db.session import Database
from app.services import rulesets
from tests.databases import create_postgres_database, drop_postgres_database
from tests.helpers import found_club, open_bourre_table


async def _stored(db: Database, game: str, name: str, options: Any) -> int:
    async with db.transaction() as session:
        owner = await session.scalar(select(User.id))
        new_id = await session.scalar(
            insert(RuleSet)
            .values(game=game, name=name, description="", options=options, created_by_id=owner)
            .returning(RuleSet.id)
        )
    assert new_id is not None
    return new_id


async def _table_with_a_hand(db: Database, rules: dict[str, Any]) -> None:
    """A Bourré table holding ``rules`` and one hand dealt under them."""
    async with db.transaction() as session:
        owner = await session.get(User, await session.scalar(select(User.id)))
        assert owner is not None
        table = await open_bourre_table(session, owner, "Tuesday")
        await session.execute(update(GameTable).where(GameTable.id == table.id).values(rules=rules))
        header = {"game": "bourre", "rules": rules, "seats": [], "dealer": 0}
        session.add(
            Hand(
                table_id=table.id,
                number=1,
                seed="0" * 64,
                commitment="0" * 64,
                header=header,
                players={},
            )
        )


async def _set_rules(db: Database, rules: dict[str, Any]) -> None:
    """The table's rules and its hand's header's, as a version that stored them did."""
    header = {"game": "bourre", "rules": rules, "seats": [], "dealer": 0}
    async with db.transaction() as session:
        await session.execute(update(GameTable).values(rules=rules))
        await session.execute(update(Hand).values(header=header))


async def _table_and_hand_rules(db: Database) -> tuple[Any, Any]:
    async with db.transaction() as session:
        table_rules = await session.scalar(select(GameTable.rules))
        header = await session.scalar(select(Hand.header))
    assert header is not None
    assert {key: header[key] for key in ("game", "seats", "dealer")} == {
        "game": "bourre",
        "seats": [],
        "dealer": 0,
    }
    return table_rules, header["rules"]


async def test_the_stored_rules_follow_a_dropped_and_a_renamed_option(db: Database) -> None:
    await found_club(db)
    # As an older version stored them: `jokers` since dropped, `cinch` since renamed.
    old = await _stored(db, "bourre", "Old", {"ante": 2, "jokers": 1, "cinch": False})
    newer = await _stored(db, "bourre", "Both", {"cinch": False, "cinch_rule": True})
    not_an_object = await _stored(db, "bourre", "List", [])
    other_game = await _stored(db, "bouillotte", "Other", {"jokers": 1})
    await _table_with_a_hand(db, {"jokers": 3, "cinch": True})

    def migrate(connection: Connection) -> int:
        return rewrite_rule_options(
            connection, "bourre", rename={"cinch": "cinch_rule"}, drop=["jokers"]
        )

    async with db.engine.begin() as connection:
        assert await connection.run_sync(migrate) == 4

    async with db.transaction() as session:
        found = {r.id: r for r in (await session.scalars(select(RuleSet))).all()}
    assert found[old].options == {"ante": 2, "cinch_rule": False}
    assert rulesets.checked(found[old]).valid
    assert found[newer].options == {"cinch_rule": True}
    assert found[not_an_object].options == []
    assert found[other_game].options == {"jokers": 1}
    assert await _table_and_hand_rules(db) == ({"cinch_rule": True}, {"cinch_rule": True})


def test_one_row_renamed_dropped_and_capped() -> None:
    assert rewritten_options({"a": 1, "b": 2}, {"a": "c"}, ["b"]) == {"c": 1}
    assert rewritten_options({"a": 7, "b": True}, {}, cap={"a": 5, "b": 0}) == {"a": 5, "b": True}
    with pytest.raises(ValueError, match="either renamed or dropped"):
        rewrite_rule_options(None, "bourre", rename={"a": "b"}, drop=["a"])  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_migration_0016_lowers_values_above_the_new_maxima(
    tmp_path: Path, backend: str
) -> None:
    """Values a version without upper bounds accepted (a pot limit of 2**62, a renege
    penalty of 50 pots) are lowered to the maxima, so the rows validate, the table deals
    and its hands replay."""
    url = (
        f"sqlite+aiosqlite:///{tmp_path / 'maxima.db'}"
        if backend == "sqlite"
        else await asyncio.to_thread(create_postgres_database)
    )
    try:
        config = alembic_config(url)
        await asyncio.to_thread(command.upgrade, config, "head")
        db = Database(url, null_pool=True)
        # The club and its table are made by today's code on today's schema; the values
        # an older version let through are then written under that version's schema,
        # with statements that name only the columns it had.
        await found_club(db)
        await _table_with_a_hand(db, {})
        await asyncio.to_thread(command.downgrade, config, "0015")
        saved = await _stored(db, "bourre", "Old", {"pot_limit": 2**62, "renege_penalty": 50})
        await _set_rules(db, {"pot_limit": 2**62})
        await asyncio.to_thread(command.upgrade, config, "head")
        async with db.transaction() as session:
            ruleset = await session.get(RuleSet, saved)
            assert ruleset is not None
            assert ruleset.options == {"pot_limit": 1_000_000_000, "renege_penalty": 10}
            assert rulesets.checked(ruleset).valid
        capped = {"pot_limit": 1_000_000_000}
        assert await _table_and_hand_rules(db) == (capped, capped)
        await db.dispose()
    finally:
        if backend == "postgres":
            await asyncio.to_thread(drop_postgres_database, url)
