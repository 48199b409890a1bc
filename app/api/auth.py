"""Sign up, log in, log out, change password."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response, status

from app.api.deps import (
    SESSION_COOKIE,
    CurrentCaller,
    DbDep,
    LoginsDep,
    LoginThrottleDep,
    OptionalCaller,
    SettingsDep,
    clear_login_cookies,
    csrf_protect,
    set_login_cookies,
)
from app.api.schemas import (
    CsrfPublic,
    LoginCreate,
    LoginPublic,
    MemberPublic,
    PasswordUpdate,
    RegisterCreate,
    RegisterPublic,
)
from app.db.models import MemberStatus, User
from app.errors import NotFound
from app.i18n import _
from app.security import csrf
from app.security.login_throttle import LoginThrottle
from app.services import auth, members

router = APIRouter(prefix="/api/auth", tags=["auth"], dependencies=[Depends(csrf_protect)])


@router.get("/csrf")
async def csrf_token(request: Request, caller: OptionalCaller) -> CsrfPublic:
    """A token to send back as `X-CSRF-Token` (its cookie is set with this response)."""
    return CsrfPublic(
        csrf_token=csrf.csrf_token_for(request, caller.session.csrf_token if caller else None)
    )


@router.post("/register", status_code=status.HTTP_201_CREATED)
async def register(
    body: RegisterCreate,
    request: Request,
    response: Response,
    db: DbDep,
    settings: SettingsDep,
) -> RegisterPublic:
    async with db.transaction() as session:
        user = await members.register(
            session,
            username=body.username,
            password=body.password,
            display_name=body.display_name,
            invite_code=body.invite_code,
        )
        logged_in = None
        if user.status == MemberStatus.ACTIVE:
            logged_in = await auth.open_session(session, user, settings.session_days)
    if logged_in is not None:
        set_login_cookies(response, request, settings, logged_in)
    return RegisterPublic(
        member=MemberPublic.model_validate(user),
        logged_in=logged_in is not None,
        csrf_token=logged_in.session.csrf_token if logged_in else None,
    )


def client_address(request: Request) -> str:
    """The address the throttle counts against: the browser's, behind a trusted proxy."""
    return request.client.host if request.client else "unknown"


async def checked_login(
    db: DbDep,
    throttle: LoginThrottle,
    request: Request,
    username: str,
    password: str,
    days: int,
) -> auth.LoggedIn:
    """Log in under the failure throttle (app/security/login_throttle.py): per address and
    account, per address, and per account for the addresses that failed against it."""
    account, address = username.strip().lower(), client_address(request)
    throttle.check(account, address)
    try:
        async with db.transaction() as session:
            logged_in = await auth.login(session, username, password, days)
    except auth.BadCredentials:
        throttle.failed(account, address)
        raise
    throttle.succeeded(account, address)
    return logged_in


@router.post("/login")
async def login(
    body: LoginCreate,
    request: Request,
    response: Response,
    db: DbDep,
    settings: SettingsDep,
    throttle: LoginThrottleDep,
) -> LoginPublic:
    logged_in = await checked_login(
        db, throttle, request, body.username, body.password, settings.session_days
    )
    set_login_cookies(response, request, settings, logged_in)
    return LoginPublic(
        member=MemberPublic.model_validate(logged_in.user),
        csrf_token=logged_in.session.csrf_token,
    )


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
async def logout(
    request: Request, response: Response, db: DbDep, caller: OptionalCaller, logins: LoginsDep
) -> None:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        async with db.transaction() as session:
            await auth.logout(session, token)
    if caller is not None:
        await logins.recheck(caller.user.id)
    clear_login_cookies(response)


@router.post("/password", status_code=status.HTTP_204_NO_CONTENT)
async def change_password(
    body: PasswordUpdate, caller: CurrentCaller, db: DbDep, logins: LoginsDep
) -> None:
    async with db.transaction() as session:
        user = await session.get(User, caller.user.id)
        if user is None:  # deleted between the two transactions
            raise NotFound("member_not_found", _("Your account no longer exists."))
        await auth.change_password(
            session, user, caller.session, body.current_password, body.new_password
        )
    await logins.recheck(caller.user.id)
