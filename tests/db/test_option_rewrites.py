"""A migration that drops or renames a house-rule option rewrites every stored copy of the
game's rules (saved configurations and tables), on both databases, so that they validate
again; other games' rows and rows that are not an object are left alone."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from app.db.models import GameTable, RuleSet, User
from app.db.option_rewrites import rewrite_rule_options, rewritten_options
from app.db.session import Database
from app.services import rulesets
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


async def test_the_stored_rules_follow_a_dropped_and_a_renamed_option(db: Database) -> None:
    await found_club(db)
    # As an older version stored them: `jokers` since dropped, `cinch` since renamed.
    old = await _stored(db, "bourre", "Old", {"ante": 2, "jokers": 1, "cinch": False})
    newer = await _stored(db, "bourre", "Both", {"cinch": False, "cinch_rule": True})
    not_an_object = await _stored(db, "bourre", "List", [])
    other_game = await _stored(db, "bouillotte", "Other", {"jokers": 1})
    async with db.transaction() as session:
        owner = await session.get(User, await session.scalar(select(User.id)))
        assert owner is not None
        table = await open_bourre_table(session, owner, "Tuesday")
        await session.execute(
            update(GameTable).where(GameTable.id == table.id).values(rules={"jokers": 3})
        )

    def migrate(connection: Connection) -> int:
        return rewrite_rule_options(
            connection, "bourre", rename={"cinch": "cinch_rule"}, drop=["jokers"]
        )

    async with db.engine.begin() as connection:
        assert await connection.run_sync(migrate) == 3

    async with db.transaction() as session:
        found = {r.id: r for r in (await session.scalars(select(RuleSet))).all()}
        table_rules = await session.scalar(select(GameTable.rules))
    assert found[old].options == {"ante": 2, "cinch_rule": False}
    assert rulesets.checked(found[old]).valid
    assert found[newer].options == {"cinch_rule": True}
    assert found[not_an_object].options == []
    assert found[other_game].options == {"jokers": 1}
    assert table_rules == {}


def test_an_option_is_renamed_or_dropped_not_both() -> None:
    assert rewritten_options({"a": 1, "b": 2}, {"a": "c"}, ["b"]) == {"c": 1}
    with pytest.raises(ValueError, match="either renamed or dropped"):
        rewrite_rule_options(None, "bourre", rename={"a": "b"}, drop=["a"])  # type: ignore[arg-type]
