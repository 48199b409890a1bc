"""Choosing the language: ``POST /language`` from the menu on the login page and on the
account page. A visitor's choice is kept in a cookie; a member's is kept on their account
as well (``users.language``), so it follows them to every browser they log in from.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Form
from fastapi.responses import RedirectResponse

from app.api.deps import LANGUAGE_COOKIE, DbDep, OptionalCaller, csrf_protect
from app.db.models import User
from app.errors import InvalidInput
from app.i18n import _, language_named

router = APIRouter(tags=["pages"], dependencies=[Depends(csrf_protect)])

YEAR = 365 * 24 * 3600


def _same_site_path(target: str) -> str:
    """Back to the page the menu was on: a path of this site only (never another host)."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@router.post("/language")
async def choose_language(
    db: DbDep,
    caller: OptionalCaller,
    language: Annotated[str, Form(max_length=16)],
    next_page: Annotated[str, Form(alias="next", max_length=512)] = "/",
) -> RedirectResponse:
    """Speak `language` from now on ("" goes back to the browser's)."""
    chosen = language_named(language) if language else None
    if language and chosen is None:
        raise InvalidInput("unknown_language", _("Salon does not speak that language."))
    if caller is not None:
        async with db.transaction() as session:
            member = await session.get(User, caller.user.id)
            if member is not None:
                member.language = chosen.code if chosen else None
    response = RedirectResponse(_same_site_path(next_page), status_code=303)
    if chosen is None:
        response.delete_cookie(LANGUAGE_COOKIE, path="/")
    else:
        response.set_cookie(
            LANGUAGE_COOKIE, chosen.code, max_age=YEAR, path="/", samesite="lax", httponly=True
        )
    return response
