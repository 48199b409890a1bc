"""Bouillotte's driver: how Salon's tables, logs and pages use this engine
(rules/bouillotte.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from app.engine.base import Action, EngineError, Game
from app.engine.bouillotte import tablelog
from app.engine.bouillotte.bench import bench_bouillotte
from app.engine.bouillotte.config import (
    OPTION_INFO,
    PRESETS,
    REFUSED_COMBINATIONS,
    BouillotteRules,
    preset,
)
from app.engine.bouillotte.deck import PACKS, SeededDeck
from app.engine.bouillotte.seating import seat_at_table
from app.engine.bouillotte.session import BouillotteSession
from app.engine.bouillotte.state import MAX_PLAYERS, MIN_PLAYERS, BouillotteHand
from app.engine.driver import (
    BenchTable,
    EngineHand,
    GameLog,
    LiveHand,
    RulesDriver,
    Said,
    StakeField,
    TableSeating,
)
from app.engine.options import N_, RuleOptions

# Showdown ranks that count as a brelan (a carré is a brelan and the upcard).
BRELAN_RANKS = frozenset({"brelan", "carre"})

DEFAULT_CAVE = BouillotteRules().cave


class BouillotteLiveHand(EngineHand[BouillotteSession, BouillotteHand]):
    def timeout_action(self, seat: int) -> Action:
        """What the timer does (live-tables rules: "pass or fold"): decline a straddle or a
        buy-back, pass before the opening, decline to raise again in the continuation
        round; after the opening fold, unless calling costs nothing, which a careful player
        would never throw away: a level player's free call in the call round (the dealer
        after an opening at his chips, the last straddler after an opening at the straddle,
        rules/bouillotte.md §5, §8)."""
        legal = list(self._hand.legal_actions(seat))
        by_kind = {a.kind: a for a in legal}
        for kind in ("decline", "pass"):
            if kind in by_kind:
                return by_kind[kind]
        if "call" in by_kind and self._hand.owed(seat) == 0:
            return by_kind["call"]
        if "fold" in by_kind:
            return by_kind["fold"]
        return legal[0]

    def _carried_state(self) -> dict[str, Any]:
        return {"button": self._session.button}

    def _report(self, result: Any, names: Sequence[str]) -> dict[str, Any]:
        return tablelog.hand_report(result, names)

    def _entry(self) -> dict[str, Any]:
        return tablelog.hand_entry(self._hand)


class BouillotteDriver(RulesDriver):
    name = "bouillotte"
    title = N_("Bouillotte")
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    default_seats = 4
    rules_type = BouillotteRules
    option_info = OPTION_INFO
    refused_combinations = REFUSED_COMBINATIONS
    presets = PRESETS
    buy_in_option: str | None = "cave"
    stake_fields = (StakeField("cave"),)
    hand_type = BouillotteHand
    log = GameLog(tablelog.parse_rules, tablelog.parse_hand, tablelog.replay, tablelog.parse_action)

    def preset_names(self) -> list[str]:
        return list(PRESETS)

    def _preset(self, name: str, overrides: Mapping[str, Any]) -> RuleOptions:
        return preset(name)

    def deal(
        self,
        rules: Any,
        stacks: Sequence[int],
        pot: int,
        state: Mapping[str, Any],
        seed: bytes,
        sitting_out: Iterable[int],
    ) -> LiveHand:
        session = BouillotteSession(
            rules, list(stacks), button=int(state.get("button", 0)) % len(stacks), pot=pot
        )
        hand = session.start_hand(seed=seed, sitting_out=sitting_out)
        return BouillotteLiveHand(session, hand)

    def header(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return {"dealer": int(state.get("button", 0))}

    def hand_entry(self, hand: Game, *, as_deck: bool = False) -> dict[str, Any]:
        assert isinstance(hand, BouillotteHand)
        return tablelog.hand_entry(hand, as_deck=as_deck)

    betting_rounds = True

    def at_stake(self, report: Mapping[str, Any]) -> int:
        """The pots won."""
        return sum(int(p["amount"]) for p in report.get("pots", []))

    def winners(self, report: Mapping[str, Any]) -> set[str]:
        return {p["winner"] for p in report.get("pots", []) if int(p["amount"]) > 0}

    def bourres_paid(self, rules: Mapping[str, Any], report: Mapping[str, Any]) -> dict[str, int]:
        return {}

    def brelans(self, report: Mapping[str, Any]) -> set[str]:
        """Who showed a brelan (or a carré), and who was paid a brelan bonus."""
        showdown = report.get("showdown", {})
        shown = {n for n, s in showdown.items() if s.get("rank") in BRELAN_RANKS}
        return shown | {b["to"] for b in report.get("bonuses", [])}

    def result_said(self, report: Mapping[str, Any], who: Callable[[str], str]) -> list[Said]:
        pots = report.get("pots", [])
        if not pots:
            return [(N_("Thrown in: the pot stays."), {})]
        return [
            (N_("{name} wins {amount}."), {"name": who(p["winner"]), "amount": p["amount"]})
            for p in pots
        ]

    def table_card(self, view: Mapping[str, Any]) -> tuple[str, str] | None:
        upcard = view.get("upcard")
        return (N_("Upcard: {card}"), str(upcard)) if upcard else None

    # A smaller pack by the number of players dealt in (rules/bouillotte.md §1).
    packs = PACKS

    def dealt_deck(self, seed: bytes, dealt: int) -> list[int]:
        """The pack of as many players as were dealt in (rules/bouillotte.md §1)."""
        return list(SeededDeck(seed).deck(dealt))

    bench_resets = "rebuys"

    bench = staticmethod(bench_bouillotte)
    # Everyone buys the same cave, and a new one only once it is gone (rules/bouillotte.md
    # §1); the robots keep the seats they took, as no seat draw moves them.
    bench_table = BenchTable(
        buy_in_min=DEFAULT_CAVE,
        buy_in_max=DEFAULT_CAVE,
        buy_in=DEFAULT_CAVE,
        rules={"seating": "as_joined"},
    )

    def first_seating(self, rules: Any, joined: Sequence[int], seed: bytes) -> TableSeating | None:
        """rules/bouillotte.md §1 ``seating``, applied when a hand can be dealt (3 to 5)."""
        assert isinstance(rules, BouillotteRules)
        if not MIN_PLAYERS <= len(joined) <= MAX_PLAYERS:
            return None
        return seat_at_table(rules, joined, seed)

    def buy_in_rule(self, rules: Any, low: int, high: int) -> EngineError | None:
        """rules/bouillotte.md §1: everyone sits down with the same cave."""
        assert isinstance(rules, BouillotteRules)
        if low != rules.cave or high != rules.cave:
            return EngineError(
                "buy_in_is_the_cave",
                f"At Bouillotte everyone buys the same cave: the buy-in is {rules.cave}.",
                details={"cave": rules.cave},
            )
        return None

    def top_up_rule(self, rules: Any, stack: int, amount: int) -> EngineError | None:
        """rules/bouillotte.md §1: a new cave only once every chip is lost."""
        assert isinstance(rules, BouillotteRules)
        if stack > 0:
            return EngineError(
                "rebuy_not_allowed",
                f"A new cave can be bought only when the old one is empty ({stack} left).",
                details={"chips": stack},
            )
        if amount != rules.cave:
            return EngineError(
                "rebuy_is_the_cave",
                f"A new cave is {rules.cave} chips.",
                details={"cave": rules.cave},
            )
        return None
