"""What a game offers the rest of Salon: its driver.

A `GameDriver` turns a table's stored state (rules, stacks, carried pot, what the engine
keeps between hands) into a live hand, says what the turn timer does for a seat that does
not act, and turns a finished hand into its outcome: new stacks, the pot left on the table,
the hand-history entry and the replay report. It also names the game, bounds its seats and
plugs its table log in. The runtime never looks inside an engine; each game's driver lives
in its own folder (``app/engine/<game>/driver.py``) and ``app.engine.registry`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from app.engine.base import Action, EngineError, Event, Game
from app.engine.cards import CARD_INDEX, rank_of, suit_of
from app.engine.options import OptionInfo, RefusedCombination, RuleOptions

# A sentence for a person: its words, marked with ``N_`` and said by the app in the
# reader's language, and the values of their ``{name}``-style placeholders.
Said = tuple[str, Mapping[str, object]]


class RandomSource(Protocol):
    """What the bench needs of ``random.Random``."""

    def random(self) -> float: ...

    def randbytes(self, n: int, /) -> bytes: ...


class TableSeating(NamedTuple):
    """The seating of a table's first hand, in seat numbers. ``moves``: the seat a player
    took on joining -> the seat they sit on now; ``dealer``: the seat that deals first;
    ``drawn``: seat (now) -> the card its player drew, from the king down (empty for
    ``as_joined``)."""

    moves: dict[int, int]
    dealer: int
    drawn: dict[int, str]


__all__ = [
    "BenchTable",
    "EngineHand",
    "GameDriver",
    "GameLog",
    "HandOutcome",
    "LiveHand",
    "RulesDriver",
    "StakeField",
    "lowest_card",
    "timeout_said",
]


@dataclass(frozen=True, slots=True)
class GameLog:
    """How one game reads its rules and hands in a table log and replays them."""

    parse_rules: Callable[[object, str], Any]
    parse_hand: Callable[[object, str], Any]
    replay: Callable[..., dict[str, Any]]
    parse_action: Callable[[object, str], Action]


@dataclass(frozen=True, slots=True)
class StakeField:
    """One of a game's stakes as the lobby's form asks for it when a table is opened; its
    words and smallest value are the option's own (`OptionInfo`)."""

    option: str
    # What the form starts from; None: the option's default in the game's rules.
    value: int | None = None
    # Asked for only with this preset (it has no value without one), else with every choice.
    preset: str | None = None


@dataclass(frozen=True, slots=True)
class BenchTable:
    """A table as ``salon bench live`` opens one of this game: stakes at which its robots
    play many hands without running dry, and the house rules the bench needs over the
    defaults (robot n sits at seat n, so no seat draw may move it)."""

    buy_in_min: int
    buy_in_max: int
    # What a robot sits down with, and buys again when it runs low, as far as the game's
    # `top_up_rule` lets it.
    buy_in: int
    rules: Mapping[str, Any] = field(default_factory=dict)


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
    """One game, as the rest of Salon uses it (see the module's text)."""

    # The key stored with a table and written in its logs ("bourre").
    name: str
    # How people read it ("Bourré").
    title: str
    min_seats: int
    max_seats: int
    # The seats a new table is offered with.
    default_seats: int
    # The house-rule option whose value is the whole buy-in and every top-up (Bouillotte's
    # cave), or None where the table sets a buy-in range.
    buy_in_option: str | None
    # The table-log plug-in: what `app.engine.log` parses and replays with.
    log: GameLog

    # Read-only below, so that each driver may name its own engine's classes and tables.
    @property
    def hand_type(self) -> type[Game]:
        """The engine's hand class, to find the game of a hand already dealt."""
        ...

    @property
    def rules_type(self) -> type[RuleOptions]:
        """The engine's house-rules class."""
        ...

    @property
    def option_info(self) -> Mapping[str, OptionInfo]:
        """Each option's words, allowed values and explanation, for the forms."""
        ...

    @property
    def refused_combinations(self) -> tuple[RefusedCombination, ...]:
        """Options the engine refuses together, for the forms."""
        ...

    @property
    def presets(self) -> Mapping[str, RuleOptions]:
        """The named house rules the engine ships."""
        ...

    @property
    def stakes(self) -> tuple[str, ...]:
        """The options a table's opener sets as its stakes, over a configuration's values."""
        ...

    @property
    def stake_fields(self) -> tuple[StakeField, ...]:
        """The same stakes, as the lobby's form asks for them."""
        ...

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

    def hand_entry(self, hand: Game, *, as_deck: bool = False) -> dict[str, Any]:
        """The table-log entry of a played hand (its seed or deck, and its actions)."""
        ...

    # A finished hand, read back for its history (the report: spec/table-log.md "Replay");
    # `bourres_paid` and `brelans` fill the per-seat statistics of the same names.
    # True where a hand's steps belong to betting rounds named by the view's ``phase``.
    betting_rounds: bool

    def at_stake(self, report: Mapping[str, Any]) -> int:
        """The chips at stake in a finished hand."""
        ...

    def winners(self, report: Mapping[str, Any]) -> set[str]:
        """The names of the players who won chips."""
        ...

    def bourres_paid(self, rules: Mapping[str, Any], report: Mapping[str, Any]) -> dict[str, int]:
        """By name, what a player paid for going bourré (Bourré only; empty elsewhere)."""
        ...

    def brelans(self, report: Mapping[str, Any]) -> set[str]:
        """The names of the players who showed a brelan (Bouillotte only; empty elsewhere)."""
        ...

    def result_said(self, report: Mapping[str, Any], who: Callable[[str], str]) -> list[Said]:
        """The hand's end in sentences, each its words (marked with ``N_``, ``{name}``-style
        placeholders: the app says them in the reader's language) and the values that fill
        them; `who` turns a log name into a display name."""
        ...

    def table_card(self, view: Mapping[str, Any]) -> tuple[str, str] | None:
        """The card face up on the table in a hand's view, with the words around it
        (``"Trump: {card} turned"``, marked with ``N_``: the app says them in the reader's
        language), or None."""
        ...

    @property
    def packs(self) -> Mapping[int, tuple[int, ...]]:
        """For each number of players dealt in (``min_seats`` to ``max_seats``), the cards
        a hand is shuffled from, in canonical order (card numbers ascending): what the
        browser's verifier (static/js/fair.js) shuffles, served with the game's
        description."""
        ...

    def dealt_deck(self, seed: bytes, dealt: int) -> list[int]:
        """The pack a hand of `dealt` players was dealt from, top first (shuffle 0 of its
        seed, docs/fair-shuffle.md)."""
        ...

    # ``salon bench engine``: what the bench calls the resets that keep play going, and the
    # game's own bench (random legal play with the default rules).
    bench_resets: str
    bench: EngineBench
    # ``salon bench live``: the tables it opens.
    bench_table: BenchTable

    def first_seating(self, rules: Any, joined: Sequence[int], seed: bytes) -> TableSeating | None:
        """Where the players sit for a table's first hand, and who deals it; `joined`: the
        seats they took, in the order they joined. None: they stay, the button decides."""
        ...

    def buy_in_rule(self, rules: Any, low: int, high: int) -> EngineError | None:
        """Why a table's buy-in range does not suit these rules (a refusal to raise or
        show), or None."""
        ...

    def top_up_rule(self, rules: Any, stack: int, amount: int) -> EngineError | None:
        """Why this top-up is not allowed by the game itself, or None."""
        ...


