"""A time in words for a person: "2 Dec 2026, 20:04 UTC", or in the reader's own zone,
named ("2 Dec 2026, 21:04 (Europe/Paris)").

Pages send times as `<time>` elements that the browser rewrites in the viewer's zone
(app/web/display.py); a text a person downloads cannot be rewritten, so the browser names
its zone when it asks for one (an IANA name, as `Intl` gives it) and the text is written in
that zone. An unknown name is not an error: the text stays in UTC, which it names. A
message that cannot know the reader's zone says how long is left instead of a time.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from math import ceil
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.i18n import ngettext

# What an IANA zone name is made of ("Europe/Paris", "America/Port-au-Prince", "Etc/GMT+5"):
# anything else (a dot, a leading slash) is never looked up among the system's files.
ZONE_NAME = re.compile(r"[A-Za-z0-9_+-]{1,30}(?:/[A-Za-z0-9_+-]{1,30}){0,2}")


def in_utc(moment: datetime) -> datetime:
    """The instant in UTC (the database hands back naive UTC times on SQLite)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def reader_zone(name: str | None) -> ZoneInfo | None:
    """The IANA zone `name` names, or None (UTC) for no name or one that names no zone."""
    if not name or not ZONE_NAME.fullmatch(name):
        return None
    try:
        return ZoneInfo(name)
    # ValueError: a file that is not a zone; OSError: a folder of zones ("Europe") where the
    # zone data is a package's files rather than the system's.
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def time_words(moment: datetime, zone: ZoneInfo | None = None) -> str:
    """`moment` as a person reads it: in UTC by default, else in `zone`, named."""
    at = in_utc(moment)
    if zone is None:
        return f"{at.day} {at:%b %Y, %H:%M} UTC"
    local = at.astimezone(zone)
    return f"{local.day} {local:%b %Y, %H:%M} ({zone.key})"


def time_left_words(until: datetime, now: datetime) -> str:
    """How long until `until`, rounded up, in the largest unit that stays precise enough:
    "1 minute", "90 minutes", "3 hours", "7 days" (the same in every time zone)."""
    minutes = max(1, ceil((in_utc(until) - in_utc(now)).total_seconds() / 60))
    if minutes < 120:
        return ngettext("%(num)d minute", "%(num)d minutes", minutes)
    hours = ceil(minutes / 60)
    if hours < 48:
        return ngettext("%(num)d hour", "%(num)d hours", hours)
    return ngettext("%(num)d day", "%(num)d days", ceil(hours / 24))
