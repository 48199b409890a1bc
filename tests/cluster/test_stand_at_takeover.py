"""A stand stored just before another process takes the table over is answered as done.

Standing up at a table that fills its seats with bots is two transactions: the member's
seat is given up, then (nobody left to play with) the bots that filled the table leave. A
takeover between the two makes the second one refused (TableMoved). The stand is stored
all the same: answered "table moved, try again", a client tries it again and is told
`not_seated`. Real Uvicorn, real Postgres; the takeover is another process raising the
table's fencing token, done here by a trigger in the stand's own transaction, so that it
falls exactly between the two."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select, text

from app.config import Settings
from app.db.models import TableSeat
from app.db.session import Database
from app.main import create_app
from app.tables.clock import FakeClock
from app.tables.manager import TableManager
from tests.helpers import add_member, found_club
from tests.tables.harness import Player, serving

TAKEN_OVER_AT_STAND = (
    """
    create or replace function soak_test_taken_over() returns trigger language plpgsql as $$
    begin
        update game_tables set fence = fence + 1 where id = old.table_id;
        return old;
    end $$
    """,
    """
    create trigger soak_test_taken_over after delete on table_seats
        for each row execute function soak_test_taken_over()
    """,
)


@pytest.fixture
async def taken_over_at_stand(pg_db: Database) -> AsyncIterator[None]:
    """Each seat given up raises the table's token in the same transaction: as if another
    process took the table over the moment the seat was given up."""
    yield
    async with pg_db.transaction() as session:
        await session.execute(text("drop trigger if exists soak_test_taken_over on table_seats"))
        await session.execute(text("drop function if exists soak_test_taken_over()"))


async def test_a_stand_stored_before_a_takeover_is_answered_as_done(
    pg_db: Database, postgres_url: str, tmp_path: Path, taken_over_at_stand: None
) -> None:
    await found_club(pg_db)
    ana_id = await add_member(pg_db, "ana", chips=1000)
    settings = Settings(
        env="test",
        database_url=postgres_url,
        data_dir=tmp_path,
        secret_key="test-secret-key-" + "x" * 32,
        gc_freeze=False,
        argon2_profile="fast-insecure",
    )
    app = create_app(settings, clock=FakeClock())  # no hand starts: the stand is at once
    async with serving(app) as host:
        owner, ana = Player(host, "owner"), Player(host, "ana")
        try:
            for person in (owner, ana):
                await person.login()
            made = await owner.post(
                "/api/tables",
                {
                    "name": "Filled",
                    "game": "bourre",
                    "seat_count": 3,
                    "buy_in_min": 20,
                    "buy_in_max": 200,
                },
            )
            table_id = made.json()["id"]
            filled = await owner.put(f"/api/tables/{table_id}/bot-fill", {"level": "random"})
            assert filled.status_code == 200, filled.text
            sat = await ana.post(
                f"/api/tables/{table_id}/seat", {"buy_in": 100, "request_key": "ana-sits-1"}
            )
            assert sat.status_code == 200, sat.text
            seats = (await owner.get(f"/api/tables/{table_id}")).json()["seats"]
            assert len(seats) == 3  # ana, and two bots that came to fill the table
            # The table runs as one of several processes' does: its writes check the token.
            manager: TableManager = app.state.tables
            manager.actors.pop(table_id).give_up()
            await manager.actor(table_id, fenced=True)
            async with pg_db.transaction() as session:
                for statement in TAKEN_OVER_AT_STAND:
                    await session.execute(text(statement))

            stood = await ana.post(f"/api/tables/{table_id}/stand")

            assert stood.status_code == 200, stood.text
            assert stood.json()["left"] is True
            async with pg_db.transaction() as session:
                mine = await session.scalar(
                    select(TableSeat).where(
                        TableSeat.table_id == table_id, TableSeat.user_id == ana_id
                    )
                )
            assert mine is None
        finally:
            for person in (owner, ana):
                await person.close()
                await person.http.aclose()
