"""The interactive API documentation at `/docs`, with everything served by the app itself.

FastAPI's own page loads Swagger UI from a CDN, so on a club's closed network it was blank.
Here Swagger UI's files (version 5, which reads OpenAPI 3.1) come from the `fastapi-offline`
package (mounted at `/docs/assets`; only its files are used), and the page starts Swagger UI
from our own script: no inline script, so the page keeps the site's Content-Security-Policy
(Swagger UI only needs inline styles on top).
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from app.web.templating import templates

ASSETS = "/docs/assets"
SWAGGER_UI_FILES = Path(fastapi_offline.__file__).parent / "static"


async def docs(request: Request) -> Response:
    return templates.TemplateResponse(
        request, "docs.html", {"assets": ASSETS, "openapi_url": request.app.openapi_url}
    )


def mount_docs(app: FastAPI) -> None:
    # A plain route: the page that shows the API is not itself part of it.
    app.add_route("/docs", docs, include_in_schema=False)
    app.mount(ASSETS, StaticFiles(directory=SWAGGER_UI_FILES), name="docs-assets")
