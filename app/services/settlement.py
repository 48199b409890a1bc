"""Who pays whom: settle everyone's net with as few transfers as this method finds.

Greedy, largest creditor against largest debtor: the biggest debtor pays the biggest
creditor as much as one of them needs, which settles at least one of the two; repeat.
Every transfer settles someone and the last one settles two, so n parties with a nonzero
net need at most n - 1 transfers. (The true minimum is NP-hard in general; greedy is the
usual club practice.) Ties are broken by the party's key,
so the same nets always give the same transfers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

Party = TypeVar("Party", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Transfer(Generic[Party]):
    payer: Party
    payee: Party
    amount: int


def settle(
    nets: Mapping[Party, int], order: Mapping[Party, str] | None = None
) -> list[Transfer[Party]]:
    """Transfers after which every party's net is zero. `nets` must sum to zero (winners'
    gains are exactly losers' losses); `order` gives each party its tie-break key."""
    if sum(nets.values()) != 0:
        raise ValueError("nets must sum to zero")

    def rank(party: Party) -> str:
        return order[party] if order is not None else str(party)

    owed = {p: n for p, n in nets.items() if n > 0}
    owing = {p: -n for p, n in nets.items() if n < 0}
    transfers: list[Transfer[Party]] = []
    while owed and owing:
        creditor = max(owed, key=lambda p: (owed[p], rank(p)))
        debtor = max(owing, key=lambda p: (owing[p], rank(p)))
        amount = min(owed[creditor], owing[debtor])
        transfers.append(Transfer(debtor, creditor, amount))
        for book, party in ((owed, creditor), (owing, debtor)):
            book[party] -= amount
            if book[party] == 0:
                del book[party]
    return transfers
