"""The chip ledger: the one way chips move.

Every movement is a `LedgerEntry` taking `amount` chips from one account to another, grouped
in a `LedgerOperation` that carries the reason, the acting user and an idempotency key. An
operation is applied whole or not at all, and at most once per key: posting the same key
with the same content again is a harmless replay; with other content it is refused.

Consistency under concurrency: the accounts an operation touches are locked in id order
(`SELECT … FOR UPDATE` on Postgres; SQLite transactions are already serialised by
`BEGIN IMMEDIATE`), so two transfers over the same accounts queue instead of racing and
never deadlock. The `no_overdraft` CHECK in the database is the last word on balances.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import orjson
from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from app.db.models import (
    PLAY_KINDS,
    SOURCE_KINDS,
    Account,
    AccountKind,
    LedgerEntry,
    LedgerOperation,
)
from app.db.types import utcnow
from app.engine.options import MAX_CHIPS
from app.errors import Conflict, InvalidInput, NotFound
from app.i18n import _
from app.security.text import has_control_chars

BANK_KEY = "bank"
# Where practice tables' play money comes from and goes back to.
PLAY_BANK_KEY = "play:bank"
MAX_REASON_LENGTH = 200
MAX_KEY_LENGTH = 128
# Upper bound on any single movement: stops typos (and overflow) at the door. The same
# bound as the most chips a house rule may name: no option can ask for a buy-in or an
# ante the ledger would refuse to move.
MAX_AMOUNT = MAX_CHIPS

# The statements of every post, built once (a statement built anew is traversed again for
# the compiled-statement cache on each run).
_LOCK_ACCOUNTS = (
    select(Account.id, Account.key, Account.kind, Account.balance)
    .where(Account.key.in_(bindparam("keys", expanding=True)))
    .order_by(Account.id)
    .with_for_update()
)
# By dialect: each one's INSERT knows ON CONFLICT DO NOTHING (Postgres and SQLite).
_CLAIM_KEY = {
    name: dialect_insert(LedgerOperation)
    .on_conflict_do_nothing(index_elements=[LedgerOperation.idempotency_key])
    .returning(LedgerOperation.id)
    for name, dialect_insert in (("postgresql", postgresql.insert), ("sqlite", sqlite.insert))
}
_INSERT_ENTRY = insert(LedgerEntry)
_MOVE_BALANCE = (
    update(Account)
    .where(Account.id == bindparam("account_id"))
    .values(balance=Account.balance + bindparam("delta"))
)


def member_account_key(user_id: int) -> str:
    return f"member:{user_id}"


@dataclass(frozen=True, slots=True)
class Movement:
    from_key: str
    to_key: str
    amount: int


@dataclass(frozen=True, slots=True)
class Posted:
    operation_id: int
    # True when this key had already been applied: nothing moved this time.
    replayed: bool


class InsufficientFunds(Conflict):
    def __init__(self, account_key: str, balance: int, needed: int) -> None:
        super().__init__(
            "insufficient_funds",
            _(
                "Not enough chips: the balance is %(balance)s, the movement needs %(needed)s.",
                balance=balance,
                needed=needed,
            ),
            account=account_key,
            balance=balance,
            needed=needed,
        )


def _fingerprint(kind: str, reason: str, movements: Sequence[Movement]) -> str:
    body = {"kind": kind, "reason": reason, "movements": [list(_as_tuple(m)) for m in movements]}
    return hashlib.sha256(orjson.dumps(body)).hexdigest()


def _as_tuple(m: Movement) -> tuple[str, str, int]:
    return (m.from_key, m.to_key, m.amount)


def _validate(idempotency_key: str, reason: str, movements: Sequence[Movement]) -> None:
    if not 1 <= len(idempotency_key) <= MAX_KEY_LENGTH or has_control_chars(idempotency_key):
        raise InvalidInput("invalid_idempotency_key", _("The idempotency key must be 1-128 chars."))
    if not reason.strip() or len(reason) > MAX_REASON_LENGTH or has_control_chars(reason):
        raise InvalidInput(
            "reason_required", _("A reason (at most 200 characters, plain text) is required.")
        )
    if not movements:
        raise InvalidInput("no_movement", _("An operation must move chips."))
    for m in movements:
        # bool is an int in Python; a chip count never is.
        if isinstance(m.amount, bool) or not isinstance(m.amount, int) or m.amount <= 0:
            raise InvalidInput("amount_not_positive", _("Amounts must be whole positive numbers."))
        if m.amount > MAX_AMOUNT:
            raise InvalidInput(
                "amount_too_large",
                _("An amount may not exceed %(max_amount)s chips.", max_amount=MAX_AMOUNT),
                max=MAX_AMOUNT,
            )
        if m.from_key == m.to_key:
            raise InvalidInput("same_account", _("Chips cannot move from an account to itself."))


async def _existing(session: AsyncSession, key: str) -> LedgerOperation | None:
    found: LedgerOperation | None = await session.scalar(
        select(LedgerOperation).where(LedgerOperation.idempotency_key == key)
    )
    return found


def _replay_or_conflict(existing: LedgerOperation, fingerprint: str) -> Posted:
    if existing.fingerprint != fingerprint:
        raise Conflict(
            "idempotency_conflict",
            _("This idempotency key was already used for a different operation."),
        )
    return Posted(operation_id=existing.id, replayed=True)


async def post(
    session: AsyncSession,
    *,
    idempotency_key: str,
    kind: str,
    reason: str,
    actor_id: int | None,
    movements: Sequence[Movement],
) -> Posted:
    """Apply `movements` atomically within the caller's transaction, at most once per key."""
    _validate(idempotency_key, reason, movements)
    fingerprint = _fingerprint(kind, reason, movements)

    keys = sorted({m.from_key for m in movements} | {m.to_key for m in movements})
    # Lock first, then claim the key: a concurrent twin holding the same locks has
    # committed by the time we get them, so our claim finds its operation and replays it.
    # Plain rows, not ORM objects: settlements post after every hand.
    connection = await session.connection()
    locked = (await connection.execute(_LOCK_ACCOUNTS, {"keys": keys})).all()
    accounts = {a.key: a for a in locked}
    missing = [k for k in keys if k not in accounts]
    if missing:
        raise NotFound(
            "account_not_found",
            _("No such account: %(missing)s.", missing=missing[0]),
            account=missing[0],
        )

    for m in movements:
        if (accounts[m.from_key].kind in PLAY_KINDS) != (accounts[m.to_key].kind in PLAY_KINDS):
            # Play money and the club's chips never meet: practice chips are worth nothing.
            raise InvalidInput(
                "play_money_mixed",
                _(
                    "Play money cannot move between %(from_key)s and %(to_key)s.",
                    from_key=m.from_key,
                    to_key=m.to_key,
                ),
            )
    deltas: dict[str, int] = defaultdict(int)
    for m in movements:
        deltas[m.from_key] -= m.amount
        deltas[m.to_key] += m.amount
    for key, delta in deltas.items():
        account = accounts[key]
        if account.kind not in SOURCE_KINDS and account.balance + delta < 0:
            # A replay is answered as the first time even if the chips have moved on since;
            # only a new operation is refused. (A key already used is looked up here, on
            # the rare refusal, rather than before every operation: the INSERT below
            # finds it too.)
            if (existing := await _existing(session, idempotency_key)) is not None:
                return _replay_or_conflict(existing, fingerprint)
            raise InsufficientFunds(key, account.balance, -delta)

    # The key is claimed by the INSERT itself: an operation posted under it before, or a
    # concurrent twin that got there first (and committed while we waited for the locks),
    # makes it insert nothing, and that operation is replayed.
    operation_id = await connection.scalar(
        _CLAIM_KEY[connection.dialect.name],
        {
            "idempotency_key": idempotency_key,
            "fingerprint": fingerprint,
            "kind": kind,
            "reason": reason,
            "actor_id": actor_id,
            "created_at": utcnow(),
        },
    )
    if operation_id is None:
        existing = await _existing(session, idempotency_key)
        assert existing is not None  # its insert conflicted with this very key
        return _replay_or_conflict(existing, fingerprint)

    await connection.execute(
        _INSERT_ENTRY,
        [
            {
                "operation_id": operation_id,
                "from_account_id": accounts[m.from_key].id,
                "to_account_id": accounts[m.to_key].id,
                "amount": m.amount,
            }
            for m in movements
        ],
    )
    changed = [(accounts[key], delta) for key, delta in deltas.items() if delta]
    if changed:  # movements that cancel out leave every balance as it was
        await connection.execute(
            _MOVE_BALANCE,
            [{"account_id": account.id, "delta": delta} for account, delta in changed],
        )
    # The rows are locked: their new balances are known without reading them back. An
    # account the session already holds as an object is told its new balance.
    for account, delta in changed:
        held = session.identity_map.get(identity_key(Account, account.id))
        if held is not None:
            set_committed_value(held, "balance", account.balance + delta)
    return Posted(operation_id=operation_id, replayed=False)


