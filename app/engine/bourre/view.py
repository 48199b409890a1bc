"""What one seat (or a spectator) may see of a hand, built from a whitelist.

Nothing here copies the hand's state and removes secrets: each field is chosen because the
viewer may see it (DESIGN.md, "Server-authoritative, fail closed"). Public: the turned card,
cards played to tricks, a turned card the dealer discarded face up, how many cards each
player holds and has exchanged, whether each has made their draw yet (``drawn``: one who
exchanged none has drawn too), stacks, pot, whose turn it is. Private to a seat: its own
cards, its own discards and what it may do. Simultaneous declarations are shown only as
"committed" until the last one is in (rules/bourre.md §4).
"""

from __future__ import annotations

from typing import Any

from app.engine.bourre.state import (
    DECLARE,
    FOLDED,
    OUT,
    OVER,
    PLAYING,
    BourreHand,
)
from app.engine.cards import CARD_NAMES, SUITS, names_in


def _public_status(hand: BourreHand, seat: int) -> str:
    status = hand.status[seat]
    if status == OUT:
        return "out"
    if status == FOLDED:
        return "passed"
    if hand.phase == DECLARE and hand.rules.declare == "simultaneous":
        return "deciding" if seat in hand.pending else "committed"
    if status == PLAYING:
        return "playing"
    return "to_declare"


def build_view(hand: BourreHand, viewer: int | None) -> dict[str, Any]:
    """The view of ``viewer`` (a seat number, or None for a spectator)."""
    seats = []
    for seat in range(hand.n):
        seats.append(
            {
                "seat": seat,
                "stack": hand.stacks[seat],
                "status": _public_status(hand, seat),
                "cards": hand.hands[seat].bit_count(),
                "exchanged": hand.discards[seat].bit_count(),
                "drawn": bool(hand.drawn >> seat & 1),
                "tricks": hand.tricks_won[seat],
            }
        )
    view: dict[str, Any] = {
        "game": "bourre",
        "phase": hand.phase_name,
        "hand_size": hand.hand_size,
        "dealer": hand.dealer,
        "trump": SUITS[hand.trump],
        "turned_card": CARD_NAMES[hand.turned],
        "turned_card_dead": hand.turned_dead,
        "face_up_discards": names_in(
            hand.public_out & ~(1 << hand.turned) if hand.turned_dead else hand.public_out
        ),
        "pot": hand.pot,
        "stock": len(hand.stock),
        "to_act": list(hand.to_act()),
        "seats": seats,
        "trick": [{"seat": s, "card": CARD_NAMES[c]} for s, c in hand.trick],
        "tricks": [
            {
                "leader": leader,
                "cards": [{"seat": s, "card": CARD_NAMES[c]} for s, c in cards],
                "winner": winner,
            }
            for leader, cards, winner in hand.completed
        ],
        "viewer": viewer,
    }
    if viewer is not None and 0 <= viewer < hand.n:
        view["hand"] = names_in(hand.hands[viewer])
        view["my_discards"] = names_in(hand.discards[viewer])
        if hand.phase == DECLARE and viewer in hand.commits:
            view["my_declaration"] = "play" if hand.commits[viewer] else "pass"
        view["legal_actions"] = [a.to_dict() for a in hand.legal_actions(viewer)]
    if hand.phase == OVER and hand.result is not None:
        result = hand.result
        view["result"] = {
            "pot": result.pot,
            "players": list(result.players),
            "tricks": {str(k): v for k, v in result.tricks.items()},
            "winner": result.winner,
            "won": result.won,
            "bourre": list(result.bourre),
            "carry": result.carry,
        }
    return view
