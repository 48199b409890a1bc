"""Salon in Chromium as an installable web app, and a turn nobody misses.

Installable: the manifest parses with what an install needs, each icon loads at its stated
size, Chromium itself finds nothing in the way of installing, the service worker controls
the page after a reload and keeps the static shell but nothing of the API or the socket,
and a page asked for while the club's server is unreachable is the offline page.

A turn nobody misses: with the table out of view (its tab hidden, or its window not
focused), the player's turn marks the tab's title and icon, vibrates a phone and, once the
player allowed it from the "Notify me" button (never asked on load), shows a system
notification; all comes back when the player does or the turn passes."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from app.api.deps import LANGUAGE_COOKIE
from tests.e2e.table_ui import (
    act,
    call_api,
    quick_table,
    resume,
    table_option,
    to_act,
    wait_for_the_deal,
)
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage, Shot, fold_menu, log_in

SHELL_URLS = """async () => {
    const urls = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) urls.push(request.url);
    }
    return urls;
}"""

ICON_SIZE = """async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    return `${image.naturalWidth}x${image.naturalHeight}`;
}"""


def manifest_of(page: Page) -> dict[str, Any]:
    """The manifest the page links, fetched and parsed as JSON by the page."""
    manifest: dict[str, Any] = page.evaluate(
        """async () => {
            const link = document.querySelector('link[rel="manifest"]');
            const response = await fetch(link.href);
            return {type: response.headers.get("content-type"), body: await response.json()};
        }"""
    )
    assert manifest["type"] == "application/manifest+json"
    body: dict[str, Any] = manifest["body"]
    return body


def test_the_club_installs_as_a_web_app_and_says_when_it_is_unreachable(
    live_server: LiveServer,
    new_page: NewPage,
    shot: Shot,
    expected_console: list[re.Pattern[str]],
) -> None:
    base = live_server.base_url
    page = new_page()
    log_in(page, base, live_server.owner_username, live_server.owner_password)

    manifest = manifest_of(page)
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    stated = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= stated
    for icon in manifest["icons"]:
        assert page.evaluate(ICON_SIZE, icon["src"]) == icon["sizes"], icon

    # The worker takes over; after a reload it controls the page from the start.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{base}/sw.js"

    # Chromium's own verdict, as its install prompt uses it.
    devtools = page.context.new_cdp_session(page)
    parsed = devtools.send("Page.getAppManifest")
    assert parsed["errors"] == [], parsed["errors"]
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's browser context is a private window, where Chromium installs nothing: that
    # is the only thing it may hold against the club (a missing icon, manifest field or
    # worker would be listed here).
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []

    # Pages with the API and the socket: the table (its socket, its API calls), the lobby.
    table = {
        "name": "Installed",
        "game": "bourre",
        "seat_count": 2,
        "rules": {"ante": 1},
        "buy_in_min": 50,
        "buy_in_max": 500,
    }
    table_id = call_api(page, "POST", "/api/tables", table)["id"]
    page.goto(f"{base}/tables/{table_id}")
    expect(page.locator("#connection")).to_have_text("Connected")
    page.goto(f"{base}/lobby")
    expect(page.locator(f"li.table-row[data-table-id='{table_id}']")).to_be_visible()
    kept = page.evaluate(SHELL_URLS)
    assert f"{base}/offline" in kept
    assert any(url.startswith(f"{base}/static/css/salon.css?v=") for url in kept)
    assert any(url.startswith(f"{base}/static/js/table/main.js") for url in kept), kept
    assert not [url for url in kept if re.match(rf"{re.escape(base)}/(api|ws)/", url)]
    # No page with a member's data: only the offline page and the manifest are not files.
    pages = [url for url in kept if not url.startswith(f"{base}/static/")]
    assert sorted(pages) == [f"{base}/manifest.webmanifest", f"{base}/offline"]

    # The network goes: a page asked for is the offline page, at the address asked for.
    expected_console.append(re.compile(r"ERR_INTERNET_DISCONNECTED"))
    page.context.set_offline(True)
    page.goto(f"{base}/lobby")
    expect(page.get_by_role("heading", name=re.compile(r"^Can't reach "))).to_be_visible()
    said = "The club is unreachable. Salon will reconnect when the club's server answers again."
    expect(page.get_by_text(said)).to_be_visible()
    expect(page).to_have_url(f"{base}/lobby")
    retry = page.get_by_role("button", name="Try again")
    retry.click()
    expect(page.get_by_role("status")).to_have_text(re.compile("Still unreachable"))
    shot(page, "offline")
    # Back online, "Try again" loads the page that was asked for.
    page.context.set_offline(False)
    retry.click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()


def test_the_offline_page_on_a_phone(
    live_server: LiveServer,
    new_page: NewPage,
    shot: Shot,
    expected_console: list[re.Pattern[str]],
) -> None:
    base = live_server.base_url
    page = new_page(PHONE)
    page.goto(f"{base}/login")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    expected_console.append(re.compile(r"ERR_INTERNET_DISCONNECTED"))
    page.context.set_offline(True)
    page.goto(f"{base}/lobby")
    expect(page.get_by_text("The club is unreachable.")).to_be_visible()
    retry = page.get_by_role("button", name="Try again")
    expect(retry).to_be_in_viewport(ratio=1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "offline-phone")


def test_the_offline_page_speaks_the_language_it_was_kept_in(
    live_server: LiveServer,
    new_page: NewPage,
    expected_console: list[re.Pattern[str]],
) -> None:
    """A visitor reading the club in Russian when the worker was installed gets the offline
    page in Russian, its script's words too, with the server away."""
    base = live_server.base_url
    page = new_page()
    # Chosen before the first page, so that the worker stores the Russian offline page.
    page.context.add_cookies([{"name": LANGUAGE_COOKIE, "value": "ru", "url": base}])
    page.goto(f"{base}/login")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    kept = page.evaluate(SHELL_URLS)
    assert any(url.startswith(f"{base}/static/js/i18n.js?v=") for url in kept), kept
    assert any(url.startswith(f"{base}/i18n/ru.json?v=") for url in kept), kept

    expected_console.append(re.compile(r"ERR_INTERNET_DISCONNECTED"))
    page.context.set_offline(True)
    page.goto(f"{base}/lobby")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    retry = page.get_by_role("button", name="Попробовать снова")
    retry.click()
    # The script's sentence, in the plural form Russian takes for five.
    said = "Всё ещё недоступен. Новая попытка каждые 5 секунд."
    expect(page.get_by_role("status")).to_have_text(said)


