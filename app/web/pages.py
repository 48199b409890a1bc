"""Server-rendered pages: log in, register, my account.

Forms post back to these routes (not to the JSON API) so they work without JavaScript; they
call the same services as the API and carry the CSRF token as a hidden field.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.auth import checked_login
from app.api.deps import (
    SESSION_COOKIE,
    DbDep,
    LoginsDep,
    LoginThrottleDep,
    OptionalCaller,
    SettingsDep,
    clear_login_cookies,
    csrf_protect,
    set_login_cookies,
)
from app.db.models import Club, MemberStatus, User
from app.errors import SalonError
from app.security.csrf import csrf_token_for
from app.services import auth, chip_requests, club, ledger, members
from app.web.templating import templates

# Documented with their form fields (in the OpenAPI schema, under "pages") like the API.
router = APIRouter(
    tags=["pages"], default_response_class=HTMLResponse, dependencies=[Depends(csrf_protect)]
)

FormText = Annotated[str, Form(max_length=256)]
OptionalFormText = Annotated[str, Form(max_length=256)]


async def _club(db: DbDep) -> Club | None:
    async with db.transaction() as session:
        found: Club | None = await session.get(Club, 1)
        return found


async def render(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    template: str,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    the_club = await _club(db)
    context.update(
        caller=caller,
        club=the_club,
        club_name=the_club.name if the_club else "Salon",
        csrf_token=csrf_token_for(request, caller.session.csrf_token if caller else None),
    )
    return templates.TemplateResponse(request, template, context, status_code=status_code)


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/")
async def home(caller: OptionalCaller) -> RedirectResponse:
    return redirect("/lobby" if caller else "/login")


@router.get("/login")
async def login_page(request: Request, db: DbDep, caller: OptionalCaller) -> Response:
    if caller:
        return redirect("/lobby")
    return await render(request, db, caller, "login.html")


@router.post("/login")
async def login_form(
    request: Request,
    db: DbDep,
    settings: SettingsDep,
    throttle: LoginThrottleDep,
    caller: OptionalCaller,
    username: FormText,
    password: FormText,
) -> Response:
    try:
        logged_in = await checked_login(
            db, throttle, request, username, password, settings.session_days
        )
    except SalonError as error:
        return await render(
            request, db, caller, "login.html", error.status_code, error=error, username=username
        )
    response = redirect("/lobby")
    set_login_cookies(response, request, settings, logged_in)
    return response


@router.get("/register")
async def register_page(request: Request, db: DbDep, caller: OptionalCaller) -> Response:
    if caller:
        return redirect("/lobby")
    return await render(
        request, db, caller, "register.html", invite_code=request.query_params.get("invite", "")
    )


@router.post("/register")
async def register_form(
    request: Request,
    db: DbDep,
    settings: SettingsDep,
    caller: OptionalCaller,
    username: FormText,
    password: FormText,
    display_name: Annotated[str, Form(max_length=256)] = "",
    invite_code: Annotated[str, Form(max_length=256)] = "",
) -> Response:
    try:
        async with db.transaction() as session:
            user = await members.register(
                session,
                username=username,
                password=password,
                display_name=display_name or None,
                invite_code=invite_code or None,
            )
            logged_in = None
            if user.status == MemberStatus.ACTIVE:
                logged_in = await auth.open_session(session, user, settings.session_days)
    except SalonError as error:
        return await render(
            request,
            db,
            caller,
            "register.html",
            error.status_code,
            error=error,
            username=username,
            display_name=display_name,
            invite_code=invite_code,
        )
    if logged_in is None:
        return await render(request, db, caller, "pending.html", member=user)
    response = redirect("/lobby")
    set_login_cookies(response, request, settings, logged_in)
    return response


@router.post("/logout")
async def logout_form(
    request: Request, db: DbDep, caller: OptionalCaller, logins: LoginsDep
) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        async with db.transaction() as session:
            await auth.logout(session, token)
    if caller is not None:
        await logins.recheck(caller.user.id)
    response = redirect("/login")
    clear_login_cookies(response)
    return response


async def render_account(
    request: Request, db: DbDep, caller: OptionalCaller, status_code: int = 200, **extra: Any
) -> Response:
    if caller is None:
        return redirect("/login")
    async with db.transaction() as session:
        balance = await ledger.balance_of(session, ledger.member_account_key(caller.user.id))
        the_club = await club.get_club(session)
        statement = await ledger.entries(
            session,
            ledger.EntryFilter(account_key=ledger.member_account_key(caller.user.id)),
            limit=50,
        )
        asked = await chip_requests.listing(session, member_id=caller.user.id, limit=20)
    return await render(
        request,
        db,
        caller,
        "account.html",
        status_code,
        balance=balance,
        chip_unit=the_club.chip_unit,
        statement=statement,
        my_account=ledger.member_account_key(caller.user.id),
        chip_requests=asked,
        **extra,
    )


@router.get("/account")
async def account_page(request: Request, db: DbDep, caller: OptionalCaller) -> Response:
    return await render_account(request, db, caller)


@router.post("/account/password")
async def password_form(
    request: Request,
    db: DbDep,
    caller: OptionalCaller,
    logins: LoginsDep,
    current_password: FormText,
    new_password: FormText,
) -> Response:
    if caller is None:
        return redirect("/login")
    try:
        async with db.transaction() as session:
            user = await session.get(User, caller.user.id)
            assert user is not None
            await auth.change_password(
                session, user, caller.session, current_password, new_password
            )
    except SalonError as error:
        return await render_account(request, db, caller, error.status_code, password_error=error)
    await logins.recheck(caller.user.id)
    return await render_account(request, db, caller, password_changed=True)
