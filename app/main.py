"""The application factory."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.api import admin, admin_log, auth, chip_requests, health, me, moderation, treasury
from app.api import games as games_api
from app.api import hands as hands_api
from app.api import rulesets as rulesets_api
from app.api import tables as tables_api
from app.api.deps import language_of, optional_caller
from app.bots.player import Thinking
from app.cluster.connection import connect
from app.cluster.node import ClusterNode
from app.config import Settings, get_settings
from app.db.session import Database
from app.engine.registry import titles_said
from app.errors import LoginFirst, RateLimited, SalonError
from app.i18n import _, use_language
from app.middleware import BodySizeLimit, SecurityHeaders
from app.monitoring.loop_lag import LoopLag
from app.monitoring.metrics_route import install_metrics, metrics_registry
from app.monitoring.request_ids import HEADER
from app.monitoring.request_log import RequestLog
from app.security.login_throttle import LoginThrottle
from app.security.passwords import use_hashing
from app.security.ratelimit import SlidingWindowLimiter
from app.services.club_language import ClubLanguage
from app.tables.actor import RuntimeSettings
from app.tables.clock import Clock, SystemClock
from app.tables.commands import Encoders
from app.tables.manager import TableManager
from app.web import (
    admin_log_pages,
    admin_pages,
    admin_table_pages,
    history_pages,
    language_pages,
    pages,
    play_pages,
    pwa,
    reset_pages,
    rules_pages,
    treasury_pages,
    words_route,
)
from app.web.assets import STATIC_DIR, VersionedStatic
from app.web.docs_page import mount_docs
from app.web.templating import templates
from app.ws import endpoint, protocol
from app.ws.logins import LoginSockets

_HTTP_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
}


def _request_id(request: Request) -> str | None:
    """The id app.monitoring.request_log gave this request (for the member to quote)."""
    return getattr(request.state, "request_id", None)


def _error(
    request: Request, status: int, code: str, message: str, **details: object
) -> JSONResponse:
    body: dict[str, object] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return _error_json(request, status, body)


def _error_json(request: Request, status: int, body: dict[str, object]) -> JSONResponse:
    request_id = _request_id(request)
    if request_id is not None:
        body = {**body, "request_id": request_id}
    return JSONResponse({"error": body}, status_code=status)


async def _speak_to(request: Request) -> None:
    """Answer an error in the caller's language, also when no route's dependency found it
    (an unknown address, a body refused before them, a fault outside the route's context).
    A caller who cannot be found (the database is what failed) is answered in English."""
    with contextlib.suppress(Exception):
        db = request.app.state.db
        caller = await optional_caller(request, db)
        use_language(await language_of(request, db, caller.user if caller else None))


def _wants_page(request: Request) -> bool:
    return not request.url.path.startswith("/api") and "text/html" in request.headers.get(
        "accept", ""
    )


def _error_page(request: Request, status: int, code: str, message: str) -> Response:
    context = {
        "error": {"code": code, "message": message},
        "caller": None,
        "club_name": "Salon",
        "csrf_token": "",
    }
    return templates.TemplateResponse(request, "error.html", context, status_code=status)


async def _salon_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SalonError)
    # Its sentence was made where it was raised, in the language set then.
    response: Response
    if isinstance(exc, LoginFirst) and request.method == "GET":
        return RedirectResponse("/login", status_code=303)
    if _wants_page(request):
        response = _error_page(request, exc.status_code, exc.code, exc.message)
    else:
        response = _error_json(request, exc.status_code, exc.to_dict())
    if isinstance(exc, RateLimited):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    await _speak_to(request)
    problems = [
        {"field": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
        for e in exc.errors()
    ]
    first = problems[0] if problems else {"field": "", "problem": "invalid"}
    message = _("Invalid input: %(field)s: %(problem)s", **first)
    if _wants_page(request):  # a browser's form: the page says what was wrong
        return _error_page(request, 422, "invalid_input", message)
    return _error(request, 422, "invalid_input", message, errors=problems)


def _http_sentence(status: int, detail: str) -> str:
    """The sentence for an HTTP error the framework raised (its detail is the status's
    English reason phrase): the caller's words for the common ones."""
    sentences = {
        400: lambda: _("The request could not be understood."),
        401: lambda: _("Please log in."),
        403: lambda: _("You may not do this."),
        404: lambda: _("There is nothing at this address."),
        405: lambda: _("This address does not answer that method."),
        413: lambda: _("The request is too large."),
    }
    said = sentences.get(status)
    return said() if said else detail


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    await _speak_to(request)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    message = _http_sentence(exc.status_code, str(exc.detail))
    if _wants_page(request):
        return _error_page(request, exc.status_code, code, message)
    return _error(request, exc.status_code, code, message)


async def _internal_error(request: Request, exc: Exception) -> Response:
    """An error nobody expected: a page or body that says so, with the request's id for
    the member to quote (the traceback is in the log under that id: uvicorn logs it)."""
    await _speak_to(request)
    message = _("Something went wrong on our side. If it happens again, tell an admin.")
    response: Response
    if _wants_page(request):
        response = _error_page(request, 500, "internal_error", message)
    else:
        response = _error(request, 500, "internal_error", message)
    request_id = _request_id(request)
    if request_id is not None:  # sent outside the request log's reach: the header is ours
        response.headers[HEADER] = request_id
    return response


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    settings = settings or get_settings()
    use_hashing(settings.argon2_profile)
    db = Database(
        settings.resolved_database_url,
        pool_size=settings.db_pool_size,
        async_commit=settings.db_async_commit,
    )
    tables = TableManager(
        db,
        clock or SystemClock(),
        RuntimeSettings(
            next_hand_seconds=settings.next_hand_seconds,
            gathering_seconds=settings.gathering_seconds,
            bot_thinking=Thinking(settings.bot_think_min_seconds, settings.bot_think_max_seconds),
        ),
        Encoders(
            event=protocol.event_frame_of,
            public=protocol.public_part,
            snapshot=protocol.spliced_snapshot_frame,
            chat=protocol.chat_frame,
            hand_log=protocol.hand_log_frame,
            storage=protocol.storage_frame,
        ),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Tables left with a hand running come back now, with their timers.
        await tables.start(tune_gc=settings.gc_freeze)
        loop_lag.start()
        yield
        await loop_lag.stop()
        await tables.stop()
        await db.dispose()

    app = FastAPI(
        title="Salon",
        summary=f"A club card room for {titles_said()}",
        version="0.1.0",
        lifespan=lifespan,
        responses={422: {"description": "Invalid input"}},
        # Served by the app itself (app.web.docs_page), not from a CDN.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = db
    app.state.tables = tables
    app.state.latency = tables.latency
    app.state.logins = logins = LoginSockets(db)
    app.state.club_language = ClubLanguage()
    if settings.redis_url:  # several processes serve this club: Redis coordinates them
        node = ClusterNode(
            tables,
            connect(settings.redis_url),
            settings.redis_prefix,
            settings.lease_seconds,
        )
        tables.cluster = logins.cluster = node
        node.on_recheck = logins.recheck_here
    loop_lag = LoopLag()
    install_metrics(app, settings, metrics_registry(tables, logins, loop_lag))
    app.state.secret_key = settings.resolved_secret_key()
    app.state.login_throttle = LoginThrottle(
        per_account=settings.login_max_failures,
        per_address=settings.login_max_failures_per_address,
        window_seconds=settings.login_window_seconds,
    )
    # Unknown, used or expired reset links tried per address (app/web/reset_pages.py).
    app.state.reset_throttle = SlidingWindowLimiter(
        settings.login_max_failures_per_address, settings.login_window_seconds
    )

    app.add_exception_handler(SalonError, _salon_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)

    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodySizeLimit)
    # Pages, scripts and JSON compress well; tiny answers are not worth it.
    app.add_middleware(GZipMiddleware, minimum_size=500)
    # Each request's id and access line, with the client address the next layer found.
    app.add_middleware(RequestLog)
    # Outermost: behind a trusted reverse proxy every layer sees the browser's scheme and
    # address (Secure cookies over HTTPS, login throttling per real client).
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxy_list)

    for router in (
        health.router,
        games_api.router,
        auth.router,
        me.router,
        admin.router,
        treasury.router,
        chip_requests.member_router,
        chip_requests.admin_router,
        admin_log.router,
        moderation.router,
        hands_api.router,
        hands_api.admin_router,
        tables_api.router,
        rulesets_api.admin_router,
        rulesets_api.router,
        endpoint.router,
        pages.router,
        admin_pages.router,
        treasury_pages.admin_router,
        treasury_pages.member_router,
        admin_log_pages.router,
        admin_table_pages.router,
        play_pages.router,
        history_pages.router,
        rules_pages.admin_router,
        rules_pages.router,
        pwa.router,
        reset_pages.admin_router,
        reset_pages.member_router,
        words_route.router,
        language_pages.router,
    ):
        app.include_router(router)
    mount_docs(app)
    app.mount("/static", VersionedStatic(directory=STATIC_DIR), name="static")
    return app