async def bank_transfer(
    session: AsyncSession,
    *,
    member_id: int,
    amount: int,
    grant: bool,
    idempotency_key: str,
    reason: str,
    actor_id: int | None,
) -> Posted:
    """The club's bank gives a member chips (`grant`) or takes them back (never below zero):
    the one way admins, the demo and tools put chips in or out of circulation."""
    member = member_account_key(member_id)
    return await post(
        session,
        idempotency_key=idempotency_key,
        kind="grant" if grant else "deduct",
        reason=reason,
        actor_id=actor_id,
        movements=[
            Movement(BANK_KEY, member, amount) if grant else Movement(member, BANK_KEY, amount)
        ],
    )


async def open_account(
    session: AsyncSession, key: str, kind: AccountKind, user_id: int | None = None
) -> Account:
    """Create the account `key` if it does not exist yet, and return it."""
    account = await session.scalar(select(Account).where(Account.key == key))
    if account is None:
        account = Account(key=key, kind=kind, user_id=user_id, balance=0)
        session.add(account)
        await session.flush()
    return account


async def balance_of(session: AsyncSession, key: str) -> int:
    balance = await session.scalar(select(Account.balance).where(Account.key == key))
    if balance is None:
        raise NotFound("account_not_found", _("No such account: %(key)s.", key=key), account=key)
    return int(balance)


