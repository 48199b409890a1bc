"""A frozen server is noticed by the table page: it pings, and when nothing answers within
a few seconds it says it is reconnecting and tries again, as when a socket closes —
rather than waiting on an open TCP connection while the others play on."""

from __future__ import annotations

import os
import re
import signal

import pytest
from playwright.sync_api import expect

from tests.e2e.table_ui import create_table
from tests.e2e.ui import NewPage, log_in
from tests.live import RestartableServer, demo_password


@pytest.fixture
def demo_settings() -> dict[str, str]:
    # Short pings, so that a frozen server is noticed within the test's patience.
    return {
        "SALON_NEXT_HAND_SECONDS": "1",
        "SALON_WS_PING_SECONDS": "1",
        "SALON_WS_PING_TIMEOUT_SECONDS": "2",
    }


def test_the_table_page_leaves_a_frozen_server_and_comes_back(
    demo_server: RestartableServer,
    new_page: NewPage,
    expected_console: list[re.Pattern[str]],
) -> None:
    base = f"http://{demo_server.host}"
    page = new_page()
    log_in(page, base, "admin", demo_password(demo_server.env, "admin"))
    create_table(page, base, name="Frozen", game="bourre", seats=2)
    # The snapshot is in: so is the liveness frame sent before it, with the short timings.
    expect(page.locator("#table-app")).to_have_attribute("data-version", re.compile(r"\d"))
    # The page gives up on sockets the frozen server never answers: Chromium logs it.
    expected_console.append(re.compile(r"WebSocket connection to .* failed"))
    assert demo_server.process is not None
    os.kill(demo_server.process.pid, signal.SIGSTOP)
    try:
        expect(page.locator("#connection")).to_have_text("Reconnecting…", timeout=8_000)
    finally:
        os.kill(demo_server.process.pid, signal.SIGCONT)
    expect(page.locator("#connection")).to_have_text("Connected", timeout=20_000)
