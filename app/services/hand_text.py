"""A hand as a printed record a person reads: the table, the seats, the cards the reader may
see, every action in order, the result. Built only from the steps replayed for the reader
(`hand_replay.hand_steps`), so it shows exactly what the hand page shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from app.engine import registry
from app.i18n import _, ngettext
from app.services.hand_replay import card_text, cards_text
from app.services.history import HandSummary
from app.services.time_words import time_words

GAME_TITLES = {name: game.title for name, game in registry.GAMES.items()}


def showdown_words(rank: object) -> str:
    """rules/bouillotte.md §6: a showdown's category, as the engine names it, in words."""
    words = {
        "carre": _("brelan carré"),
        "brelan": _("brelan"),
        "mistigri": _("mistigri brelan"),
        "points": _("points"),
    }
    return words.get(str(rank), str(rank).replace("_", " "))


def chip_count(amount: int) -> str:
    """``1 chip``, ``12 chips``."""
    return ngettext("%(num)d chip", "%(num)d chips", amount)


def _seat_name(seated: Mapping[int, str], seat: object) -> str:
    return seated.get(int(str(seat)), _("Seat %(number)s", number=seat))


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _cards_line(view: Mapping[str, Any], seated: Mapping[int, str], full: bool) -> list[str]:
    if full:
        hands = view.get("hands", {})
        return [
            f"  {_seat_name(seated, seat)}: {cards_text(cards)}"
            for seat, cards in sorted(hands.items(), key=lambda kv: int(kv[0]))
        ]
    if view.get("hand"):
        return ["  " + _("Your cards: %(cards)s", cards=cards_text(view["hand"]))]
    return []


def _has_cards(view: Mapping[str, Any]) -> bool:
    return bool(view.get("hand")) or any(view.get("hands", {}).values())


def _table_cards(game: str, view: Mapping[str, Any]) -> str | None:
    shown = registry.driver(game).table_card(view)
    if shown is None:
        return None
    words, card = shown
    # The engine's words, marked there, in the reader's language.
    return _(words).format(card=card_text(card))


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
        _(
            "Salon hand history: %(table)s, Hand #%(number)s (%(game)s)",
            table=summary.table_name,
            number=summary.number,
            game=GAME_TITLES.get(summary.game, summary.game),
        ),
        _("Ended %(time)s", time=time_words(summary.ended_at, zone)),
        _("Commitment (SHA-256 of the seed): %(value)s", value=hand["commitment"]),
        _("Seed: %(seed)s", seed=seed) if seed else _("Seed: not revealed yet"),
    ]
    if full:
        lines.append(_("Full view (admin): every player's cards are shown."))
    lines.append("")
    dealer = seated.get(int(hand["dealer"]), _("seat %(number)s", number=hand["dealer"]))
    lines.append(_("Dealer: %(name)s", name=dealer))
    for seat in deal["seats"]:
        lines.append(
            _(
                "Seat %(number)s: %(name)s (%(chips)s)",
                number=seat["seat"],
                name=seat["name"],
                chips=chip_count(int(seat["stack"])),
            )
        )
    # Bouillotte deals after the straddles: the cards are those of the first step showing any.
    seen = next((step["view"]["hand"] for step in steps if _has_cards(step["view"]["hand"])), hand)
    on_table = _table_cards(summary.game, seen)
    if on_table:
        lines.append(on_table)
    dealt = _cards_line(seen, seated, full)
    if dealt:
        lines.append(_("Cards dealt:"))
        lines.extend(dealt)
    lines.append("")
    lines.append(_("Actions:"))
    for n, step in enumerate(steps[1:-1], start=1):
        if step.get("trick"):
            told = _("%(action)s (trick %(trick)s)", action=step["label"], trick=step["trick"])
        else:
            told = step["label"]
        lines.append(f"  {n}. {told}")
    lines.append("")
    showdown = end["hand"].get("showdown")
    if showdown:
        lines.append(_("Showdown:"))
        for seat, shown in sorted(showdown.items(), key=lambda kv: int(kv[0])):
            name = _seat_name(seated, seat)
            rank = showdown_words(shown["rank"])
            lines.append(f"  {name}: {cards_text(shown['cards'])} ({rank})")
    lines.append(_("Result: %(result)s", result=steps[-1]["label"]))
    for player in summary.players:
        net = _signed(player.net)
        won = _("%(net)s (won)", net=net) if player.won else net
        lines.append(f"  {player.name}: {won}")
    return "\n".join(lines) + "\n"
