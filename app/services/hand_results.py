"""A finished hand's result, per seat: what the hand-history lists, filters and statistics
read (the `hand_seats` rows), computed once from the hand's replay report when it is settled.

Also which keys of a report are secret until the club's reveal policy allows them: the seed
(it derives the whole deck, folded hands included) and any other server seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Keys of a hand's report that are withheld from players until the hand is revealed.
SECRET_REPORT_KEYS = frozenset({"seed", "server_seed"})

# Bouillotte showdown ranks that count as a brelan (a carré is a brelan and the upcard).
BRELAN_RANKS = frozenset({"brelan", "carre"})


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
    """The chips at stake: Bourré, the pot played for; Bouillotte, the pots won."""
    if game == "bourre":
        return int(report.get("pot", 0))
    return sum(int(p["amount"]) for p in report.get("pots", []))


def _winners(game: str, report: Mapping[str, Any]) -> set[str]:
    if game == "bourre":
        return {report["winner"]} if report.get("winner") else set()
    return {p["winner"] for p in report.get("pots", []) if int(p["amount"]) > 0}


def _bourre_payment(rules: Mapping[str, Any], report: Mapping[str, Any]) -> int:
    """rules/bourre.md §7: a player bourré pays the pot at stake, capped by `pot_limit`."""
    at_stake = int(report.get("pot", 0))
    limit = rules.get("pot_limit")
    return at_stake if limit is None else min(at_stake, int(limit))


def _brelans(report: Mapping[str, Any]) -> set[str]:
    shown = {n for n, s in report.get("showdown", {}).items() if s.get("rank") in BRELAN_RANKS}
    return shown | {b["to"] for b in report.get("bonuses", [])}


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
    winners = _winners(game, report)
    bourre = set(report.get("bourre", [])) if game == "bourre" else set()
    payment = _bourre_payment(rules, report) if bourre else 0
    brelans = _brelans(report) if game == "bouillotte" else set()
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
                bourres_paid=payment if name in bourre else 0,
                brelan=name in brelans,
            )
        )
    return rows
