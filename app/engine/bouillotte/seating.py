"""Seating the players (rules/bouillotte.md §1, option ``seating``).

``draw``: one card of each rank from the king down is shuffled and drawn; the king chooses a
seat, the others sit to the king's right in descending order of the card they drew, and the
king deals first. ``as_joined``: players sit in the order they joined, the first to join on
seat 0 and dealing first.

Both are pure functions. The draw takes its cards either from a seed (shuffle 0 of the seed,
docs/fair-shuffle.md, applied to the drawing cards in canonical order) or from an explicit
list of the cards drawn, player by player in the order they joined.

At a club table each player has already taken a seat when the first hand comes:
``seat_at_table`` applies the rule to those seats (the table runtime moves the players).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from app.engine.base import EngineError
from app.engine.bouillotte.config import BouillotteRules
from app.engine.bouillotte.deck import EIGHT, JACK, KING, NINE, QUEEN
from app.engine.cards import CARD_NAMES, make_card, rank_of
from app.engine.driver import TableSeating
from app.engine.rng import shuffled

DRAW_RANKS = (KING, QUEEN, JACK, NINE, EIGHT)
"""The ranks drawn for seats, from the king down (the ace is not drawn): one per player."""
SPADES = 0


class Seating(NamedTuple):
    """``players_by_seat[s]`` is the player (index in join order) on seat ``s``.

    ``dealer`` deals the first hand; ``drawn[p]`` is the card player ``p`` drew (notation),
    empty for ``as_joined``.
    """

    players_by_seat: tuple[int, ...]
    dealer: int
    drawn: tuple[str, ...]


def _check_count(players: int) -> None:
    if not 3 <= players <= len(DRAW_RANKS):
        raise EngineError(
            "bad_table", f"Bouillotte seats 3 to 5 players, not {players}.", reason="bad table"
        )


def drawing_cards(players: int) -> list[int]:
    """The cards shuffled for the draw, in canonical order: K Q J 9 8 (spades), as needed."""
    _check_count(players)
    return sorted(make_card(rank, SPADES) for rank in DRAW_RANKS[:players])


def seating_from_draw(
    drawn: Sequence[int], *, direction: str = "counter_clockwise", king_seat: int = 0
) -> Seating:
    """Seats from the cards drawn (``drawn[p]`` by player ``p`` in join order).

    The king's holder takes ``king_seat`` (their choice) and deals first; the next highest
    card sits on the king's right, and so on going right (``direction``).
    """
    players = len(drawn)
    _check_count(players)
    ranks = [rank_of(card) for card in drawn]
    if len(set(ranks)) != players:
        raise EngineError("bad_draw", "Each player must draw a card of a different rank.")
    if not 0 <= king_seat < players:
        raise EngineError("bad_draw", f"There is no seat {king_seat} for the king.")
    step = -1 if direction == "counter_clockwise" else 1
    by_rank = sorted(range(players), key=lambda p: -ranks[p])
    seats = [0] * players
    for k, player in enumerate(by_rank):
        seats[(king_seat + step * k) % players] = player
    return Seating(tuple(seats), king_seat, tuple(CARD_NAMES[c] for c in drawn))


def draw_seating(
    players: int, seed: bytes, *, direction: str = "counter_clockwise", king_seat: int = 0
) -> Seating:
    """The seating draw derived from ``seed``: player ``p`` (join order) draws card ``p``."""
    drawn = shuffled(drawing_cards(players), seed, 0)
    return seating_from_draw(drawn, direction=direction, king_seat=king_seat)


def seat_players(
    rules: BouillotteRules, players: int, seed: bytes | None = None, *, king_seat: int = 0
) -> Seating:
    """Seat ``players`` by the table's ``seating`` rule (a seed is needed for ``draw``)."""
    if rules.seating == "as_joined":
        _check_count(players)
        return Seating(tuple(range(players)), 0, ())
    if seed is None:
        raise EngineError("bad_draw", "Seating by draw needs a seed.")
    return draw_seating(players, seed, direction=rules.direction, king_seat=king_seat)


def seat_at_table(rules: BouillotteRules, joined: Sequence[int], seed: bytes) -> TableSeating:
    """Apply the ``seating`` rule (§1) to players who took the seats ``joined``, listed in the
    order they joined; they move only among those seats, a seat's neighbours being the next
    seats taken on either side.

    Interpretation for a club table, where everyone chose a seat on joining: with ``draw``
    the king "chooses a seat" by keeping the one he took; he deals first and the others sit
    to his right in descending order of their cards. With ``as_joined`` everyone keeps the
    seat they took and the first to have joined deals first.
    """
    n = len(joined)
    seating = seat_players(rules, n, seed)
    if rules.seating == "as_joined":
        places = list(joined)
    else:  # turn the drawn arrangement round the seats so that the king keeps his own
        ring = sorted(joined)
        king = seating.players_by_seat[seating.dealer]
        shift = ring.index(joined[king]) - seating.dealer
        places = [ring[(pos + shift) % n] for pos in range(n)]
    by_seat = seating.players_by_seat
    moves = {joined[player]: places[pos] for pos, player in enumerate(by_seat)}
    # The cards from the king down: his seat, then going right round the seats.
    ranked = [(seating.dealer + rules.step * k) % n for k in range(n)] if seating.drawn else []
    drawn = {places[pos]: seating.drawn[by_seat[pos]] for pos in ranked}
    return TableSeating(moves, places[seating.dealer], drawn)
