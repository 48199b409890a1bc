"""Reset links are used once, even when the form is sent twice at the same moment: on
PostgreSQL the second transaction waits on the row the first deletes, on SQLite writes
take turns; either way one password is set and one use is written down."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.db.models import AdminAction, PasswordReset
from app.db.session import Database
from app.security.passwords import verify_password
from app.services import members, password_resets
from app.services.password_resets import InvalidResetLink
from tests.helpers import add_member, found_club


async def test_two_uses_at_once_set_one_password(db: Database) -> None:
    owner_id = await found_club(db)
    ada_id = await add_member(db, "ada")
    async with db.transaction() as session:
        owner = await members.get_member(session, owner_id)
        issued = await password_resets.issue(session, owner, ada_id, 3600)

    async def use(password: str) -> str | None:
        try:
            async with db.transaction() as session:
                await password_resets.redeem(session, issued.token, password)
        except InvalidResetLink:
            return None
        return password

    outcomes = await asyncio.gather(use("first passphrase"), use("second passphrase"))
    chosen = [password for password in outcomes if password is not None]
    assert len(chosen) == 1
    async with db.transaction() as session:
        ada = await members.get_member(session, ada_id)
        assert verify_password(ada.password_hash, chosen[0])
        assert await session.scalar(select(func.count(PasswordReset.id))) == 0
        uses = await session.scalar(
            select(func.count(AdminAction.id)).where(
                AdminAction.action == "member.password_reset_used"
            )
        )
        assert uses == 1
