"""A club night settled by the treasurer (tests/club_night_scene.py): members, house bots
and a practice table. Bots are the house's and practice is play money: neither may reach
the members' settlement, statistics, exports or counts, except on their own lines."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select

from app.db.models import Account, AccountKind, LedgerEntry
from app.db.session import Database
from app.services import history, ledger, overview, sessions, treasury
from app.services.audit import club_audit
from tests.club_night_scene import club_night


async def _ledger_nets(db: Database, members: set[int]) -> dict[int, int]:
    """Each member's chips won from the tables' pots minus chips lost to them, summed from
    the ledger's entries alone: whatever moved between a pot and the member's balance or
    stacks (buy-ins and cash-outs only move chips between the member's own accounts)."""
    src = Account.__table__.alias("src")
    dst = Account.__table__.alias("dst")
    async with db.transaction() as session:
        rows = (
            await session.execute(
                select(src.c.kind, src.c.user_id, dst.c.kind, dst.c.user_id, LedgerEntry.amount)
                .join(src, src.c.id == LedgerEntry.from_account_id)
                .join(dst, dst.c.id == LedgerEntry.to_account_id)
            )
        ).all()
    nets: dict[int, int] = defaultdict(int)
    mine = (AccountKind.MEMBER, AccountKind.SEAT)
    for from_kind, from_user, to_kind, to_user, amount in rows:
        if from_kind == AccountKind.POT and to_kind in mine and to_user in members:
            nets[to_user] += int(amount)
        if to_kind == AccountKind.POT and from_kind in mine and from_user in members:
            nets[from_user] -= int(amount)
    return {member: nets[member] for member in members}


async def test_the_settlement_settles_members_with_the_house_apart(db: Database) -> None:
    night = await club_night(db)
    async with db.transaction() as session:
        members = await sessions.sittings(session, sessions.SittingFilter())
        view = await sessions.settlement(session, sessions.SittingFilter())
    # Members' rows only: no bot sits among them.
    assert {s.member_id for s in members} == set(night.members)
    nets = {party: net for party, _, net in view.nets}
    assert nets == {night.alice: 10, night.bob: 20, night.cyd: -20}
    # Each member's net is what the ledger moved between the pots and that member, to the chip.
    assert nets == await _ledger_nets(db, set(night.members))
    # The house apart: the bots lost 20 together, and 10 still lie in the pot.
    assert (view.house.bots_net, view.house.in_pots, view.house.net) == (-20, 10, -10)
    parties = {t.payer for t in view.transfers} | {t.payee for t in view.transfers}
    assert parties <= {*night.members, sessions.HOUSE}
    assert night.bot_won not in view.names and night.bot_lost not in view.names
    # After the transfers everyone, the house included, is square.
    left = {**nets, sessions.HOUSE: view.house.net}
    for transfer in view.transfers:
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    assert set(left.values()) == {0}


async def test_house_bots_sittings_show_what_the_bank_lent(db: Database) -> None:
    night = await club_night(db)
    async with db.transaction() as session:
        rows = await sessions.sittings(session, sessions.SittingFilter(party=sessions.Party.BOTS))
    by_bot = {s.member_id: s for s in rows}
    assert set(by_bot) == {night.bot_won, night.bot_lost}  # the practice bot is play money
    won, lost = by_bot[night.bot_won], by_bot[night.bot_lost]
    assert (won.bought_in, won.cashed_out, won.at_table, won.net) == (400, 480, 0, 80)
    assert (lost.bought_in, lost.cashed_out, lost.at_table, lost.net) == (400, 0, 300, -100)
    assert won.bot and lost.bot


async def test_practice_stays_out_of_the_members_records(db: Database) -> None:
    night = await club_night(db)
    async with db.transaction() as session:
        club_stats = await history.statistics(session, night.cyd)
        practice_stats = await history.statistics(session, night.cyd, practice=True)
        listed, _ = await history.list_hands(
            session,
            history.HandFilter(),
            viewer_id=night.cyd,
            everyone=False,
            cursor=None,
            limit=10,
        )
        practice_listed, _ = await history.list_hands(
            session,
            history.HandFilter(practice=True),
            viewer_id=night.cyd,
            everyone=False,
            cursor=None,
            limit=10,
        )
        every_hand, _ = await history.list_hands(
            session,
            history.HandFilter(),
            viewer_id=night.owner,
            everyone=True,
            cursor=None,
            limit=10,
        )
        exported = await history.hands_in_order(session, history.HandFilter(), after=None, limit=10)
        figures = await overview.overview(session)
        recent = await treasury.named_lines(session, treasury.NamedFilter(), limit=None)
        play = await treasury.named_lines(session, treasury.NamedFilter(practice=True), limit=None)
    # Cyd's club statistics: the one club hand she lost 20 in; her practice win apart.
    assert club_stats["by_game"]["bourre"] | {"won": 0} == {
        "hands": 1,
        "won": 0,
        "net": -20,
        "bourres_paid": 0,
        "brelans": 0,
    }
    assert practice_stats["by_game"]["bourre"]["net"] == 70
    assert [(h.table_id, h.practice) for h in listed] == [(night.table_id, False)]
    assert [(h.table_id, h.practice) for h in practice_listed] == [(night.practice_id, True)]
    assert {h.table_id for h in every_hand} == {h.table_id for h in exported} == {night.table_id}
    assert (figures.hands_today, figures.practice_hands_today) == (3, 1)
    assert all("play-money" not in line.from_name + line.to_name for line in recent.lines)
    assert recent.lines and play.lines
    assert all(line.table_id == night.practice_id for line in play.lines)


async def test_the_dashboard_counts_members_chips_once_as_the_audit_does(db: Database) -> None:
    night = await club_night(db)
    async with db.transaction() as session:
        figures = await overview.overview(session)
        audited = await club_audit(session)
        accounts = (
            await session.execute(select(Account.kind, Account.user_id, Account.balance))
        ).all()
        bank = await ledger.balance_of(session, ledger.BANK_KEY)
    members_own = sum(
        int(balance)
        for kind, user_id, balance in accounts
        if kind in (AccountKind.MEMBER, AccountKind.SEAT) and user_id in night.members
    )
    # 3000 granted, and the members won 10 together: from the bots and the pot.
    assert members_own == 3010
    held_now = figures.circulation
    assert (held_now.held_by_members, held_now.bot_stacks, held_now.pots) == (3010, 300, 10)
    assert held_now == audited.circulation
    assert held_now.total == audited.ledger.chips_in_circulation == -bank