# Installed before the table loads: the page's visibility and focus as the test sets them
# (`__show(false)`: another tab in front), and a count of what the page asks the browser.
WATCH = """
(() => {
    const calls = {permission: 0, notifications: [], vibrations: []};
    window.__calls = calls;
    let shown = true;
    Object.defineProperty(Document.prototype, "visibilityState", {
        configurable: true, get: () => (shown ? "visible" : "hidden"),
    });
    Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => !shown});
    Document.prototype.hasFocus = () => shown;
    window.__show = (visible) => {
        shown = visible;
        document.dispatchEvent(new Event("visibilitychange"));
        window.dispatchEvent(new Event(visible ? "focus" : "blur"));
    };
    const Real = window.Notification;
    const ask = Real.requestPermission.bind(Real);
    Real.requestPermission = (...args) => { calls.permission += 1; return ask(...args); };
    window.Notification = class extends Real {
        constructor(title, options) {
            super(title, options);
            calls.notifications.push({title, tag: options?.tag, url: options?.data?.url});
        }
    };
    const show = ServiceWorkerRegistration.prototype.showNotification;
    ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
        calls.notifications.push({title, tag: options?.tag, url: options?.data?.url});
        return show.call(this, title, options);
    };
    navigator.vibrate = (pattern) => { calls.vibrations.push(pattern); return true; };
})();
"""


def calls(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("window.__calls")
    return found


SHOWN = """navigator.serviceWorker.ready
    .then((registration) => registration.getNotifications())
    .then((shown) => shown.map((notification) => notification.title))"""


def shown_notifications(page: Page, titles: list[str]) -> bool:
    """Whether the browser comes to show exactly these notifications for the club (their
    titles) within a few seconds: showing and closing them is asynchronous."""
    deadline = time.monotonic() + 5
    while page.evaluate(SHOWN) != titles:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def icon_href(page: Page) -> str:
    href: str = page.locator('link[rel="icon"]').evaluate("el => el.getAttribute('href')")
    return href


def test_a_turn_out_of_view_is_called_by_title_icon_vibration_and_notification(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    base = live_server.base_url
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=2,
        names=["Alice", "Bob"],
        screens=[DESKTOP, PHONE],
    )
    pages = [page for page, _, _ in players]
    titles: dict[Page, str] = {}
    for page in pages:
        page.context.grant_permissions(["notifications"], origin=base)
        page.context.add_init_script(WATCH)
        page.reload()
        expect(page.locator("#connection")).to_have_text("Connected")
        titles[page] = page.title()
        assert calls(page)["permission"] == 0, "asked for permission on load"
        button = table_option(page, "button", "Notify me on my turn")  # in a phone's menu
        expect(button).to_have_attribute("aria-pressed", "false")
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        assert calls(page)["permission"] == 1
    shot(pages[0], "table-notify-laptop")
    shot(pages[1], "table-notify-phone")
    fold_menu(pages[1])
    plain_icon = icon_href(pages[0])
    assert "favicon-32.png" in plain_icon

    for page in pages:
        page.evaluate("__show(false)")
    resume(owner)
    wait_for_the_deal(pages)
    called: set[str] = set()
    for _ in range(12):
        acting = to_act(pages)
        if acting is None or len(called) == len(pages):
            break
        page = acting
        other = pages[1 - pages.index(page)]
        name = players[pages.index(page)][2]
        play = page.locator("#controls button:enabled, #my-hand button.is-legal").first
        if name in called:  # checked already (a turn may follow the same player's turn)
            act(page, play)
            continue
        # Out of view, the player whose turn it is is called; the other one is not.
        expect(page).to_have_title(f"● Your turn — {titles[page]}")
        assert "favicon-turn-32.png" in icon_href(page)
        if not other.locator("#prompt.prompt--turn").count():
            expect(other).to_have_title(titles[other])
        told = calls(page)["notifications"]
        assert told, f"no notification for {name}"
        assert told[-1]["title"] == "Your turn at Alice's bourre"
        assert told[-1]["url"] == page.url
        assert calls(page)["vibrations"], f"{name}'s device did not vibrate"
        # The browser shows it (through the worker), until the player is back.
        assert shown_notifications(page, ["Your turn at Alice's bourre"])
        # Back at the table: title and icon as they were, the notification gone.
        page.evaluate("__show(true)")
        expect(page).to_have_title(titles[page])
        assert icon_href(page) == plain_icon
        assert shown_notifications(page, [])
        # Away again and the turn passes (the player acts): as they were too.
        page.evaluate("__show(false)")
        expect(page).to_have_title(f"● Your turn — {titles[page]}")
        act(page, play)
        if not page.locator("#prompt.prompt--turn").count():
            expect(page).to_have_title(titles[page])
            assert icon_href(page) == plain_icon
        called.add(name)
    assert called == {"Alice", "Bob"}
