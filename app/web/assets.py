"""Static files: compressed by the app's GZip middleware, cached by the browser for as long
as they cannot change.

A page names each file it loads through `asset_url`, which adds `?v=` and the first 12 hex
digits of the file's SHA-256: a versioned URL names one content forever, so it is served
`immutable` for a year, and a new release changes the URL. Anything asked for without the
right version (the ES modules a script imports, a stale link) is served `no-cache`: the
browser revalidates it with its ETag and gets a 304 when nothing changed.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC_DIR = Path(__file__).resolve().parents[2] / "static"
FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@cache
def file_version(path: str) -> str:
    """The first 12 hex digits of the SHA-256 of static/<path> (read once per process)."""
    return hashlib.sha256((STATIC_DIR / path).read_bytes()).hexdigest()[:12]


def asset_url(path: str) -> str:
    """`/static/<path>?v=<content hash>`; computed once per file per process."""
    return f"/static/{path}?v={file_version(path)}"


class VersionedStatic(StaticFiles):
    """StaticFiles that says how long a response may be kept (see the module's text)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            query = scope.get("query_string", b"").decode()
            current = (STATIC_DIR / path).is_file() and query == f"v={file_version(path)}"
            response.headers["cache-control"] = FOREVER if current else REVALIDATE
        return response
