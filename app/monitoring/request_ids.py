"""Each request's id: in every log line written while it is served, in its `X-Request-ID`
response header, and on its error page, so that a member can quote it to an admin and the
admin find the request's lines.

A proxy's or client's `X-Request-ID` is kept when it is short and plain (letters, digits,
`.`, `_`, `-`, at most 64): a line in the proxy's log then leads to the app's. Anything else
is replaced by a new random id.
"""

from __future__ import annotations

import re
import secrets
from contextvars import ContextVar

HEADER = "X-Request-ID"
_WELL_FORMED = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

# The request being served by the current task (None: outside any request).
current_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def request_id_from(header: str | None) -> str:
    if header is not None and _WELL_FORMED.match(header):
        return header
    return secrets.token_hex(8)
