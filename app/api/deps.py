"""Shared request dependencies: the database, the settings, who is asking, CSRF."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection

from app.config import Settings
from app.db.models import AuthSession, Role, User
from app.db.session import Database
from app.errors import Forbidden, NotAuthenticated
from app.i18n import _, use_language
from app.i18n.negotiation import asked_for, choose
from app.security import csrf
from app.security.login_throttle import LoginThrottle
from app.services import auth
from app.services.club_language import ClubLanguage
from app.ws.logins import LoginSockets

if TYPE_CHECKING:
    from app.cluster.node import ClusterNode

SESSION_COOKIE = "salon_session"
# A visitor's choice of language (app/web/language_pages.py).
LANGUAGE_COOKIE = "salon_language"


def get_db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_club_language(connection: HTTPConnection) -> ClubLanguage:
    """The club's default language as this process knows it: call `forget()` on it once a
    change of the club's settings is committed."""
    known: ClubLanguage = connection.app.state.club_language
    return known


def get_login_throttle(request: Request) -> LoginThrottle:
    throttle: LoginThrottle = request.app.state.login_throttle
    return throttle


def get_logins(request: Request) -> LoginSockets:
    logins: LoginSockets = request.app.state.logins
    return logins


def get_cluster(request: Request) -> ClusterNode | None:
    """This process's part in a club served by several (None: it serves the club alone)."""
    node: ClusterNode | None = request.app.state.tables.cluster
    return node


DbDep = Annotated[Database, Depends(get_db)]
ClusterDep = Annotated["ClusterNode | None", Depends(get_cluster)]
# Call `recheck(member)` after anything that ends a login: its table sockets close at once.
LoginsDep = Annotated[LoginSockets, Depends(get_logins)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
LoginThrottleDep = Annotated[LoginThrottle, Depends(get_login_throttle)]
ClubLanguageDep = Annotated[ClubLanguage, Depends(get_club_language)]


@dataclass(frozen=True, slots=True)
class Caller:
    """The logged-in member making this request, with the session they use."""

    user: User
    session: AuthSession

    @property
    def is_admin(self) -> bool:
        return self.user.role in (Role.OWNER, Role.ADMIN)


async def optional_caller(request: Request, db: DbDep) -> Caller | None:
    if hasattr(request.state, "caller"):
        cached: Caller | None = request.state.caller
        return cached
    caller: Caller | None = None
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        async with db.transaction() as session:
            found = await auth.resolve(session, token)
        if found is not None:
            caller = Caller(user=found[1], session=found[0])
    request.state.caller = caller
    await _speak_their_language(request, db, caller)
    return caller


async def _speak_their_language(request: Request, db: Database, caller: Caller | None) -> None:
    """Every sentence of this request in the caller's language."""
    # Set every time, English included: nothing of a previous request's may stay.
    use_language(await language_of(request, db, caller.user if caller else None))


async def language_of(connection: HTTPConnection, db: Database, user: User | None) -> str:
    """The language to speak to whoever opened this request or socket (app/i18n/negotiation.py):
    their account's, this browser's choice, Accept-Language, else the club's default, looked
    up only for whoever asked for none Salon speaks."""
    asked = asked_for(
        user.language if user else None,
        connection.cookies.get(LANGUAGE_COOKIE),
        connection.headers.get("accept-language"),
    )
    club_default = None if asked else await get_club_language(connection).code(db)
    return choose(asked, club_default)


OptionalCaller = Annotated[Caller | None, Depends(optional_caller)]


async def csrf_protect(request: Request, settings: SettingsDep, caller: OptionalCaller) -> None:
    """Router-wide guard: every unsafe method must carry the CSRF token."""
    await csrf.verify(
        request, settings.allowed_origins, caller.session.csrf_token if caller else None
    )


async def require_caller(caller: OptionalCaller) -> Caller:
    if caller is None:
        raise NotAuthenticated()
    return caller


CurrentCaller = Annotated[Caller, Depends(require_caller)]


async def require_admin(caller: CurrentCaller) -> Caller:
    if not caller.is_admin:
        raise Forbidden("admin_only", _("Only the club's admins can do this."))
    return caller


AdminCaller = Annotated[Caller, Depends(require_admin)]


def site_origin(request: Request) -> str:
    """The site's origin as the caller's browser reached it (behind a trusted proxy, with
    the browser's scheme): where links made for others should lead."""
    return f"{request.url.scheme}://{request.url.netloc}"


def cookie_secure(request: Request, settings: Settings) -> bool:
    if settings.cookie_secure is not None:
        return settings.cookie_secure
    return request.url.scheme == "https"


def set_login_cookies(
    response: Response, request: Request, settings: Settings, logged_in: auth.LoggedIn
) -> None:
    secure = cookie_secure(request, settings)
    max_age = settings.session_days * 86400
    response.set_cookie(
        SESSION_COOKIE,
        logged_in.token,
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )
    # The page's script reads this one to send it back as X-CSRF-Token.
    response.set_cookie(
        csrf.CSRF_COOKIE,
        logged_in.session.csrf_token,
        max_age=max_age,
        httponly=False,
        samesite="lax",
        secure=secure,
        path="/",
    )


def clear_login_cookies(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(csrf.CSRF_COOKIE, path="/")
