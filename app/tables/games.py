"""How the table runtime drives each game's engine.

A `GameDriver` turns a table's stored state (rules, stacks, carried pot, what the engine
keeps between hands) into a live hand, says what the turn timer does for a seat that does
not act, and turns a finished hand into its outcome: new stacks, the pot left on the table,
the hand-history entry and the replay report. The runtime never looks inside an engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from app.engine.base import Action, EngineError, Event, Game
from app.engine.bouillotte import PRESETS as BOUILLOTTE_PRESETS
from app.engine.bouillotte import BouillotteRules
from app.engine.bouillotte import preset as bouillotte_preset
from app.engine.bouillotte import tablelog as bouillotte_log
from app.engine.bouillotte.seating import TableSeating, seat_at_table
from app.engine.bouillotte.session import BouillotteSession
from app.engine.bouillotte.state import MAX_PLAYERS, MIN_PLAYERS, BouillotteHand
from app.engine.bourre import PRESETS, BourreHand, BourreRules, BourreSession, ConfigError
from app.engine.bourre import preset as bourre_preset
from app.engine.bourre import tablelog as bourre_log
from app.engine.cards import CARD_INDEX, rank_of, suit_of
from app.engine.options import RuleOptions


@dataclass(frozen=True, slots=True)
class HandOutcome:
    stacks: list[int]
    pot: int
    # What the engine carries to the next hand (button, exemptions…), JSON-ready.
    state: dict[str, Any]
    # The spec's per-hand replay report, with the players' names.
    report: dict[str, Any]
    # The table-log entry of the hand (seed, actions, sitting_out).
    entry: dict[str, Any]


class LiveHand(Protocol):
    """A dealt hand: the engine's `Game`, plus what the runtime needs around it."""

    @property
    def game(self) -> Game: ...

    @property
    def start_events(self) -> list[Event]: ...

    @property
    def dealer(self) -> int: ...

    @property
    def dealt_in(self) -> frozenset[int]:
        """Seats dealt into this hand: their stacks are at stake until it is settled."""
        ...

    def timeout_action(self, seat: int) -> Action: ...

    def finish(self, names: Sequence[str]) -> HandOutcome: ...


