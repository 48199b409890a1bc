"""``GET /i18n/{code}.json``: a language's words for the browser's scripts
(app/i18n/browser.py), cached like the static files: for a year under its versioned URL,
revalidated otherwise."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from app.errors import NotFound
from app.i18n import _, language_named
from app.i18n.browser import browser_catalog, browser_catalog_version
from app.web.assets import FOREVER, REVALIDATE

router = APIRouter(tags=["pages"])


LanguageCode = Annotated[str, Path(max_length=16, pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")]


@router.get(
    "/i18n/{code}.json",
    response_class=Response,
    responses={
        200: {"content": {"application/json": {}}, "description": "The language's words"},
        404: {"description": "A language Salon does not speak"},
    },
)
async def words(code: LanguageCode, request: Request) -> Response:
    """The words of the browser's scripts in one language, their plural forms keyed by
    CLDR category; `?v=` as the page gives it makes the answer cacheable for a year."""
    language = language_named(code)
    if language is None:
        raise NotFound("unknown_language", _("Salon does not speak that language."))
    current = request.query_params.get("v") == browser_catalog_version(language.code)
    return Response(
        browser_catalog(language.code),
        media_type="application/json",
        headers={"cache-control": FOREVER if current else REVALIDATE},
    )
