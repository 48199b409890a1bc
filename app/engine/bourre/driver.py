"""Bourré's driver: how Salon's tables, logs and pages use this engine (rules/bourre.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from app.engine.base import Action, EngineError, Game
from app.engine.bourre import tablelog
from app.engine.bourre.bench import bench_bourre
from app.engine.bourre.config import (
    OPTION_INFO,
    PRESETS,
    REFUSED_COMBINATIONS,
    BourreRules,
    preset,
)
from app.engine.bourre.deck import FULL_PACK, SeededDeck
from app.engine.bourre.session import BourreSession
from app.engine.bourre.state import BourreHand
from app.engine.driver import (
    BenchTable,
    EngineHand,
    GameLog,
    LiveHand,
    RulesDriver,
    Said,
    StakeField,
    TableSeating,
    lowest_card,
)
from app.engine.options import N_, RuleOptions


class BourreLiveHand(EngineHand[BourreSession, BourreHand]):
    def timeout_action(self, seat: int) -> Action:
        """What the timer does (issue of the live tables): pass at a declaration, keep every
        card at the draw (or, having taken the turned card, let go of the lowest), the
        lowest legal card in play. A dealer who may not pass (ace turned) plays."""
        legal = list(self._hand.legal_actions(seat))
        kinds = {a.kind for a in legal}
        if "pass" in kinds:
            return Action(seat, "pass")
        if "play" in kinds:
            return Action(seat, "play")
        if "card" in kinds:
            return Action(seat, "card", card=lowest_card(a.card for a in legal if a.card))
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            fewest = min(len(a.cards or ()) for a in discards)
            options = [a for a in discards if len(a.cards or ()) == fewest]
            if fewest == 0:
                return options[0]
            return min(options, key=lambda a: [lowest_card([c]) for c in a.cards or ()])
        return legal[0]

    def _carried_state(self) -> dict[str, Any]:
        return {"button": self._session.button, "exempt": sorted(self._session.exempt)}

    def _report(self, result: Any, names: Sequence[str]) -> dict[str, Any]:
        return tablelog.hand_report(result, names)

    def _entry(self) -> dict[str, Any]:
        return tablelog.hand_entry(self._hand)


class BourreDriver(RulesDriver):
    name = "bourre"
    title = N_("Bourré")
    min_seats = 2
    max_seats = 8
    default_seats = 5
    rules_type = BourreRules
    option_info = OPTION_INFO
    refused_combinations = REFUSED_COMBINATIONS
    presets = PRESETS
    buy_in_option: str | None = None
    # The pot-limit preset has no limit of its own: the form asks for one, starting at 50.
    stake_fields = (StakeField("ante"), StakeField("pot_limit", value=50, preset="pot_limit"))
    hand_type = BourreHand
    log = GameLog(tablelog.parse_rules, tablelog.parse_hand, tablelog.replay, tablelog.parse_action)

    def preset_names(self) -> list[str]:
        return [*PRESETS, "pot_limit"]

    def _preset(self, name: str, overrides: Mapping[str, Any]) -> RuleOptions:
        limit = overrides.get("pot_limit")  # the pot-limit preset takes its limit from here
        return preset(name, pot_limit=limit if isinstance(limit, int) else None)

    def deal(
        self,
        rules: Any,
        stacks: Sequence[int],
        pot: int,
        state: Mapping[str, Any],
        seed: bytes,
        sitting_out: Iterable[int],
    ) -> LiveHand:
        session = BourreSession(
            rules,
            list(stacks),
            button=int(state.get("button", 0)) % len(stacks),
            pot=pot,
            exempt=[int(s) for s in state.get("exempt", [])],
        )
        hand = session.start_hand(seed=seed, sitting_out=sitting_out)
        return BourreLiveHand(session, hand)

    def header(self, state: Mapping[str, Any]) -> dict[str, Any]:
        header: dict[str, Any] = {"dealer": int(state.get("button", 0))}
        if state.get("exempt"):
            header["exempt"] = sorted(int(s) for s in state["exempt"])
        return header

    def hand_entry(self, hand: Game, *, as_deck: bool = False) -> dict[str, Any]:
        assert isinstance(hand, BourreHand)
        return tablelog.hand_entry(hand, as_deck=as_deck)

    betting_rounds = False

    def at_stake(self, report: Mapping[str, Any]) -> int:
        """The pot played for."""
        return int(report.get("pot", 0))

    def winners(self, report: Mapping[str, Any]) -> set[str]:
        return {report["winner"]} if report.get("winner") else set()

    def bourres_paid(self, rules: Mapping[str, Any], report: Mapping[str, Any]) -> dict[str, int]:
        """rules/bourre.md §7: a player bourré pays the pot at stake, capped by `pot_limit`."""
        at_stake = int(report.get("pot", 0))
        limit = rules.get("pot_limit")
        payment = at_stake if limit is None else min(at_stake, int(limit))
        return {name: payment for name in report.get("bourre", [])}

    def brelans(self, report: Mapping[str, Any]) -> set[str]:
        return set()

    def result_said(self, report: Mapping[str, Any], who: Callable[[str], str]) -> list[Said]:
        said: list[Said]
        if not report.get("players"):
            said = [(N_("Nobody played: the pot stays."), {})]
        elif report.get("winner"):
            winner = who(report["winner"])
            said = [
                (N_("{name} wins the pot of {pot}."), {"name": winner, "pot": report.get("pot", 0)})
            ]
        else:
            said = [(N_("Tied for most tricks: the pot stays."), {})]
        bourre = [who(n) for n in report.get("bourre", [])]
        if bourre:
            said.append((N_("Bourré: {names}."), {"names": ", ".join(bourre)}))
        return said

    def table_card(self, view: Mapping[str, Any]) -> tuple[str, str] | None:
        turned = view.get("turned_card")
        return (N_("Trump: {card} turned"), str(turned)) if turned else None

    # All 52 cards, however many players are dealt in (rules/bourre.md §1).
    packs = MappingProxyType({players: FULL_PACK for players in range(min_seats, max_seats + 1)})

    def dealt_deck(self, seed: bytes, dealt: int) -> list[int]:
        """The whole pack, whoever is dealt in."""
        return list(SeededDeck(seed).deck())

    bench_resets = "table resets"

    bench = staticmethod(bench_bourre)
    # Deep stacks over a wide range: a robot buys again once it is down to a tenth.
    bench_table = BenchTable(buy_in_min=100, buy_in_max=100_000, buy_in=10_000)

    def first_seating(self, rules: Any, joined: Sequence[int], seed: bytes) -> TableSeating | None:
        return None

    def buy_in_rule(self, rules: Any, low: int, high: int) -> EngineError | None:
        assert isinstance(rules, BourreRules)
        if low < rules.ante:
            return EngineError(
                "buy_in_below_ante",
                f"The smallest buy-in must cover the ante ({rules.ante}).",
                details={"ante": rules.ante},
            )
        return None

    def top_up_rule(self, rules: Any, stack: int, amount: int) -> EngineError | None:
        return None
