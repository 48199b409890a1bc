"""What one seat (or a spectator) may see of a Bouillotte hand, built from a whitelist.

Nothing here copies the hand's state and removes secrets: each field is chosen because the
viewer may see it (DESIGN.md, "Server-authoritative, fail closed"). Public: the upcard once
dealt, stacks, stakes, the pot and its dead money, the straddles, who has folded, whose turn
it is. Private to a seat: its own three cards and what it may do. Nobody sees another
player's cards before the showdown, folded ones included; at the showdown every hand dealt in
is shown, folded ones too (rules/bouillotte.md §6, §8, §9). A hand won without a showdown
shows nothing.
"""

from __future__ import annotations

from typing import Any

from app.engine.bouillotte.choices import Choices
from app.engine.bouillotte.ranking import hand_names
from app.engine.bouillotte.state import FOLDED, OPENING, OUT, OVER, BouillotteHand
from app.engine.cards import CARD_NAMES


def _public_status(hand: BouillotteHand, seat: int) -> str:
    status = hand.status[seat]
    if status == OUT:
        return "out"
    if status == FOLDED:
        return "folded"
    return "all_in" if hand.stacks[seat] == 0 else "in"


def build_view(hand: BouillotteHand, viewer: int | None) -> dict[str, Any]:
    """The view of ``viewer`` (a seat number, or None for a spectator)."""
    seats = [
        {
            "seat": seat,
            "stack": hand.stacks[seat],
            "stake": hand.stakes[seat],
            "status": _public_status(hand, seat),
            "cards": 3 if hand.dealt and hand.status[seat] != OUT else 0,
        }
        for seat in range(hand.n)
    ]
    view: dict[str, Any] = {
        "game": "bouillotte",
        "phase": hand.phase_name,
        "direction": hand.rules.direction,
        "dealer": hand.dealer,
        "order": list(hand.order),
        "pot": hand.pot,
        "dead_money": hand.dead,
        "highest_stake": hand.highest,
        "opened": hand.aggressor >= 0,
        "opener": hand.opener if hand.opener >= 0 else None,
        "last_raiser": hand.aggressor if hand.aggressor >= 0 else None,
        "last_straddler": hand.last_straddler if hand.last_straddler >= 0 else None,
        "straddles": [
            {"action": kind, "seat": seat, "added": added} for kind, seat, added in hand.straddles
        ],
        "upcard": CARD_NAMES[hand.upcard] if hand.dealt else None,
        "to_act": list(hand.to_act()),
        "seats": seats,
        "viewer": viewer,
    }
    if hand.phase == OPENING:
        view["opening_minimum"] = hand.opening_minimum()
    if type(viewer) is int and 0 <= viewer < hand.n and hand.status[viewer] != OUT:
        view["hand"] = hand_names(hand.hands[viewer]) if hand.dealt else []
        view["to_call"] = hand.owed(viewer)
        legal = hand.legal_actions(viewer)
        view["legal_actions"] = legal.to_list() if isinstance(legal, Choices) else []
    result = hand.result
    if hand.phase == OVER and result is not None:
        view["result"] = {
            "players": list(result.players),
            "pots": [{"amount": a, "winner": w} for a, w in result.pots],
            "bonuses": [{"from": f, "to": t, "amount": a} for f, t, a in result.bonuses],
            "suit_points": dict(result.suit_points),
            "carry": result.carry,
            "thrown_in": result.thrown_in,
        }
        if result.showdown:
            view["showdown"] = {
                str(seat): {"rank": rank, "cards": hand_names(cards)}
                for seat, (rank, cards) in result.showdown.items()
            }
    return view
