"""Static files are compressed and cached for as long as they cannot change; the API
documentation at /docs works without the internet (everything served by the app)."""

from __future__ import annotations

import hashlib
import re

import httpx

from app.db.session import Database
from app.web.assets import STATIC_DIR
from tests.helpers import found_club, login

STATIC_LINK = re.compile(r'(?:src|href)="(/static/[^"]+)"')
EXTERNAL = re.compile(r'(?:src|href)="(?:https?:)?//')


async def test_pages_link_versioned_assets_that_are_cached_for_good(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    assert (await login(client, "owner")).status_code == 200
    links: set[str] = set()
    for page in ("/login", "/lobby", "/account", "/admin"):
        html = (await client.get(page)).text
        links |= set(STATIC_LINK.findall(html))
    assert {"css/salon.css", "js/lobby.js"} <= {
        link.split("?")[0].removeprefix("/static/") for link in links
    }
    for link in links:
        path, _, query = link.partition("?")
        content = (STATIC_DIR / path.removeprefix("/static/")).read_bytes()
        assert query == f"v={hashlib.sha256(content).hexdigest()[:12]}", link
        answer = await client.get(link)
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"


async def test_unversioned_or_stale_assets_are_revalidated(client: httpx.AsyncClient) -> None:
    """A module imported by another (no version in its URL) or an old version's URL: the
    browser must check it again, and gets a 304 when nothing changed."""
    for url in ("/static/js/table/felt.js", "/static/js/table/felt.js?v=000000000000"):
        first = await client.get(url)
        assert first.status_code == 200
        assert first.headers["cache-control"] == "no-cache"
        again = await client.get(url, headers={"if-none-match": first.headers["etag"]})
        assert again.status_code == 304
        assert again.headers["cache-control"] == "no-cache"


async def test_text_is_compressed(client: httpx.AsyncClient) -> None:
    for url in ("/static/js/table/main.js", "/static/css/salon.css", "/openapi.json"):
        answer = await client.get(url, headers={"accept-encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers.get("content-encoding") == "gzip", url
        assert int(answer.headers["content-length"]) < len(answer.content)


async def test_the_docs_need_nothing_from_outside(client: httpx.AsyncClient) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200
    assert not EXTERNAL.search(page.text), "the docs page loads something from outside"
    for asset in re.findall(r'(?:src|href)="([^"]+)"', page.text):
        assert (await client.get(asset)).status_code == 200, asset
    # The site's policy holds: scripts only from the site itself, no inline script.
    policy = page.headers["content-security-policy"]
    assert (
        "script-src 'self';" in policy
        and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    )
    assert "<script>" not in page.text
    assert (await client.get("/redoc")).status_code == 404
