"""Fencing in Postgres: once a new owner has raised a table's token, the former owner's
writes are refused — in a group commit only that table's action fails — and nothing of
them is stored."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from app.db.models import Hand, HandAction
from app.db.session import Database
from app.services import fencing
from app.services.action_writer import ActionRecord, ActionWriter
from tests.services.test_action_writer import hands_at_tables


async def table_of(db: Database, hand_id: int) -> int:
    async with db.transaction() as session:
        table_id = await session.scalar(select(Hand.table_id).where(Hand.id == hand_id))
    assert table_id is not None
    return int(table_id)


async def take(db: Database, table_id: int) -> int:
    async with db.transaction() as session:
        return await fencing.take(session, table_id)


def played(hand_id: int, table_id: int, fence: int | None, client_id: str) -> ActionRecord:
    action = {"seat": 0, "action": "card", "card": "AS"}
    return ActionRecord(hand_id, 1, action, client_id, None, 2, table_id, fence)


async def stored_ids(db: Database) -> set[str]:
    async with db.transaction() as session:
        return {c for c in (await session.scalars(select(HandAction.client_id))) if c}


async def test_each_take_raises_the_token_and_the_check_holds_only_the_newest(
    pg_db: Database,
) -> None:
    (hand_id,) = await hands_at_tables(pg_db, 1)
    table_id = await table_of(pg_db, hand_id)
    first = await take(pg_db, table_id)
    second = await take(pg_db, table_id)
    assert second == first + 1
    async with pg_db.transaction() as session:
        await fencing.check(session, table_id, second)
        assert await fencing.current(session, table_id) == second
    with pytest.raises(fencing.TableMoved) as refused:
        async with pg_db.transaction() as session:
            await fencing.check(session, table_id, first)
    assert refused.value.code == "table_moved"


async def test_a_former_owners_action_is_refused_and_its_group_neighbours_are_stored(
    pg_db: Database,
) -> None:
    stale_hand, fresh_hand = await hands_at_tables(pg_db, 2)
    stale_table = await table_of(pg_db, stale_hand)
    fresh_table = await table_of(pg_db, fresh_hand)
    old_token = await take(pg_db, stale_table)
    await take(pg_db, stale_table)  # another process took the table over
    fresh_token = await take(pg_db, fresh_table)

    writer = ActionWriter(pg_db)
    outcomes = await asyncio.gather(
        writer.store(played(stale_hand, stale_table, old_token, "stale")),
        writer.store(played(fresh_hand, fresh_table, fresh_token, "fresh")),
        return_exceptions=True,
    )
    await writer.close()
    assert isinstance(outcomes[0], fencing.TableMoved)
    assert outcomes[1] is None
    assert await stored_ids(pg_db) == {"fresh"}


async def test_a_single_process_carries_no_token_and_is_never_checked(pg_db: Database) -> None:
    (hand_id,) = await hands_at_tables(pg_db, 1)
    table_id = await table_of(pg_db, hand_id)
    await take(pg_db, table_id)  # even with a token in the row, None means "not fenced"
    writer = ActionWriter(pg_db)
    await writer.store(played(hand_id, table_id, None, "alone"))
    await writer.close()
    assert await stored_ids(pg_db) == {"alone"}
