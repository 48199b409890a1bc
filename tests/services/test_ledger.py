"""The ledger's guarantees, checked against the database itself."""

from __future__ import annotations

import asyncio
import os
import random
import sys

import pytest
from sqlalchemy import text, update
from sqlalchemy.exc import IntegrityError

from app.db.models import Account
from app.db.session import Database
from app.errors import Conflict, InvalidInput, NotFound
from app.services import ledger
from tests.helpers import add_member, found_club, snapshot


async def _post(
    db: Database, key: str, *moves: tuple[str, str, int], kind: str = "transfer"
) -> ledger.Posted:
    async with db.transaction() as session:
        return await ledger.post(
            session,
            idempotency_key=key,
            kind=kind,
            reason="test",
            actor_id=None,
            movements=[ledger.Movement(*m) for m in moves],
        )


async def test_an_operation_is_all_or_nothing(db: Database) -> None:
    await found_club(db)
    a = ledger.member_account_key(await add_member(db, "ann", chips=10))
    b = ledger.member_account_key(await add_member(db, "bea", chips=10))
    before = await snapshot(db)
    # The first movement alone would be fine; the second overdraws, so neither happens.
    with pytest.raises(ledger.InsufficientFunds):
        await _post(db, "k1", (a, b, 5), (b, a, 16))
    assert await snapshot(db) == before
    await _post(db, "k2", (a, b, 5), (b, a, 15))
    async with db.transaction() as session:
        assert await ledger.balance_of(session, a) == 20
        assert await ledger.balance_of(session, b) == 0


async def test_validation_errors_have_stable_codes(db: Database) -> None:
    await found_club(db)
    a = ledger.member_account_key(await add_member(db, "ann", chips=10))
    cases: list[tuple[tuple[tuple[str, str, int], ...], type[Exception], str]] = [
        (((a, "bank", 0),), InvalidInput, "amount_not_positive"),
        (((a, "bank", -1),), InvalidInput, "amount_not_positive"),
        (((a, "bank", ledger.MAX_AMOUNT + 1),), InvalidInput, "amount_too_large"),
        (((a, a, 1),), InvalidInput, "same_account"),
        (((a, "member:999", 1),), NotFound, "account_not_found"),
        ((), InvalidInput, "no_movement"),
    ]
    before = await snapshot(db)
    for moves, kind, code in cases:
        with pytest.raises(kind) as caught:
            await _post(db, "key", *moves)
        assert getattr(caught.value, "code", None) == code
    assert await snapshot(db) == before


async def test_the_database_itself_refuses_an_overdraft(db: Database) -> None:
    await found_club(db)
    member = await add_member(db, "ann", chips=3)
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            await session.execute(
                update(Account).where(Account.user_id == member).values(balance=Account.balance - 4)
            )
    async with db.transaction() as session:
        assert await ledger.balance_of(session, ledger.member_account_key(member)) == 3


async def test_the_bank_may_go_negative_but_nobody_else(db: Database) -> None:
    await found_club(db)
    a = ledger.member_account_key(await add_member(db, "ann"))
    await _post(db, "g", ("bank", a, 500), kind="grant")
    async with db.transaction() as session:
        assert await ledger.balance_of(session, "bank") == -500


async def test_idempotency_key_replays_or_conflicts(db: Database) -> None:
    await found_club(db)
    a = ledger.member_account_key(await add_member(db, "ann", chips=10))
    first = await _post(db, "same", (a, "bank", 4))
    replay = await _post(db, "same", (a, "bank", 4))
    assert replay == ledger.Posted(first.operation_id, replayed=True)
    with pytest.raises(Conflict) as caught:
        await _post(db, "same", (a, "bank", 5))
    assert caught.value.code == "idempotency_conflict"
    async with db.transaction() as session:
        assert await ledger.balance_of(session, a) == 6


async def test_audit_finds_tampering(db: Database) -> None:
    await found_club(db)
    a = await add_member(db, "ann", chips=10)
    async with db.transaction() as session:
        assert (await ledger.audit(session)).ok
    async with db.transaction() as session:
        await session.execute(
            text("UPDATE accounts SET balance = balance + 1 WHERE user_id = :u"), {"u": a}
        )
    async with db.transaction() as session:
        report = await ledger.audit(session)
    assert not report.ok
    assert any("balance 11 but its entries sum to 10" in p for p in report.problems)
    assert any("balances sum to 1, not 0" in p for p in report.problems)


async def test_concurrent_transfers_stay_exact_on_postgres(
    pg_db: Database, postgres_url: str
) -> None:
    """Hundreds of transfers at once over a few accounts: every one that succeeds is
    applied exactly once, every refusal changes nothing, and `salon audit` passes."""
    db = pg_db
    await found_club(db)
    start = 50
    names = ["ann", "bea", "cal", "dov", "eli"]
    keys = [ledger.member_account_key(await add_member(db, n, chips=start)) for n in names]
    rng = random.Random(7)
    plans: list[tuple[str, tuple[str, str, int]]] = []
    for i in range(240):
        src, dst = rng.sample(keys, 2)
        plans.append((f"t{i}", (src, dst, rng.randint(1, 40))))
    # Every 8th transfer is sent twice at once with the same key: it must apply once.
    twins = [p for i, p in enumerate(plans) if i % 8 == 0]

    async def attempt(key: str, move: tuple[str, str, int]) -> tuple[str, bool]:
        try:
            posted = await _post(db, key, move)
        except ledger.InsufficientFunds:
            return key, False
        return key, not posted.replayed

    results = await asyncio.gather(*(attempt(k, m) for k, m in plans + twins))
    applied_keys = [k for k, applied in results if applied]
    assert len(applied_keys) == len(set(applied_keys)), "a key was applied twice"

    expected = dict.fromkeys(keys, start)
    by_key = dict(plans)
    for k in applied_keys:
        src, dst, amount = by_key[k]
        expected[src] -= amount
        expected[dst] += amount
    async with db.transaction() as session:
        actual = {k: await ledger.balance_of(session, k) for k in keys}
        report = await ledger.audit(session)
    assert actual == expected
    assert sum(actual.values()) == start * len(names)
    assert report.ok, report.problems
    assert 50 < len(applied_keys) < len(plans)  # both outcomes really happened

    audit = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "app.cli",
        "audit",
        env={**os.environ, "DATABASE_URL": postgres_url},
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await audit.communicate()
    assert audit.returncode == 0, out.decode()
    assert f"chips in circulation: {start * len(names)}" in out.decode()
