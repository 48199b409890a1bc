"""Group commit: many tables' actions in one write, each caller answered only once its
action is committed, a bad row failing alone, a cancelled caller's action still stored."""

from __future__ import annotations

import asyncio
import gc

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError

from app.db.models import HandAction, User
from app.db.session import Database
from app.services import fencing
from app.services import hands as hand_store
from app.services.action_writer import ActionRecord, ActionWriter
from app.services.action_writer import _settle as settle
from tests.helpers import found_club, open_bourre_table

TABLES = 6


async def hands_at_tables(db: Database, count: int) -> list[int]:
    """`count` tables with a hand running at each: the hands' ids."""
    owner_id = await found_club(db)
    hand_ids = []
    async with db.transaction() as session:
        owner = await session.get(User, owner_id)
        assert owner is not None
        for n in range(count):
            table = await open_bourre_table(session, owner, f"Table {n}")
            hand_id = await hand_store.begin_hand(
                session,
                table_id=table.id,
                number=1,
                seed_hex="00" * 32,
                commitment="11" * 32,
                header={},
                players={},
                version=1,
            )
            hand_ids.append(hand_id)
    return hand_ids


def played(hand_id: int, seq: int, client_id: str | None = None) -> ActionRecord:
    action = {"seat": seq % 4, "action": "card", "card": "AS"}
    return ActionRecord(hand_id, seq, action, client_id, None, seq + 1)


async def stored(db: Database) -> list[tuple[int, int]]:
    async with db.transaction() as session:
        rows = await session.execute(select(HandAction.hand_id, HandAction.seq))
        return sorted((hand_id, seq) for hand_id, seq in rows.all())


async def test_actions_of_many_tables_share_a_commit_and_each_is_stored_on_return(
    db: Database,
) -> None:
    hand_ids = await hands_at_tables(db, TABLES)
    writer = ActionWriter(db)

    async def table(hand_id: int) -> None:
        for seq in range(1, 6):
            await writer.store(played(hand_id, seq))
            # Told it is stored: it is in the database, whatever the other tables do.
            async with db.transaction() as session:
                count = await session.scalar(
                    select(func.count())
                    .select_from(HandAction)
                    .where(HandAction.hand_id == hand_id, HandAction.seq == seq)
                )
            assert count == 1

    await asyncio.gather(*(table(h) for h in hand_ids))
    await writer.close()
    assert await stored(db) == sorted((h, s) for h in hand_ids for s in range(1, 6))
    figures = writer.figures
    assert figures.actions == TABLES * 5
    # The six tables hand their first actions over in the same moment: fewer commits.
    assert figures.largest_write > 1
    assert figures.writes < figures.actions


async def test_a_row_that_cannot_be_stored_fails_alone(db: Database) -> None:
    first, second = await hands_at_tables(db, 2)
    writer = ActionWriter(db)
    await writer.store(played(first, 1))
    results = await asyncio.gather(
        writer.store(played(first, 1)),  # seq 1 is taken: refused by the unique key
        writer.store(played(second, 1)),
        writer.store(played(first, 2)),
        return_exceptions=True,
    )
    assert results[0] is not None and isinstance(results[0], Exception)
    assert results[1:] == [None, None]
    await writer.close()
    assert await stored(db) == sorted([(first, 1), (first, 2), (second, 1)])


async def test_a_caller_cancelled_while_waiting_does_not_cancel_the_write(db: Database) -> None:
    (hand_id,) = await hands_at_tables(db, 1)
    writer = ActionWriter(db)
    waiting = asyncio.create_task(writer.store(played(hand_id, 1)))
    await asyncio.sleep(0)  # handed over; the write has begun
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await writer.close()
    assert await stored(db) == [(hand_id, 1)]


async def test_a_lost_connection_fails_its_write_and_the_next_write_opens_another(
    pg_db: Database,
) -> None:
    (hand_id,) = await hands_at_tables(pg_db, 1)
    writer = ActionWriter(pg_db)
    await writer.store(played(hand_id, 1))
    async with pg_db.transaction() as session:  # what a restarted database does to it
        await session.execute(
            text(
                "select pg_terminate_backend(pid) from pg_stat_activity "
                "where datname = current_database() and pid <> pg_backend_pid()"
            )
        )
    with pytest.raises(DBAPIError):
        await writer.store(played(hand_id, 2))
    await writer.store(played(hand_id, 2))
    await writer.close()
    assert await stored(pg_db) == [(hand_id, 1), (hand_id, 2)]


async def test_a_refusal_for_a_moved_table_no_one_waits_for_is_not_reported_lost() -> None:
    """The actor of a table that moved may have let it go before its write was refused:
    that refusal is read by the writer, not logged by asyncio as an exception no one saw;
    any other failure no one waited for still is."""
    loop = asyncio.get_running_loop()
    reported: list[str] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reported.append(context["message"]))
    try:
        for error in (fencing.TableMoved(7), RuntimeError("disk on fire")):
            done: asyncio.Future[None] = loop.create_future()
            settle(done, error)
            await asyncio.sleep(0)  # the done callbacks run
            del done
            gc.collect()
    finally:
        loop.set_exception_handler(previous)
    assert reported == ["Future exception was never retrieved"]
