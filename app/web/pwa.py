"""Salon as an installable web app: the manifest, the service worker, the offline page.

The worker (templates/sw.js) is served from the site's root, so that its scope is the whole
club, and keeps the static shell — stylesheets, scripts, icons, the offline page — in a cache
named after the build: a release changes the worker's text, the browser installs the new
one, and the new one deletes the old caches. It never stores the API, the socket or a page
(pages carry members' private data); when a page cannot be fetched because the club's server
is unreachable it answers with the offline page. See docs/web-app.md.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import DbDep, OptionalCaller
from app.i18n import _, available_languages
from app.i18n.languages import catalog_path
from app.web.assets import STATIC_DIR, asset_url, file_version
from app.web.pages import _club
from app.web.templating import TEMPLATES_DIR, templates

router = APIRouter(tags=["pages"])

# The felt's green (salon.css --felt) and the pages' background.
THEME_COLOUR = "#0f5132"
BACKGROUND_COLOUR = "#f5f3ee"
# A launcher shows a short name under the icon: a long club name is cut there.
SHORT_NAME_MAX = 12

# What the worker stores when it is installed: the offline page and what it needs, and what
# every page loads first. Other static files are stored as pages load them.
SHELL_ASSETS = (
    "css/salon.css",
    "js/pwa.js",
    "js/offline.js",
    "js/i18n.js",
    "icons/favicon-32.png",
    "icons/favicon-turn-32.png",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-512.png",
    "icons/apple-touch-icon.png",
)
OFFLINE_PATH = "/offline"
# The languages' words files (app/web/words_route.py): the worker stores the one the offline
# page names, so that its script speaks the page's language with the server away.
WORDS_PREFIX = "/i18n/"
MANIFEST_PATH = "/manifest.webmanifest"
# The worker must not keep these: live data, and the socket.
NEVER_CACHED = ("/api/", "/ws/")


@cache
def build_version() -> str:
    """12 hex digits of a hash over every static file's version (`assets.file_version`, the
    one in its URL), the worker's own templates and every language's catalog (the offline
    page and its words file are stored translated): any change to the shell names a new
    cache."""
    digest = hashlib.sha256()
    for path in sorted(p for p in STATIC_DIR.rglob("*") if p.is_file()):
        name = path.relative_to(STATIC_DIR).as_posix()
        digest.update(f"{name}={file_version(name)}\n".encode())
    for template in ("sw.js", "offline.html"):
        digest.update((TEMPLATES_DIR / template).read_bytes())
    for language in available_languages():
        catalog = catalog_path(language.code)
        if catalog.is_file():
            digest.update(catalog.read_bytes())
    return digest.hexdigest()[:12]


def worker_build() -> dict[str, Any]:
    """What the worker is told about this build (it is written into its text)."""
    return {
        "cache": f"salon-shell-{build_version()}",
        "shell": [OFFLINE_PATH, MANIFEST_PATH, *(asset_url(a) for a in SHELL_ASSETS)],
        "offline": OFFLINE_PATH,
        "words": WORDS_PREFIX,
        "never": list(NEVER_CACHED),
    }


async def _club_name(db: DbDep) -> str:
    club = await _club(db)
    return club.name if club else "Salon"


@router.get(MANIFEST_PATH)
async def manifest(db: DbDep, _caller: OptionalCaller) -> Response:
    """The web app manifest, named after the club, described in the reader's language (the
    caller is looked up for that alone)."""
    name = await _club_name(db)
    icons = [
        {"src": asset_url("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": asset_url("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": asset_url("icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "id": "/",
        "name": name,
        "short_name": name if len(name) <= SHORT_NAME_MAX else "Salon",
        "description": _("%(club)s: the club's card room.", club=name),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"cache-control": "no-cache"},
    )


@router.get("/sw.js")
async def service_worker(request: Request) -> Response:
    """The service worker's script; always revalidated, so that a release reaches it."""
    return templates.TemplateResponse(
        request,
        "sw.js",
        {"build": worker_build()},
        media_type="text/javascript",
        headers={"cache-control": "no-cache"},
    )


@router.get(OFFLINE_PATH, response_class=HTMLResponse)
async def offline_page(request: Request, db: DbDep, _caller: OptionalCaller) -> HTMLResponse:
    """What the worker shows when the club's server cannot be reached. It holds nothing
    private: the worker keeps it, and shows it to whoever uses this browser, in the language
    this browser spoke when the worker stored it (the caller is looked up for that alone)."""
    return templates.TemplateResponse(
        request,
        "offline.html",
        {"club_name": await _club_name(db), "theme_colour": THEME_COLOUR},
    )
