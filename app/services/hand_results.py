"""A finished hand's result, per seat: what the hand-history lists, filters and statistics
read (the `hand_seats` rows), computed once from the hand's replay report when it is settled.

Also which keys of a report are secret until the club's reveal policy allows them: the seed
(it derives the whole deck, folded hands included) and any other server seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.engine.registry import driver

# Keys of a hand's report that are withheld from players until the hand is revealed.
SECRET_REPORT_KEYS = frozenset({"seed", "server_seed"})


def public_report(report: Mapping[str, Any]) -> dict[str, Any]:
    """The report without its secret keys: what a player may read before the reveal."""
    return {k: v for k, v in report.items() if k not in SECRET_REPORT_KEYS}


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat_no: int
    user_id: int
    stack_before: int
    stack_after: int
    net: int
    won: bool
    bourres_paid: int
    brelan: bool


def report_names(report: Mapping[str, Any]) -> list[str]:
    """The names the report uses, by seat (its `stacks` lists every seat in order)."""
    return list(report["stacks"])


def pot_of(game: str, report: Mapping[str, Any]) -> int:
    """The chips at stake, as the game counts them (Bourré: the pot played for; Bouillotte:
    the pots won)."""
    return driver(game).at_stake(report)


def seat_results(
    game: str,
    rules: Mapping[str, Any],
    users: Mapping[int, int],
    dealt_in: Iterable[int],
    stacks_before: Sequence[int],
    report: Mapping[str, Any],
) -> list[SeatResult]:
    """One row for each seat dealt in (whose chips were at stake)."""
    names = report_names(report)
    after = [int(v) for v in report["stacks"].values()]
    played = driver(game)
    winners = played.winners(report)
    paid = played.bourres_paid(rules, report)
    brelans = played.brelans(report)
    rows = []
    for seat in sorted(dealt_in):
        if seat not in users:
            continue
        name = names[seat]
        rows.append(
            SeatResult(
                seat_no=seat,
                user_id=users[seat],
                stack_before=stacks_before[seat],
                stack_after=after[seat],
                net=after[seat] - stacks_before[seat],
                won=name in winners,
                bourres_paid=paid.get(name, 0),
                brelan=name in brelans,
            )
        )
    return rows
