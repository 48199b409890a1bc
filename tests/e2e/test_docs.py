"""The API documentation works on a closed network: with every request that leaves the
machine refused, /docs still shows the API's operations (Swagger UI served by the app)."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Route, expect

from tests.e2e.ui import PHONE, LiveServer, NewPage, Shot


def _local_only(route: Route, refused: list[str]) -> None:
    if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
        route.continue_()
    else:
        refused.append(route.request.url)
        route.abort()


def test_the_docs_work_without_the_internet(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    for screen, name in ((None, "docs"), (PHONE, "docs-phone")):
        page = new_page() if screen is None else new_page(screen)
        outside: list[str] = []
        page.route("**/*", lambda route, seen=outside: _local_only(route, seen))
        page.goto(f"{live_server.base_url}/docs")
        grant = page.locator(".opblock-summary-path", has_text="/api/admin/chips/grant").first
        expect(grant).to_be_visible()
        expect(page.locator(".opblock").first).to_be_visible()
        assert page.locator(".opblock").count() > 20
        assert outside == []
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        shot(page, name)
