"""The club's default language (``club.default_language``) as this process knows it.

It is needed on every request of someone who asked for no language Salon speaks (a bot, an
API client, a browser set to a language the club has no catalog for): read from the club's
row at most once every ``REFRESH_SECONDS``, not once a request. A change saved through this
process is seen at its next request (the saving route calls ``forget`` once it is
committed); the other processes serving the club see it within ``REFRESH_SECONDS``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from app.db.models import Club
from app.db.session import Database

REFRESH_SECONDS = 10.0


class ClubLanguage:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._code: str | None = None
        self._read_at: float | None = None

    async def code(self, db: Database) -> str | None:
        """The club's default language's code; None when it has none (English)."""
        now = self._clock()
        if self._read_at is None or now - self._read_at >= REFRESH_SECONDS:
            async with db.transaction() as session:
                club = await session.get(Club, 1)
            self._code = club.default_language if club else None
            self._read_at = now
        return self._code

    def forget(self) -> None:
        """The club's settings were just saved: read them again at the next request."""
        self._read_at = None
