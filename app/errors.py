"""Domain errors: a stable machine code, a sentence a person understands, an HTTP status.

Routers never build error responses by hand; they raise one of these and the handlers in
`app.main` turn it into `{"error": {"code": ..., "message": ...}}` with the right status.
"""

from __future__ import annotations

from typing import Any

from app.i18n import _, ngettext


class SalonError(Exception):
    status_code = 400

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        return body


class InvalidInput(SalonError):
    status_code = 422


class NotAuthenticated(SalonError):
    status_code = 401

    def __init__(self, message: str | None = None) -> None:
        super().__init__("not_authenticated", message or _("Please log in."))


class LoginFirst(NotAuthenticated):
    """Not logged in, on a page: a browser asking for it (GET) is sent to the login page."""


class Forbidden(SalonError):
    status_code = 403


class NotFound(SalonError):
    status_code = 404


class Conflict(SalonError):
    status_code = 409


class RateLimited(SalonError):
    status_code = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            "rate_limited",
            ngettext(
                "Too many attempts. Try again in %(num)d second.",
                "Too many attempts. Try again in %(num)d seconds.",
                retry_after,
            ),
            retry_after=retry_after,
        )
        self.retry_after = retry_after
