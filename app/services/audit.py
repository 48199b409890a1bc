"""The club's audit: the ledger proves itself, and the tables' accounts hold what the
tables say (see `holdings`), and where the chips in circulation are (see `circulation`).
`salon audit`, the admin API and the admin page all read it."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.services import holdings, ledger
from app.services.circulation import Circulation, circulation


@dataclass(frozen=True, slots=True)
class ClubAudit:
    ledger: ledger.AuditReport
    stranded: list[holdings.Stranded]
    table_problems: list[str]
    circulation: Circulation

    @property
    def problems(self) -> list[str]:
        return [
            *self.ledger.problems,
            *(s.problem for s in self.stranded),
            *self.table_problems,
        ]

    @property
    def ok(self) -> bool:
        return not self.problems


async def club_audit(session: AsyncSession) -> ClubAudit:
    return ClubAudit(
        ledger=await ledger.audit(session),
        stranded=await holdings.stranded(session),
        table_problems=await holdings.table_problems(session),
        circulation=await circulation(session),
    )
