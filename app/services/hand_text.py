"""A hand as a printed record a person reads: the table, the seats, the cards the reader may
see, every action in order, the result. Built only from the steps replayed for the reader
(`hand_replay.hand_steps`), so it shows exactly what the hand page shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from app.engine import registry
from app.services.hand_replay import card_text, cards_text
from app.services.history import HandSummary
from app.services.time_words import time_words

GAME_TITLES = {name: game.title for name, game in registry.GAMES.items()}


# rules/bouillotte.md §6: the showdown's categories, as the engine names them.
SHOWDOWN_WORDS = {
    "carre": "brelan carré",
    "brelan": "brelan",
    "mistigri": "mistigri brelan",
    "points": "points",
}


def chip_count(amount: int) -> str:
    """``1 chip``, ``12 chips``."""
    return f"{amount} chip" if amount == 1 else f"{amount} chips"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _cards_line(view: Mapping[str, Any], seated: Mapping[int, str], full: bool) -> list[str]:
    if full:
        hands = view.get("hands", {})
        return [
            f"  {seated.get(int(seat), f'Seat {seat}')}: {cards_text(cards)}"
            for seat, cards in sorted(hands.items(), key=lambda kv: int(kv[0]))
        ]
    if view.get("hand"):
        return [f"  Your cards: {cards_text(view['hand'])}"]
    return []


def _has_cards(view: Mapping[str, Any]) -> bool:
    return bool(view.get("hand")) or any(view.get("hands", {}).values())


def _table_cards(game: str, view: Mapping[str, Any]) -> str | None:
    shown = registry.driver(game).table_card(view)
    if shown is None:
        return None
    words, card = shown
    return words.format(card=card_text(card))


def hand_record(
    summary: HandSummary,
    steps: Sequence[Mapping[str, Any]],
    seed: str | None,
    full: bool,
    zone: ZoneInfo | None = None,
) -> str:
    """The printed record of one hand, as `steps` show it to their viewer; its time in the
    reader's `zone` (UTC without one), named."""
    deal = steps[0]["view"]
    end = steps[-1]["view"]
    hand = deal["hand"]
    seated = {p.seat: p.name for p in summary.players}
    lines = [
        f"Salon hand history: {summary.table_name}, Hand #{summary.number}"
        f" ({GAME_TITLES.get(summary.game, summary.game)})",
        f"Ended {time_words(summary.ended_at, zone)}",
        f"Commitment (SHA-256 of the seed): {hand['commitment']}",
        f"Seed: {seed}" if seed else "Seed: not revealed yet",
    ]
    if full:
        lines.append("Full view (admin): every player's cards are shown.")
    lines.append("")
    lines.append(f"Dealer: {seated.get(int(hand['dealer']), 'seat ' + str(hand['dealer']))}")
    for seat in deal["seats"]:
        lines.append(f"Seat {seat['seat']}: {seat['name']} ({chip_count(int(seat['stack']))})")
    # Bouillotte deals after the straddles: the cards are those of the first step showing any.
    seen = next((step["view"]["hand"] for step in steps if _has_cards(step["view"]["hand"])), hand)
    on_table = _table_cards(summary.game, seen)
    if on_table:
        lines.append(on_table)
    dealt = _cards_line(seen, seated, full)
    if dealt:
        lines.append("Cards dealt:")
        lines.extend(dealt)
    lines.append("")
    lines.append("Actions:")
    for n, step in enumerate(steps[1:-1], start=1):
        where = f" (trick {step['trick']})" if step.get("trick") else ""
        lines.append(f"  {n}. {step['label']}{where}")
    lines.append("")
    showdown = end["hand"].get("showdown")
    if showdown:
        lines.append("Showdown:")
        for seat, shown in sorted(showdown.items(), key=lambda kv: int(kv[0])):
            name = seated.get(int(seat), f"Seat {seat}")
            rank = SHOWDOWN_WORDS.get(shown["rank"], str(shown["rank"]).replace("_", " "))
            lines.append(f"  {name}: {cards_text(shown['cards'])} ({rank})")
    lines.append(f"Result: {steps[-1]['label']}")
    for player in summary.players:
        mark = " (won)" if player.won else ""
        lines.append(f"  {player.name}: {_signed(player.net)}{mark}")
    return "\n".join(lines) + "\n"