@dataclass(frozen=True, slots=True)
class EntryRow:
    """A ledger entry with its operation, as shown in statements and exports."""

    entry_id: int
    operation_id: int
    created_at: datetime
    kind: str
    reason: str
    actor_id: int | None
    from_account: str
    to_account: str
    amount: int


@dataclass(frozen=True, slots=True)
class EntryFilter:
    account_key: str | None = None
    kind: str | None = None
    actor_id: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    # False: the club's chips only; True: practice tables' play money only; None: both.
    practice: bool | None = None


async def entries(
    session: AsyncSession, where: EntryFilter, *, limit: int | None = 100, offset: int = 0
) -> list[EntryRow]:
    """Entries, newest first, matching every given filter."""
    src = Account.__table__.alias("src")
    dst = Account.__table__.alias("dst")
    query = (
        select(
            LedgerEntry.id,
            LedgerOperation.id,
            LedgerOperation.created_at,
            LedgerOperation.kind,
            LedgerOperation.reason,
            LedgerOperation.actor_id,
            src.c.key,
            dst.c.key,
            LedgerEntry.amount,
        )
        .join(LedgerOperation, LedgerEntry.operation_id == LedgerOperation.id)
        .join(src, LedgerEntry.from_account_id == src.c.id)
        .join(dst, LedgerEntry.to_account_id == dst.c.id)
        .order_by(LedgerEntry.id.desc())
        .offset(offset)
    )
    if limit is not None:
        query = query.limit(limit)
    if where.account_key is not None:
        query = query.where((src.c.key == where.account_key) | (dst.c.key == where.account_key))
    if where.kind is not None:
        query = query.where(LedgerOperation.kind == where.kind)
    if where.actor_id is not None:
        query = query.where(LedgerOperation.actor_id == where.actor_id)
    if where.since is not None:
        query = query.where(LedgerOperation.created_at >= where.since)
    if where.until is not None:
        query = query.where(LedgerOperation.created_at < where.until)
    if where.practice is not None:
        # No entry mixes the two (`post` refuses it): the source account tells.
        play = src.c.kind.in_(PLAY_KINDS)
        query = query.where(play if where.practice else ~play)
    rows = (await session.execute(query)).all()
    return [EntryRow(*row) for row in rows]


