"""The table WebSocket: `/ws/tables/{id}`.

At the upgrade: the `Origin` must be this site or an allowed origin, and the session cookie
must belong to an active member (otherwise the handshake is refused with 403). Then frames
are parsed into typed messages and handed to the table's actor; what comes back to this
connection is only what its viewer may see. Limits: a frame over 4 KiB is answered with an
error and the socket is closed (1009); more than a few messages a second earn `rate_limited`
errors, a sustained flood closes the socket (1008); a member has at most a few sockets open.

Liveness: a frozen process or a silent network cut leaves a TCP connection open for many
minutes, so each end pings the other (`SALON_WS_PING_SECONDS`) and gives up on it when
nothing came back in time (`SALON_WS_PING_TIMEOUT_SECONDS`). The two ends use different
pings, each the one that fits. The server uses the WebSocket protocol's own (Uvicorn's
`ws_ping_interval` / `ws_ping_timeout`, set by `salon serve`): the browser's network stack
answers it, even while the page's timers are throttled in a background tab, so only a
browser that is really gone or cut off is closed — and shown offline, its turns left to
the timer — and it costs no task per socket here. The page cannot see protocol pings, so
it sends the application's `ping` and waits for any frame; the timings it uses are sent
to it in a `liveness` frame, the socket's first (static/js/table/socket.js).

Language: found at the upgrade as a request's is (`app.api.deps.language_of`: the member's
account, the language cookie, Accept-Language, the club's default) and set for the socket's
tasks. Every frame made for this connection alone speaks it: its error frames, and the
refusals of the commands it sends, which the table's task builds in the language the
command carries (`Command.language`). Frames sent to everyone at the table (events, views,
chat lines, a removed line's placeholder) are built once and carry no sentence of Salon's:
codes, numbers, cards and the members' own words, which each page puts in its reader's
language. A member who changes language is spoken to in it from their next socket on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.deps import SESSION_COOKIE, language_of
from app.api.schemas import Id
from app.db.models import AuthSession, User
from app.db.types import utcnow
from app.errors import SalonError
from app.i18n import _, use_language
from app.security.csrf import origin_allowed
from app.security.ratelimit import SlidingWindowLimiter
from app.services import auth
from app.services import tables as table_service
from app.tables.actor import CLOSE_TABLE_MOVED
from app.tables.clock import Clock
from app.tables.commands import (
    Act,
    Chat,
    Connection,
    Contribute,
    DealNow,
    Join,
    Leave,
    Resync,
    Suggest,
    TableHandle,
)
from app.tables.manager import TableManager
from app.tables.table import ActionRequest
from app.ws.logins import CLOSE_SESSION_ENDED, LoginSockets, OpenSocket
from app.ws.protocol import (
    MAX_FRAME_BYTES,
    ActionIn,
    ChatIn,
    ClientMessage,
    DealNowIn,
    EntropyIn,
    ErrorOut,
    LivenessOut,
    PingIn,
    PongOut,
    ProtocolError,
    SuggestIn,
    SuggestionOut,
    error_out,
    parse_client_frame,
)

router = APIRouter()
log = logging.getLogger(__name__)

# Per connection: `ws_messages_per_window` messages (setting, default 20) per 2 seconds;
# past three times that in the window, the socket closes.
WINDOW_SECONDS = 2.0
FLOOD_FACTOR = 3
# Chat: 5 lines per 10 seconds.
CHAT_PER_WINDOW = 5
CHAT_WINDOW_SECONDS = 10.0

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
# Refusals that mean "the table is moving to another process, or restarting": never final.
# The socket is closed with 1012 ("service restart"), which the page answers as it answers
# any lost connection: it reconnects, and finds the table wherever it runs by then.
COME_BACK_CODES = frozenset({"table_unavailable", "table_moved"})


def _session_ended() -> bytes:
    return ErrorOut(
        code="session_ended", message=_("Your login has ended: please log in again.")
    ).frame()


async def _member(websocket: WebSocket, table_id: int) -> tuple[User, AuthSession] | None:
    """The active member behind the session cookie and their login, if they may see this
    table (a private table needs its invite code in `?invite=` unless they play there, made
    it or are an admin)."""
    token = websocket.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    async with websocket.app.state.db.transaction() as session:
        found = await auth.resolve(session, token)
        if found is None:
            return None
        login, user = found
        invite = websocket.query_params.get("invite")
        try:
            await table_service.visible_table(session, table_id, user, invite)
        except SalonError:
            return None
    return user, login


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: Id) -> None:
    settings = websocket.app.state.settings
    manager: TableManager = websocket.app.state.tables
    logins: LoginSockets = websocket.app.state.logins
    if not origin_allowed(websocket, settings.allowed_origins):
        await websocket.close(code=CLOSE_POLICY)  # before accept: the client sees 403
        return
    member = await _member(websocket, table_id)
    if member is None:
        await websocket.close(code=CLOSE_POLICY)
        return
    user, login = member
    # This socket's language, set once for its tasks (they copy it when created).
    use_language(await language_of(websocket, websocket.app.state.db, user))
    connection = Connection(user_id=user.id, username=user.username)
    socket = OpenSocket(user.id, websocket.cookies[SESSION_COOKIE], connection)
    try:
        actor = await manager.table(table_id)
        await logins.add(socket)
    except SalonError as error:
        if error.code in COME_BACK_CODES:
            await websocket.accept()
            await _refuse(websocket, error)
        else:
            await websocket.close(code=CLOSE_POLICY)
        return
    try:
        await websocket.accept()
        await _serve(websocket, actor, connection, manager.clock, _expiry(manager.clock, login))
    finally:
        # Whatever ended the socket (the client, an error, a cancellation), the table must
        # not keep it: a closed connection is dropped by the actor even if `Leave` is lost.
        logins.discard(socket)
        connection.end(connection.close_code or CLOSE_NORMAL)
        with contextlib.suppress(Exception):
            await actor.call(Leave(connection))


def _expiry(clock: Clock, login: AuthSession) -> float:
    """When the login expires, on the table runtime's clock."""
    return clock.now() + max(0.0, (login.expires_at - utcnow()).total_seconds())


