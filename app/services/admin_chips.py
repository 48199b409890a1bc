"""Chips moved by an admin's hand: grants, deductions and stranded chips given back.

The movement goes through the ledger and its audit row is written in the same
transaction. A replayed request (the same idempotency key and content again) moves
nothing, writes no second row and answers as the first time, the balance as it was then
(see replies); the same key with other content is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import User
from app.services import admin_log, holdings, ledger, members, replies


@dataclass(frozen=True, slots=True)
class Moved:
    operation_id: int
    replayed: bool
    balance: int


async def grant_or_deduct(
    session: AsyncSession,
    actor: User,
    *,
    member_id: int,
    amount: int,
    grant: bool,
    request_key: str,
    reason: str,
) -> Moved:
    """Give a member chips from the club's bank, or take them back (never below zero)."""
    key = f"admin:{request_key}"
    request = replies.Keyed(
        f"answer:{key}",
        {"grant": grant, "member_id": member_id, "amount": amount, "reason": reason},
    )
    if (earlier := await replies.earlier(session, request)) is not None:
        return Moved(earlier["operation_id"], True, earlier["balance"])
    member = await members.get_member(session, member_id)
    account = ledger.member_account_key(member.id)
    before = await ledger.balance_of(session, account)
    posted = await ledger.bank_transfer(
        session,
        member_id=member.id,
        amount=amount,
        grant=grant,
        idempotency_key=key,
        reason=reason,
        actor_id=actor.id,
    )
    balance = await ledger.balance_of(session, account)
    if not posted.replayed:
        await admin_log.record(
            session,
            actor_id=actor.id,
            action="chips.grant" if grant else "chips.deduct",
            target_kind="member",
            target_id=member.id,
            target_label=member.username,
            before={"balance": before},
            after={
                "balance": balance,
                "amount": amount,
                "reason": reason,
                "operation_id": posted.operation_id,
            },
        )
    answer = {"operation_id": posted.operation_id, "balance": balance}
    await replies.remember(session, request, answer)
    return Moved(posted.operation_id, posted.replayed, balance)


async def return_stranded(session: AsyncSession, actor: User | None, account: str) -> int:
    """Give back the chips stranded in `account` (see holdings); returns the chips moved.
    `actor` None: the `salon return-stranded` command, run on the server."""
    found = next(iter(await holdings.stranded(session, account)), None)
    actor_id = actor.id if actor is not None else None
    chips = await holdings.return_stranded(session, account, actor_id)
    await admin_log.record(
        session,
        actor_id=actor_id,
        action="chips.return_stranded",
        target_kind="account",
        target_id=account,
        target_label=account,
        before={"chips": found.chips if found else chips},
        after={"chips": 0, "returned": chips},
    )
    return chips
