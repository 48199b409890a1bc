"""CSRF protection for cookie-authenticated posts.

Double-submit: the `salon_csrf` cookie (readable by the page's script, SameSite=Lax) must be
echoed in the `X-CSRF-Token` header (fetch) or a `csrf_token` form field. Once logged in,
the token must also be the one bound to the session at login, so a token planted by a
sibling subdomain before login is worthless afterwards. Before login the cookie is signed
with the secret key (`nonce.mac`), so a forged cookie cannot be planted either. An `Origin`
header, when the browser sends one, must be this site or an allowed origin.
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlsplit

from fastapi import Request
from starlette.requests import HTTPConnection

from app.errors import Forbidden
from app.i18n import _
from app.security.tokens import new_token, same

CSRF_COOKIE = "salon_csrf"
CSRF_HEADER = "X-CSRF-Token"
CSRF_FORM_FIELD = "csrf_token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def _mac(secret: str, nonce: str) -> str:
    return hmac.new(secret.encode(), nonce.encode(), hashlib.sha256).hexdigest()[:32]


def signed_token(secret: str) -> str:
    nonce = new_token(18)
    return f"{nonce}.{_mac(secret, nonce)}"


def is_signed(secret: str, token: str) -> bool:
    nonce, _, mac = token.partition(".")
    return bool(nonce) and same(mac, _mac(secret, nonce))


def csrf_token_for(request: Request, session_token: str | None) -> str:
    """The token a page or client should send back: the session's own once logged in,
    otherwise the browser's signed cookie, or a fresh signed one. When the cookie must
    change, the middleware sets it on the response."""
    existing = request.cookies.get(CSRF_COOKIE)
    if session_token is not None:
        wanted = session_token
    elif existing and is_signed(request.app.state.secret_key, existing):
        wanted = existing
    else:
        wanted = getattr(request.state, "new_csrf_token", None) or signed_token(
            request.app.state.secret_key
        )
    if wanted != existing:
        request.state.new_csrf_token = wanted
    return wanted


def origin_allowed(request: HTTPConnection, allowed: list[str]) -> bool:
    """A missing Origin (not a browser, or a same-origin GET) passes; otherwise it must be
    this site or one of the allowed origins."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    host = request.headers.get("host", "")
    return parts.netloc == host and parts.scheme in ("http", "https")


async def submitted_token(request: Request) -> str | None:
    header = request.headers.get(CSRF_HEADER)
    if header:
        return header
    content_type = request.headers.get("content-type", "")
    if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()
        value = form.get(CSRF_FORM_FIELD)
        return value if isinstance(value, str) else None
    return None


async def verify(request: Request, allowed_origins: list[str], session_token: str | None) -> None:
    if request.method in SAFE_METHODS:
        return
    if not origin_allowed(request, allowed_origins):
        raise Forbidden("bad_origin", _("This request came from a site that is not allowed."))
    cookie = request.cookies.get(CSRF_COOKIE)
    submitted = await submitted_token(request)
    if not cookie or not submitted or not same(cookie, submitted):
        raise Forbidden(
            "csrf_failed",
            _("The form has expired or did not come from this site. Reload the page."),
        )
    bound_ok = (
        same(session_token, submitted)
        if session_token is not None
        else is_signed(request.app.state.secret_key, submitted)
    )
    if not bound_ok:
        raise Forbidden(
            "csrf_failed",
            _("The form has expired or did not come from this site. Reload the page."),
        )
