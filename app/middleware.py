"""ASGI middleware: body size limit, security headers, the CSRF cookie."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.security.csrf import CSRF_COOKIE

MAX_BODY_BYTES = 64 * 1024

_SECURITY_HEADERS = {
    b"x-content-type-options": b"nosniff",
    b"x-frame-options": b"DENY",
    b"referrer-policy": b"same-origin",
    b"content-security-policy": (
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
    ),
}

_TOO_LARGE = b'{"error":{"code":"payload_too_large","message":"The request body is too large."}}'


# Swagger UI (/docs, served by the app itself) sets inline styles; nothing else differs.
_DOCS_PATHS = ("/docs",)
_DOCS_POLICY = _SECURITY_HEADERS[b"content-security-policy"].replace(
    b"style-src 'self'", b"style-src 'self' 'unsafe-inline'"
)


class BodyTooLarge(Exception):
    pass


class BodySizeLimit:
    """Refuse request bodies over `limit` bytes, whether or not Content-Length is honest."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    @staticmethod
    async def _refuse(send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(_TOO_LARGE)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": _TOO_LARGE})


class SecurityHeaders:
    """Adds the security headers, and the CSRF cookie a page handed out (see csrf.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                docs = scope["path"].startswith(_DOCS_PATHS)
                for name, policy in _SECURITY_HEADERS.items():
                    value = _DOCS_POLICY if docs and name == b"content-security-policy" else policy
                    if name.decode() not in headers:
                        headers.append(name.decode(), value.decode())
                state = scope.get("state") or {}
                token = state.get("new_csrf_token")
                if token and not _sets_cookie(headers, CSRF_COOKIE):
                    headers.append("set-cookie", f"{CSRF_COOKIE}={token}; Path=/; SameSite=Lax")
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _sets_cookie(headers: MutableHeaders, name: str) -> bool:
    return any(v.startswith(f"{name}=") for v in headers.getlist("set-cookie"))
