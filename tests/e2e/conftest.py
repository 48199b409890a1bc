"""Browser tests: Debian's Chromium driven by Playwright against a real `salon serve`.

Playwright's sync API, so the tests are plain functions. While it runs, the sync API marks
its own asyncio loop as running in the thread, and pytest-asyncio (or any `asyncio.run`)
refuses to start a loop then. Hence: e2e tests and their fixtures stay synchronous and do
not use asyncio, and the browser lives for this folder only (package scope), closed before
the rest of the suite's async tests run.

No browser is ever downloaded: the tests use the system Chromium (`apt-get install
chromium`), or SALON_TEST_CHROMIUM. Without it they skip on a developer's machine and fail
when `CI=true`, like the Postgres tests: CI must never pass by skipping them.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Response,
    WebError,
    expect,
    sync_playwright,
)

from tests.e2e.ui import DESKTOP, LiveServer, NewPage, Screen, Shot
from tests.live import PROJECT_DIR, RestartableServer, running_server, salon, salon_env

CHROMIUM = os.environ.get("SALON_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = PROJECT_DIR / "var" / "screenshots"
OWNER = "owner"
# Where `salon` keeps its embedded database in its data directory (Settings.database_url).
DATABASE_FILE = "salon.db"
# Fail fast: a page that is not there in ten seconds is broken, not slow.
ACTION_TIMEOUT_MS = 10_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test: select them with `-m e2e`."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.e2e)


def browser_required() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One Chromium for all the browser tests; each person gets a context (new_page)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        message = (
            f"Chromium not found at {CHROMIUM}: install it (apt-get install chromium) "
            "or set SALON_TEST_CHROMIUM"
        )
        if browser_required():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    # Assertions wait as long as actions do: CI shares two cores with the server.
    expect.set_options(timeout=ACTION_TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database migrated by `salon migrate`, once per test process: each
    server below starts from a copy of it (a copy takes milliseconds, a migration seconds)."""
    data_dir = tmp_path_factory.mktemp("migrated")
    migrated = salon("migrate", env=salon_env(data_dir))
    assert migrated.returncode == 0, migrated.stderr
    return data_dir / DATABASE_FILE


def fresh_database(data_dir: Path, migrated: Path) -> None:
    shutil.copyfile(migrated, data_dir / DATABASE_FILE)


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, migrated_database: Path
) -> Iterator[LiveServer]:
    """`salon serve` on a fresh SQLite database, with its club founded by a known owner."""
    data_dir = tmp_path_factory.mktemp("e2e")
    # The result panel shows until the next deal: long enough for a busy machine to read it.
    env = salon_env(data_dir, SALON_NEXT_HAND_SECONDS="6")
    fresh_database(data_dir, migrated_database)
    password = secrets.token_urlsafe(16)
    created = salon("create-admin", OWNER, "--password-stdin", env=env, stdin=f"{password}\n")
    assert created.returncode == 0, created.stderr
    with running_server(env) as base:
        yield LiveServer(
            base_url=base, owner_username=OWNER, owner_password=password, data_dir=data_dir
        )


@pytest.fixture
def expected_console() -> list[re.Pattern[str]]:
    """Console errors a test causes on purpose (a socket refused while the server is down);
    a test appends their patterns, and only those are forgiven."""
    return []


@pytest.fixture
def new_page(browser: Browser, expected_console: list[re.Pattern[str]]) -> Iterator[NewPage]:
    """Open pages in fresh contexts; fail the test if any page logged an error or threw."""
    contexts: list[BrowserContext] = []
    console_errors: list[ConsoleMessage] = []
    page_errors: list[WebError] = []
    # Pages whose own status was an error: a form redisplayed with its error is sent as a
    # 4xx on purpose (the test checks what it shows), and Chromium logs that status.
    documents: set[str] = set()

    def on_response(response: Response) -> None:
        if response.request.is_navigation_request():
            documents.add(response.url)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            console_errors.append(message)

    def on_page_error(error: WebError) -> None:
        page_errors.append(error)

    def open_page(viewport: Screen = DESKTOP, *, locale: str | None = None) -> Page:
        context = browser.new_context(
            viewport={"width": viewport.width, "height": viewport.height},
            is_mobile=viewport.mobile,
            has_touch=viewport.mobile,
            # The browser's language: its Accept-Language and navigator.language.
            locale=locale,
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.on("response", on_response)
        context.on("console", on_console)
        context.on("weberror", on_page_error)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    errors = [f"uncaught error on {where(e.page)}: {e.error}" for e in page_errors]
    errors += [
        f"console error on {where(m.page)}: {m.text}"
        + (f" ({m.location['url']})" if m.location.get("url") else "")
        for m in console_errors
        if not is_status_of(m, documents)
        and not any(pattern.search(m.text) for pattern in expected_console)
    ]
    if errors:
        pytest.fail("the browser reported errors:\n" + "\n".join(errors), pytrace=False)


def where(page: Page | None) -> str:
    return page.url if page else "?"


def is_status_of(message: ConsoleMessage, documents: set[str]) -> bool:
    """Whether the message is only Chromium reporting a page's own HTTP error status, or
    the 404 of the /favicon.ico that browsers ask for by themselves."""
    if not message.text.startswith("Failed to load resource"):
        return False
    url = message.location.get("url", "")
    return url in documents or urlsplit(url).path == "/favicon.ico"


@pytest.fixture(scope="session")
def shot() -> Shot:
    """Save full-page screenshots under var/screenshots/ to look at after the run."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str, *, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=path, full_page=full_page)
        return path

    return take


@pytest.fixture
def demo_settings() -> dict[str, str]:
    """The demo server's settings beyond the defaults; a test module may ask for others."""
    return {"SALON_NEXT_HAND_SECONDS": "1"}


@pytest.fixture
def demo_server(
    tmp_path: Path, migrated_database: Path, demo_settings: dict[str, str]
) -> Iterator[RestartableServer]:
    """The demo club on SQLite behind a server the test may kill and start again."""
    env = salon_env(tmp_path, **demo_settings)
    fresh_database(tmp_path, migrated_database)
    assert salon("demo", env=env).returncode == 0
    server = RestartableServer(env)
    server.start()
    try:
        yield server
    finally:
        server.stop()