class GameDriver(Protocol):
    name: str
    min_seats: int
    max_seats: int

    def parse_rules(self, rules: Mapping[str, Any]) -> Any:
        """The engine's config, or `ConfigError` (code, message, field)."""
        ...

    def preset_names(self) -> list[str]: ...

    def resolve_rules(self, preset: str | None, overrides: Mapping[str, Any]) -> Any:
        """A named preset with some options changed (or the defaults), validated."""
        ...

    def rules_dict(self, rules: Any) -> dict[str, Any]: ...

    def deal(
        self,
        rules: Any,
        stacks: Sequence[int],
        pot: int,
        state: Mapping[str, Any],
        seed: bytes,
        sitting_out: Iterable[int],
    ) -> LiveHand:
        """Deal the next hand, or raise `EngineError` (e.g. not_enough_players)."""
        ...

    def header(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """The table-log header fields this game adds for a hand (dealer, exempt…)."""
        ...

    def first_seating(self, rules: Any, joined: Sequence[int], seed: bytes) -> TableSeating | None:
        """Where the players sit for a table's first hand, and who deals it; `joined`: the
        seats they took, in the order they joined. None: they stay, the button decides."""
        ...

    def buy_in_rule(self, rules: Any, low: int, high: int) -> str | None:
        """Why a table's buy-in range does not suit these rules, or None."""
        ...

    def top_up_rule(self, rules: Any, stack: int, amount: int) -> str | None:
        """Why this top-up is not allowed by the game itself, or None."""
        ...


def _lowest(cards: Iterable[str]) -> str:
    """The lowest card by rank (2 lowest), then by suit order: what a player who lets the
    clock run out would throw away."""
    return min(cards, key=lambda name: (rank_of(CARD_INDEX[name]), suit_of(CARD_INDEX[name])))


def timeout_said(action: Action) -> dict[str, Any]:
    """What everyone is told the turn timer did for a seat: the kind of action, the card it
    played (face up on the table at once) or the amount it staked, and how many cards it
    exchanged, never which (a player's discards are theirs alone)."""
    said: dict[str, Any] = {"action": action.kind}
    if action.card is not None:
        said["card"] = action.card
    if action.cards is not None:
        said["count"] = len(action.cards)
    if action.amount is not None:
        said["amount"] = action.amount
    return said


SessionT = TypeVar("SessionT", BourreSession, BouillotteSession)
HandT = TypeVar("HandT", BourreHand, BouillotteHand)


class _EngineHand(Generic[SessionT, HandT]):
    """What both games' hands offer the runtime in the same way."""

    def __init__(self, session: SessionT, hand: HandT) -> None:
        self._session: SessionT = session
        self._hand: HandT = hand

    @property
    def game(self) -> Game:
        return self._hand

    @property
    def start_events(self) -> list[Event]:
        return self._hand.start_events

    @property
    def dealer(self) -> int:
        return self._hand.dealer

    @property
    def dealt_in(self) -> frozenset[int]:
        return frozenset(self._hand.order)

    def finish(self, names: Sequence[str]) -> HandOutcome:
        result = self._session.close_hand()
        return HandOutcome(
            stacks=list(self._session.stacks),
            pot=self._session.pot,
            state=self._carried_state(),
            report=self._report(result, names),
            entry=self._entry(),
        )

    def _carried_state(self) -> dict[str, Any]:
        """What the engine keeps for the next hand (the dealer button…), JSON-ready."""
        raise NotImplementedError

    def _report(self, result: Any, names: Sequence[str]) -> dict[str, Any]:
        raise NotImplementedError

    def _entry(self) -> dict[str, Any]:
        raise NotImplementedError


class _BourreLiveHand(_EngineHand[BourreSession, BourreHand]):
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
            return Action(seat, "card", card=_lowest(a.card for a in legal if a.card))
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            fewest = min(len(a.cards or ()) for a in discards)
            options = [a for a in discards if len(a.cards or ()) == fewest]
            if fewest == 0:
                return options[0]
            return min(options, key=lambda a: [_lowest([c]) for c in a.cards or ()])
        return legal[0]

    def _carried_state(self) -> dict[str, Any]:
        return {"button": self._session.button, "exempt": sorted(self._session.exempt)}

    def _report(self, result: Any, names: Sequence[str]) -> dict[str, Any]:
        return bourre_log.hand_report(result, names)

    def _entry(self) -> dict[str, Any]:
        return bourre_log.hand_entry(self._hand)


class _RulesDriver:
    """How both drivers read, name and write house rules; a game supplies its rules class
    and how it builds a named preset."""

    rules_type: type[RuleOptions]

    def parse_rules(self, rules: Mapping[str, Any]) -> RuleOptions:
        return self.rules_type.from_dict(rules)

    def resolve_rules(self, preset: str | None, overrides: Mapping[str, Any]) -> RuleOptions:
        if preset is None:
            return self.parse_rules(overrides)
        return self.parse_rules({**self._preset(preset, overrides).to_dict(), **overrides})

    def rules_dict(self, rules: Any) -> dict[str, Any]:
        assert isinstance(rules, self.rules_type)
        return rules.to_dict()

    def _preset(self, name: str, overrides: Mapping[str, Any]) -> RuleOptions:
        raise NotImplementedError


class BourreDriver(_RulesDriver):
    name = "bourre"
    min_seats = 2
    max_seats = 8
    rules_type = BourreRules

    def preset_names(self) -> list[str]:
        return [*PRESETS, "pot_limit"]

    def _preset(self, name: str, overrides: Mapping[str, Any]) -> RuleOptions:
        limit = overrides.get("pot_limit")  # the pot-limit preset takes its limit from here
        return bourre_preset(name, pot_limit=limit if isinstance(limit, int) else None)

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
        return _BourreLiveHand(session, hand)

    def header(self, state: Mapping[str, Any]) -> dict[str, Any]:
        header: dict[str, Any] = {"dealer": int(state.get("button", 0))}
        if state.get("exempt"):
            header["exempt"] = sorted(int(s) for s in state["exempt"])
        return header

    def first_seating(self, rules: Any, joined: Sequence[int], seed: bytes) -> TableSeating | None:
        return None

    def buy_in_rule(self, rules: Any, low: int, high: int) -> str | None:
        assert isinstance(rules, BourreRules)
        if low < rules.ante:
            return f"The smallest buy-in must cover the ante ({rules.ante})."
        return None

    def top_up_rule(self, rules: Any, stack: int, amount: int) -> str | None:
        return None


class _BouillotteLiveHand(_EngineHand[BouillotteSession, BouillotteHand]):
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
        return bouillotte_log.hand_report(result, names)

    def _entry(self) -> dict[str, Any]:
        return bouillotte_log.hand_entry(self._hand)


class BouillotteDriver(_RulesDriver):
    name = "bouillotte"
    min_seats = 3
    max_seats = 5
    rules_type = BouillotteRules

    def preset_names(self) -> list[str]:
        return list(BOUILLOTTE_PRESETS)

    def _preset(self, name: str, overrides: Mapping[str, Any]) -> RuleOptions:
        return bouillotte_preset(name)

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
        return _BouillotteLiveHand(session, hand)

    def header(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return {"dealer": int(state.get("button", 0))}

    def first_seating(self, rules: Any, joined: Sequence[int], seed: bytes) -> TableSeating | None:
        """rules/bouillotte.md §1 ``seating``, applied when a hand can be dealt (3 to 5)."""
        assert isinstance(rules, BouillotteRules)
        if not MIN_PLAYERS <= len(joined) <= MAX_PLAYERS:
            return None
        return seat_at_table(rules, joined, seed)

    def buy_in_rule(self, rules: Any, low: int, high: int) -> str | None:
        """rules/bouillotte.md §1: everyone sits down with the same cave."""
        assert isinstance(rules, BouillotteRules)
        if low != rules.cave or high != rules.cave:
            return f"At Bouillotte everyone buys the same cave: the buy-in is {rules.cave}."
        return None

    def top_up_rule(self, rules: Any, stack: int, amount: int) -> str | None:
        """rules/bouillotte.md §1: a new cave only once every chip is lost."""
        assert isinstance(rules, BouillotteRules)
        if stack > 0:
            return f"A new cave can be bought only when the old one is empty ({stack} left)."
        if amount != rules.cave:
            return f"A new cave is {rules.cave} chips."
        return None


DRIVERS: dict[str, GameDriver] = {"bourre": BourreDriver(), "bouillotte": BouillotteDriver()}


def driver(game: str) -> GameDriver:
    try:
        return DRIVERS[game]
    except KeyError:
        raise EngineError("unknown_game", f"Salon does not deal {game!r}.") from None


__all__ = [
    "DRIVERS",
    "ConfigError",
    "GameDriver",
    "HandOutcome",
    "LiveHand",
    "driver",
    "timeout_said",
]