@dataclass(frozen=True, slots=True)
class AuditReport:
    accounts: int
    entries: int
    chips_in_circulation: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


async def audit(session: AsyncSession) -> AuditReport:
    """Prove the ledger: every balance equals its entries, everything sums to zero, and
    nothing but the bank is below zero."""
    problems: list[str] = []
    incoming = (
        select(LedgerEntry.to_account_id.label("id"), func.sum(LedgerEntry.amount).label("n"))
        .group_by(LedgerEntry.to_account_id)
        .subquery()
    )
    outgoing = (
        select(LedgerEntry.from_account_id.label("id"), func.sum(LedgerEntry.amount).label("n"))
        .group_by(LedgerEntry.from_account_id)
        .subquery()
    )
    rows = (
        await session.execute(
            select(
                Account.key,
                Account.kind,
                Account.balance,
                func.coalesce(incoming.c.n, 0),
                func.coalesce(outgoing.c.n, 0),
            )
            .outerjoin(incoming, incoming.c.id == Account.id)
            .outerjoin(outgoing, outgoing.c.id == Account.id)
            .order_by(Account.id)
        )
    ).all()
    total = 0
    circulation = 0
    for key, kind, balance, received, sent in rows:
        total += balance
        if kind not in SOURCE_KINDS and kind not in PLAY_KINDS:
            circulation += balance
        if balance != received - sent:
            problems.append(
                f"account {key}: balance {balance} but its entries sum to {received - sent}"
            )
        if kind not in SOURCE_KINDS and balance < 0:
            problems.append(f"account {key}: negative balance {balance}")
    if total != 0:
        problems.append(f"balances sum to {total}, not 0")
    bad_amounts = await session.scalar(
        select(func.count()).select_from(LedgerEntry).where(LedgerEntry.amount <= 0)
    )
    if bad_amounts:
        problems.append(f"{bad_amounts} entries with a non-positive amount")
    empty_ops = await session.scalar(
        select(func.count())
        .select_from(LedgerOperation)
        .where(
            ~select(LedgerEntry.id).where(LedgerEntry.operation_id == LedgerOperation.id).exists()
        )
    )
    if empty_ops:
        problems.append(f"{empty_ops} operations without entries")
    source = Account.__table__.alias("source")
    target = Account.__table__.alias("target")
    mixed = await session.scalar(
        select(func.count())
        .select_from(LedgerEntry)
        .join(source, source.c.id == LedgerEntry.from_account_id)
        .join(target, target.c.id == LedgerEntry.to_account_id)
        .where(source.c.kind.in_(PLAY_KINDS) != target.c.kind.in_(PLAY_KINDS))
    )
    if mixed:
        problems.append(f"{mixed} entries move chips between play money and the club's chips")
    entry_count = await session.scalar(select(func.count()).select_from(LedgerEntry))
    return AuditReport(
        accounts=len(rows),
        entries=int(entry_count or 0),
        chips_in_circulation=circulation,
        problems=problems,
    )


async def last_operation_said(session: AsyncSession) -> str:
    """The newest ledger operation, in one line (`salon restore` prints it, so that an
    operator can tell how recent a restored backup is)."""
    last = await session.scalar(select(LedgerOperation).order_by(LedgerOperation.id.desc()))
    if last is None:
        return "last ledger operation: none"
    return (
        f"last ledger operation: #{last.id} {last.kind} at {last.created_at:%Y-%m-%d %H:%M:%S} "
        f"UTC ({last.reason})"
    )
