"""`salon reset-password NAME`: a lost password put right from the server's shell — the
owner's own above all, which no admin may reset from the web pages.

It prints a one-time link to `/reset/<token>` under `--base-url`, or the first of
SALON_ALLOWED_ORIGINS (the site as its members reach it); with `--password-stdin` it sets
the password at once instead. Either way every session of the member ends, and the admins'
audit log names "the salon command" as the one who did it (docs/lost-passwords.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from app.commands.preflight import SetupProblem
from app.config import Settings
from app.db.session import Database
from app.services import password_resets

# Where the site is served: a scheme and a host, perhaps a port and a path; no query.
_BASE_URL = re.compile(r"^https?://[^/\s?#]+(/[^\s?#]*)?$")


@dataclass(frozen=True, slots=True)
class ResetDone:
    username: str
    # The one-time link and its end, when one was made (not with --password-stdin).
    link: str | None = None
    expires_at: datetime | None = None
    sessions_ended: int = 0


def link_origin(settings: Settings, base_url: str | None) -> str:
    """Where the link should lead: `--base-url`, else the first allowed origin."""
    if base_url is None:
        if not settings.allowed_origins:
            raise SetupProblem(
                "SALON_ALLOWED_ORIGINS is empty, so the site's address is unknown: give it "
                "with --base-url, e.g. --base-url https://cards.example.org"
            )
        return settings.allowed_origins[0]
    if not _BASE_URL.match(base_url.strip()):
        raise SetupProblem(
            f"--base-url {base_url!r} is not the site's address: give it as members reach "
            "it, e.g. --base-url https://cards.example.org"
        )
    return base_url.strip().rstrip("/")


async def reset_password(
    db: Database,
    settings: Settings,
    username: str,
    *,
    origin: str,
    new_password: str | None,
) -> ResetDone:
    """Make the member's link, or set `new_password` outright; an unknown name is a
    `SetupProblem` (exit 2). Refusals of the rules (a bot, a ban, a short password) are
    `SalonError`s, and change nothing."""
    async with db.transaction() as session:
        member = await password_resets.member_named(session, username)
        if member is None:
            raise SetupProblem(
                f"No member is named {username!r}: give the login name shown on the admin "
                "page (@name), e.g. salon reset-password alice"
            )
        if new_password is not None:
            ended = await password_resets.set_from_shell(session, member, new_password)
            return ResetDone(member.username, sessions_ended=ended)
        issued = await password_resets.issue(
            session, None, member.id, settings.password_reset_seconds
        )
    return ResetDone(issued.member.username, issued.url(origin), issued.expires_at)
