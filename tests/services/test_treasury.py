"""The treasurer's views read the ledger back right: names, sittings, who pays whom."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from app.db.models import Hand, TableStatus
from app.db.session import Database
from app.services import overview, sessions, treasury
from app.services import tables as table_service
from app.services.circulation import Circulation
from tests.treasury_scene import TABLE_NAME, evening


async def test_ledger_lines_speak_in_names(db: Database) -> None:
    scene = await evening(db)
    async with db.transaction() as session:
        page = await treasury.named_lines(session, treasury.NamedFilter(member_id=scene.alice))
    said = {(line.kind, line.from_name, line.to_name, line.amount) for line in page.lines}
    assert ("grant", "Club bank", "Alice", 500) in said
    assert ("buy_in", "Alice", f"Alice's stack at '{TABLE_NAME}'", 100) in said
    assert ("settlement", f"Alice's stack at '{TABLE_NAME}'", f"pot of '{TABLE_NAME}'", 30) in said
    assert ("cash_out", f"Alice's stack at '{TABLE_NAME}'", "Alice", 70) in said
    settlement = next(line for line in page.lines if line.kind == "settlement")
    assert (settlement.hand_number, settlement.table_name) == (1, TABLE_NAME)
    # Only Alice's lines: nobody else's buy-in or grant.
    assert all(line.member_id == scene.alice for line in page.lines)
    assert page.total == len(page.lines) == 4


async def test_ledger_filters_and_pages(db: Database) -> None:
    scene = await evening(db)
    async with db.transaction() as session:
        at_table = await treasury.named_lines(
            session, treasury.NamedFilter(table_id=scene.table_id)
        )
        buy_ins = await treasury.named_lines(session, treasury.NamedFilter(kind="buy_in"))
        first = await treasury.named_lines(session, treasury.NamedFilter(), limit=3)
        second = await treasury.named_lines(session, treasury.NamedFilter(), limit=3, offset=3)
        everything = await treasury.named_lines(session, treasury.NamedFilter(), limit=None)
    # 3 buy-ins, 2 settlement lines, 1 top-up, 2 cash-outs; the grants are not at the table.
    assert at_table.total == 8
    assert {line.kind for line in at_table.lines} == {"buy_in", "settlement", "top_up", "cash_out"}
    assert buy_ins.total == 3 and {line.kind for line in buy_ins.lines} == {"buy_in"}
    assert first.total == everything.total == 11 and first.has_next
    assert [line.entry_id for line in first.lines + second.lines] == [
        line.entry_id for line in everything.lines[:6]
    ]


async def test_sittings_from_the_ledger(db: Database) -> None:
    scene = await evening(db)
    async with db.transaction() as session:
        rows = await sessions.sittings(session, sessions.SittingFilter())
    by_member = {s.member_id: s for s in rows}
    alice, bob, cyd = by_member[scene.alice], by_member[scene.bob], by_member[scene.cyd]
    assert (alice.bought_in, alice.cashed_out, alice.at_table, alice.net) == (100, 70, 0, -30)
    assert (bob.bought_in, bob.cashed_out, bob.at_table, bob.net) == (150, 170, 0, 20)
    # Cyd is still seated: her sitting is open and her stack counts in her net.
    assert cyd.open and (cyd.bought_in, cyd.cashed_out, cyd.at_table, cyd.net) == (100, 0, 100, 0)
    assert alice.ended_at is not None and alice.table_name == TABLE_NAME
    assert alice.game == "bourre"


async def test_who_pays_whom_counts_the_pot(db: Database) -> None:
    await evening(db)
    async with db.transaction() as session:
        view = await sessions.settlement(session, sessions.SittingFilter())
    nets = {name: net for _, name, net in view.nets}
    assert nets == {"Alice": -30, "Bob": 20, "Cyd": 0}
    # The 10 lying in the pot are the house's side, shown apart.
    assert (view.house.bots_net, view.house.in_pots) == (0, 10)
    paid = [(view.names[t.payer], view.names[t.payee], t.amount) for t in view.transfers]
    assert sorted(paid) == [("Alice", "Bob", 20), ("Alice", sessions.HOUSE_NAME, 10)]


async def test_the_overview_counts_today_and_the_last_30_days(db: Database) -> None:
    await evening(db)
    async with db.transaction() as session:
        hand = (await session.scalars(select(Hand))).one()
        ended = hand.ended_at
        assert ended is not None
        today = await overview.overview(session, now=ended)
        next_day = await overview.overview(session, now=ended + timedelta(days=1))
        long_after = await overview.overview(session, now=ended + timedelta(days=31))
    assert today.hands_today == 1 and next_day.hands_today == 0
    assert [b.value for b in today.hands_per_day][-1] == 1
    assert [b.value for b in next_day.hands_per_day][-2:] == [1, 0]
    assert sum(b.value for b in long_after.hands_per_day) == 0
    assert today.average_pot_per_day[-1].value == 30 and today.largest_pot == 30
    # Cyd's 100 at the table and 10 in the pot; the rest of the 1500 on balances.
    assert today.circulation == Circulation(balances=1390, stacks=100, bot_stacks=0, pots=10)
    assert (today.tables_open, today.tables_dealing) == (1, 0)


async def test_a_closed_tables_pot_goes_back_into_the_sittings(db: Database) -> None:
    """Closing returns the pot to those who paid into it: here Alice's 10 comes back, and
    counts as cashed out in her sitting, so the nets settle among members alone."""
    scene = await evening(db)
    async with db.transaction() as session:
        table = await table_service.get_table(session, scene.table_id)
        await table_service.stand_up(session, table, scene.cyd)
        assert await table_service.return_pot(session, table) == {scene.alice: 10}
        await table_service.set_status(session, table, TableStatus.CLOSED)
    async with db.transaction() as session:
        rows = await sessions.sittings(session, sessions.SittingFilter(table_id=scene.table_id))
    nets = {s.member_name: (s.cashed_out, s.net, s.open) for s in rows}
    assert nets == {"Alice": (80, -20, False), "Bob": (170, 20, False), "Cyd": (100, 0, False)}
    view = sessions.who_pays_whom(rows, [])
    assert view.house.net == 0
    assert [(view.names[t.payer], view.names[t.payee], t.amount) for t in view.transfers] == [
        ("Alice", "Bob", 20)
    ]