async def _serve(
    websocket: WebSocket,
    actor: TableHandle,
    connection: Connection,
    clock: Clock,
    expires: float,
) -> None:
    # The page's ping timings, first of all: it knows them before anything else can go wrong.
    settings = websocket.app.state.settings
    connection.send(
        LivenessOut(
            ping_seconds=settings.ws_ping_seconds,
            timeout_seconds=settings.ws_ping_timeout_seconds,
        ).frame()
    )
    try:
        await actor.call(Join(connection, _catch_up_from(websocket)))
    except Exception as error:
        if not isinstance(error, SalonError):
            log.exception("table %s: a socket could not join", actor.table_id)
        await _refuse(websocket, error)
        return
    tasks = {
        asyncio.create_task(_write(websocket, connection)),
        asyncio.create_task(_read(websocket, actor, connection)),
        asyncio.create_task(connection.ended.wait()),
        asyncio.create_task(_expire(clock, expires, connection)),
    }
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    if connection.closed:
        await _farewell(websocket, connection)
    for task in done:
        fault = task.exception()
        if fault is not None and not isinstance(fault, WebSocketDisconnect):
            log.error("table %s: socket ended by an error", actor.table_id, exc_info=fault)


async def _refuse(websocket: WebSocket, error: Exception) -> None:
    """Tell an accepted socket why it cannot join, and close it: with 1012 when the table is
    moving or restarting (the page comes back), 1008 otherwise."""
    come_back = isinstance(error, SalonError) and error.code in COME_BACK_CODES
    await websocket.send_text(error_out(error).decode())
    await websocket.close(code=CLOSE_TABLE_MOVED if come_back else CLOSE_POLICY)


def _catch_up_from(websocket: WebSocket) -> int | None:
    """`?version=N` (ASCII digits only): the version a reconnecting page last saw. Longer
    than a version can be (app/tables/events.py), it is no version: the page gets a full
    view."""
    version = websocket.query_params.get("version", "")
    return int(version) if re.fullmatch(r"[0-9]{1,15}", version) else None


async def _expire(clock: Clock, deadline: float, connection: Connection) -> None:
    await clock.sleep_until(deadline)
    connection.end(CLOSE_SESSION_ENDED)


async def _farewell(websocket: WebSocket, connection: Connection) -> None:
    """Close an ended connection's socket, telling a member whose login ended why (the
    page then stops reconnecting)."""
    with contextlib.suppress(Exception):
        if connection.close_code == CLOSE_SESSION_ENDED:
            await websocket.send_text(_session_ended().decode())
        await websocket.close(code=connection.close_code or CLOSE_POLICY)


