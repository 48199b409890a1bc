"""One access-log line per HTTP request, and its request id (app/monitoring/request_ids.py).

Placed just inside the proxy-headers middleware: the client address it logs is the
browser's behind a trusted proxy (SALON_TRUSTED_PROXIES), the peer's otherwise. The id is
set for the task serving the request (every line logged meanwhile carries it, and uvicorn's
own line about an unhandled error after it), put in the ASGI scope's state for the error
handlers, and sent back in the `X-Request-ID` header. A WebSocket gets an id too; its
session is not an access line.
"""

from __future__ import annotations

import logging
import time

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.monitoring.request_ids import HEADER, current_request_id, request_id_from
from app.web.log_redaction import blank_tokens

access_log = logging.getLogger("app.access")


class RequestLog:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(Headers(scope=scope).get(HEADER))
        # Not reset afterwards: the task ends with the request, and uvicorn logs an
        # unhandled error after the app has returned, still in this task.
        current_request_id.set(request_id)
        scope.setdefault("state", {})["request_id"] = request_id
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # unless a response starts: an unhandled error's page is a 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message).append(HEADER, request_id)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            client = scope.get("client")
            path = blank_tokens(scope["path"])  # a reset link is a secret until it is used
            duration_ms = round((time.perf_counter() - started) * 1000, 2)
            access_log.info(
                '%s "%s %s" %s %.2f ms',
                client[0] if client else "-",
                scope["method"],
                path,
                status,
                duration_ms,
                extra={
                    "client": client[0] if client else None,
                    "method": scope["method"],
                    "path": path,
                    "status": status,
                    "duration_ms": duration_ms,
                },
            )
