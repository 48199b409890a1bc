"""Play money (practice tables) and the club's chips never meet: the ledger refuses a
movement between them, the audit reports one found in the records, and the chips in
circulation never count play money."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, select

from app.db.models import Account, AccountKind, LedgerEntry, LedgerOperation
from app.db.session import Database
from app.errors import InvalidInput
from app.services import ledger
from tests.helpers import add_member, found_club, snapshot


async def _play_accounts(db: Database) -> None:
    async with db.transaction() as session:
        await ledger.open_account(session, ledger.PLAY_BANK_KEY, AccountKind.PLAY_BANK)
        await ledger.open_account(session, "seat:99:1", AccountKind.PLAY_SEAT)


async def test_play_money_moves_among_play_accounts_only(db: Database) -> None:
    await found_club(db)
    member = ledger.member_account_key(await add_member(db, "ann", chips=50))
    await _play_accounts(db)
    async with db.transaction() as session:
        before = await ledger.audit(session)
        await ledger.post(
            session,
            idempotency_key="practice-buy-in",
            kind="buy_in",
            reason="Practice buy-in",
            actor_id=None,
            movements=[ledger.Movement(ledger.PLAY_BANK_KEY, "seat:99:1", 500)],
        )
    async with db.transaction() as session:
        after = await ledger.audit(session)
        assert await ledger.balance_of(session, ledger.PLAY_BANK_KEY) == -500
    assert after.ok, after.problems
    # The club's chips in circulation are what they were: play money is not among them.
    assert after.chips_in_circulation == before.chips_in_circulation
    unchanged = await snapshot(db)
    for source, target in ((ledger.PLAY_BANK_KEY, member), (member, "seat:99:1")):
        async with db.transaction() as session:
            with pytest.raises(InvalidInput) as refused:
                await ledger.post(
                    session,
                    idempotency_key=f"mixed-{source}",
                    kind="transfer",
                    reason="mixing",
                    actor_id=None,
                    movements=[ledger.Movement(source, target, 5)],
                )
        assert refused.value.code == "play_money_mixed"
        assert await snapshot(db) == unchanged


async def test_the_audit_reports_an_entry_mixing_play_money_with_chips(db: Database) -> None:
    await found_club(db)
    member = ledger.member_account_key(await add_member(db, "bea", chips=50))
    await _play_accounts(db)
    # A record the ledger itself would have refused, written behind its back.
    async with db.transaction() as session:
        ids = dict(
            (await session.execute(select(Account.key, Account.id))).all()  # type: ignore[arg-type]
        )
        operation = await session.scalar(
            insert(LedgerOperation)
            .values(
                idempotency_key="forged",
                fingerprint="0" * 64,
                kind="transfer",
                reason="forged",
                actor_id=None,
            )
            .returning(LedgerOperation.id)
        )
        await session.execute(
            insert(LedgerEntry).values(
                operation_id=operation,
                from_account_id=ids[member],
                to_account_id=ids["seat:99:1"],
                amount=5,
            )
        )
        account = await session.get(Account, ids[member])
        assert account is not None
        account.balance -= 5
        seat = await session.get(Account, ids["seat:99:1"])
        assert seat is not None
        seat.balance += 5
    async with db.transaction() as session:
        report = await ledger.audit(session)
    assert report.problems == ["1 entries move chips between play money and the club's chips"]