async def _write(websocket: WebSocket, connection: Connection) -> None:
    while not connection.closed:  # one that fell too far behind is ended: nobody waits
        frame, tracker = await connection.outbox.get()
        await websocket.send_text(frame.decode())
        if tracker is not None:
            tracker.sent()


async def _read(websocket: WebSocket, actor: TableHandle, connection: Connection) -> None:
    per_window = websocket.app.state.settings.ws_messages_per_window
    limiter = SlidingWindowLimiter(per_window * FLOOD_FACTOR, WINDOW_SECONDS)
    soft = SlidingWindowLimiter(per_window, WINDOW_SECONDS)
    chat_limiter = SlidingWindowLimiter(CHAT_PER_WINDOW, CHAT_WINDOW_SECONDS)
    while True:
        message = await websocket.receive()
        received = time.perf_counter()
        if message["type"] == "websocket.disconnect":
            return
        frame: Any = (
            message.get("text") if message.get("text") is not None else message.get("bytes")
        )
        if frame is None:
            continue
        size = len(frame.encode() if isinstance(frame, str) else frame)
        if size > MAX_FRAME_BYTES:
            connection.send(
                ErrorOut(
                    code="frame_too_large",
                    message=_("Messages may not exceed %(limit)d bytes.", limit=MAX_FRAME_BYTES),
                ).frame()
            )
            await _close(websocket, connection, CLOSE_TOO_BIG)
            return
        try:
            limiter.check("frames")
        except SalonError:
            await _close(websocket, connection, CLOSE_POLICY)
            return
        limiter.hit("frames")
        try:
            parsed = parse_client_frame(frame)
        except ProtocolError as error:
            connection.send(ErrorOut(code=error.code, message=error.message).frame())
            continue
        try:
            soft.check("frames")
            soft.hit("frames")
        except SalonError as error:  # dropped: the client learns which action it was
            connection.send(error_out(error, _ref(parsed)))
            continue
        await _dispatch(actor, connection, parsed, chat_limiter, received)


def _ref(parsed: ClientMessage) -> str | None:
    return parsed.id if isinstance(parsed, ActionIn) else None


async def _close(websocket: WebSocket, connection: Connection, code: int) -> None:
    """Send what is already queued for this client (the error explaining why), then close."""
    connection.closed = True
    while not connection.outbox.empty():
        frame, tracker = connection.outbox.get_nowait()
        await websocket.send_text(frame.decode())
        if tracker is not None:
            tracker.sent()
    await websocket.close(code=code)


def _request(message: ActionIn) -> ActionRequest:
    """A client's action message, in the table's terms (the table never sees the wire)."""
    return ActionRequest(
        id=message.id,
        action=message.action,
        card=message.card,
        cards=tuple(message.cards) if message.cards is not None else None,
        amount=message.amount,
        version=message.version,
    )


async def _dispatch(
    actor: TableHandle,
    connection: Connection,
    parsed: ClientMessage,
    chat_limiter: SlidingWindowLimiter,
    received: float,
) -> None:
    try:
        if isinstance(parsed, PingIn):
            connection.send(PongOut(nonce=parsed.nonce).frame())
        elif isinstance(parsed, ActionIn):
            await actor.call(Act(connection, _request(parsed), received))
        elif isinstance(parsed, ChatIn):
            chat_limiter.check("chat")
            chat_limiter.hit("chat")
            await actor.call(Chat(connection, parsed.text))
        elif isinstance(parsed, EntropyIn):
            await actor.call(Contribute(connection, bytes.fromhex(parsed.value)))
        elif isinstance(parsed, DealNowIn):
            await actor.call(DealNow(connection))
        elif isinstance(parsed, SuggestIn):
            connection.send(SuggestionOut(**await actor.call(Suggest(connection))).frame())
        else:
            await actor.call(Resync(connection, parsed.version))
    except SalonError as error:
        connection.send(error_out(error, _ref(parsed)))
    except Exception as error:  # a fault behind one message must not end the socket
        log.exception("table %s: a %s message failed", actor.table_id, parsed.type)
        connection.send(error_out(error, _ref(parsed)))
