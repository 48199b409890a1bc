"""How the pages show times, counts and the records' codes to people.

A time is sent as a `<time>` element: its `datetime` attribute is the exact instant (ISO
8601, UTC), its text a readable UTC fallback ("2 Dec 2026, 20:04 UTC"); static/js/localtime.js
rewrites the text in the viewer's own time zone, named. The ledger's kinds are codes in the
database and the CSV exports; people read them as words (a game's title: the `game_titles`
global of the templates).
"""

from __future__ import annotations

from datetime import datetime

from markupsafe import Markup

from app.i18n import _, pgettext
from app.services.time_words import in_utc, time_words


def ledger_kinds() -> dict[str, str]:
    """Every kind of ledger operation, as people say it in the request's language (the codes
    stay in the CSV exports)."""
    return {
        # A noun here (the button that grants chips is a verb).
        "grant": pgettext("ledger", "Grant"),
        "deduct": _("Deduction"),
        "buy_in": _("Buy-in"),
        "top_up": _("Top-up"),
        "cash_out": _("Cash-out"),
        "settlement": _("Hand settled"),
        "pot_return": _("Pot handed back"),
        "stranded_return": _("Stranded chips returned"),
        "chip_request": _("Chip request granted"),
    }


def when(moment: datetime | str | None) -> Markup:
    """A time as a `<time>` element the viewer's browser shows in their own zone. An ISO
    string (as the audit log stores times) is read first; nothing gives an empty string."""
    if moment is None:
        return Markup("")
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    at = in_utc(moment)
    return Markup('<time datetime="{}">{}</time>').format(at.isoformat(), time_words(at))


def counted(amount: int, unit: str) -> str:
    """A number with its unit, the unit singular for one: "1 chip", "2 chips", "-1 chip".

    The club names its unit in the plural ("chips", "jetons"); one of it drops the final
    "s". A unit without one (a currency sign) stays as it is."""
    if abs(amount) == 1 and unit.endswith("s") and len(unit) > 1:
        unit = unit[:-1]
    return f"{amount} {unit}"


def ledger_kind(kind: str) -> str:
    """A ledger operation's kind in words; an unknown code still reads as words."""
    return ledger_kinds().get(kind, kind.replace("_", " ").capitalize())