def lowest_card(cards: Iterable[str]) -> str:
    """The lowest card by rank (2 lowest), then by suit order: what a player who lets the
    clock run out would throw away."""
    return min(cards, key=lambda name: (rank_of(CARD_INDEX[name]), suit_of(CARD_INDEX[name])))


class EngineBench(Protocol):
    """A game's engine bench: ``hands`` hands of random legal play with the default rules;
    returns (actions, resets, wall seconds, cpu seconds)."""

    def __call__(
        self,
        players: int,
        hands: int,
        rng: RandomSource,
        *,
        clock: Callable[[], float],
        cpu_clock: Callable[[], float],
    ) -> tuple[int, int, float, float]: ...


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


class RulesDriver:
    """How every driver reads, names and writes house rules; a game supplies its rules class
    and how it builds a named preset."""

    rules_type: type[RuleOptions]
    stake_fields: tuple[StakeField, ...]

    def parse_rules(self, rules: Mapping[str, Any]) -> RuleOptions:
        return self.rules_type.from_dict(rules)

    def resolve_rules(self, preset: str | None, overrides: Mapping[str, Any]) -> RuleOptions:
        if preset is None:
            return self.parse_rules(overrides)
        return self.parse_rules({**self._preset(preset, overrides).to_dict(), **overrides})

    def rules_dict(self, rules: Any) -> dict[str, Any]:
        assert isinstance(rules, self.rules_type)
        return rules.to_dict()

    @property
    def stakes(self) -> tuple[str, ...]:
        """The options a table's opener sets as its stakes: those of `stake_fields`."""
        return tuple(stake.option for stake in self.stake_fields)

    def _preset(self, name: str, overrides: Mapping[str, Any]) -> RuleOptions:
        raise NotImplementedError


class DealtHand(Game, Protocol):
    """What an engine's hand shows besides the `Game` moves."""

    @property
    def dealer(self) -> int: ...

    @property
    def order(self) -> tuple[int, ...]: ...

    @property
    def start_events(self) -> list[Event]: ...


class HandSession(Protocol):
    """An engine's run of hands at one table: stacks and pot carried from hand to hand."""

    @property
    def stacks(self) -> list[int]: ...

    @property
    def pot(self) -> int: ...

    def close_hand(self) -> Any: ...


SessionT = TypeVar("SessionT", bound=HandSession)
HandT = TypeVar("HandT", bound=DealtHand)


class EngineHand(Generic[SessionT, HandT]):
    """What every game's live hand offers the runtime in the same way; a game adds its
    timeout policy, what it carries to the next hand, its report and its log entry."""

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
