"""Lost passwords in the browser (docs/lost-passwords.md): an admin makes a one-time link
on a member's admin page, and the member opens it to choose a new password.

The member's page (`/reset/<token>`) is throttled per address as logins are: each unknown,
used or expired link tried counts as a wrong password, and an address that has used up
the window is refused before its link is even looked up. Its answers are never cached, and
its address is sent as a Referer to this site only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.api.auth import client_address
from app.api.deps import DbDep, LoginsDep, OptionalCaller, SettingsDep, csrf_protect, site_origin
from app.api.schemas import Id
from app.db.models import User
from app.errors import InvalidInput, RateLimited, SalonError
from app.i18n import _
from app.security.ratelimit import SlidingWindowLimiter
from app.services import password_resets
from app.services.password_resets import InvalidResetLink
from app.web.admin_guards import ADMIN_PAGE_GUARDS, PageAdmin
from app.web.pages import render

admin_router = APIRouter(
    prefix="/admin",
    tags=["pages"],
    default_response_class=HTMLResponse,
    dependencies=ADMIN_PAGE_GUARDS,
)
member_router = APIRouter(
    tags=["pages"], default_response_class=HTMLResponse, dependencies=[Depends(csrf_protect)]
)

PasswordText = Annotated[str, Form(max_length=256)]


def _private(response: Response) -> Response:
    """A page holding a link or its token: kept by no cache. (Its address goes as a Referer
    to this site alone, by the site-wide `same-origin` policy; `no-referrer` would make
    browsers send `Origin: null` with the form, which the CSRF check rightly refuses.)"""
    response.headers["Cache-Control"] = "no-store"
    return response


def _throttle(request: Request) -> SlidingWindowLimiter:
    throttle: SlidingWindowLimiter = request.app.state.reset_throttle
    return throttle


ResetThrottle = Annotated[SlidingWindowLimiter, Depends(_throttle)]


@admin_router.post("/password-resets")
async def make_reset_link(
    request: Request,
    db: DbDep,
    settings: SettingsDep,
    caller: PageAdmin,
    member_id: Annotated[Id, Form()],
) -> Response:
    """Make a member's one-time link and show it this once, to be handed over by hand."""
    try:
        async with db.transaction() as session:
            issued = await password_resets.issue(
                session, caller.user, member_id, settings.password_reset_seconds
            )
    except SalonError as error:
        page = await render(
            request, db, caller, "admin_password_reset.html", error.status_code, error=error
        )
        return _private(page)
    page = await render(
        request,
        db,
        caller,
        "admin_password_reset.html",
        member=issued.member,
        link=issued.url(site_origin(request)),
        expires_at=issued.expires_at,
    )
    return _private(page)


async def _reset_page(
    request: Request, db: DbDep, caller: OptionalCaller, status_code: int = 200, **context: Any
) -> Response:
    page = await render(request, db, caller, "reset.html", status_code, **context)
    error = context.get("error")
    if isinstance(error, RateLimited):
        page.headers["Retry-After"] = str(error.retry_after)
    return _private(page)


@member_router.get("/reset/{token}")
async def reset_page(
    request: Request, db: DbDep, caller: OptionalCaller, throttle: ResetThrottle, token: str
) -> Response:
    address = client_address(request)
    try:
        throttle.check(address)
        async with db.transaction() as session:
            reset, member = await password_resets.live_link(session, token)
    except InvalidResetLink as error:
        throttle.hit(address)
        return await _reset_page(request, db, caller, error.status_code, error=error)
    except SalonError as error:
        return await _reset_page(request, db, caller, error.status_code, error=error)
    return await _reset_page(request, db, caller, member=member, expires_at=reset.expires_at)


@member_router.post("/reset/{token}")
async def reset_form(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    logins: LoginsDep,
    throttle: ResetThrottle,
    token: str,
    new_password: PasswordText,
    new_password_again: PasswordText,
) -> Response:
    address = client_address(request)
    # Once the link is known good: whose it is and until when, to show the form again.
    member: User | None = None
    expires_at: datetime | None = None
    try:
        throttle.check(address)
        # Read first, in a transaction of its own: a refusal below rolls back only the
        # second, and the member read here can still be shown with the form.
        async with db.transaction() as session:
            reset, member = await password_resets.live_link(session, token)
            expires_at = reset.expires_at
        if new_password != new_password_again:
            raise InvalidInput("passwords_differ", _("The two passwords differ: type it again."))
        async with db.transaction() as session:
            await password_resets.redeem(session, token, new_password)
    except InvalidResetLink as error:
        throttle.hit(address)
        return await _reset_page(request, db, caller, error.status_code, error=error)
    except SalonError as error:
        # A refused password: the link still works, and the form is shown again.
        return await _reset_page(
            request,
            db,
            caller,
            error.status_code,
            error=error,
            member=member,
            expires_at=expires_at,
        )
    assert member is not None
    # Their table sockets close now, as the sessions they were opened with are gone.
    await logins.recheck(member.id)
    return await _reset_page(request, db, caller, done=True, member=member)
