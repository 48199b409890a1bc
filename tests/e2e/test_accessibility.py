"""An accessibility pass with axe-core (shipped inside axe-playwright-python; nothing is
downloaded) over the pages a member and an admin use, on a laptop and a phone: no serious
or critical violation."""

from __future__ import annotations

from tests.e2e.table_ui import create_table
from tests.e2e.ui import PHONE, LiveServer, NewPage, log_in, serious_violations


def test_the_pages_pass_axe(live_server: LiveServer, new_page: NewPage) -> None:
    base = live_server.base_url
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    table_id = create_table(owner, base, name="Axe night", game="bourre", seats=3)
    found: dict[str, list[str]] = {}
    for screen, label in ((None, "laptop"), (PHONE, "phone")):
        page = new_page() if screen is None else new_page(screen)
        page.goto(f"{base}/login")
        found[f"login {label}"] = serious_violations(page)
        log_in(page, base, live_server.owner_username, live_server.owner_password)
        for path in (
            "/lobby",
            "/account",
            "/admin",
            "/admin/log",
            f"/admin/tables/{table_id}",
            "/hands",
            f"/tables/{table_id}",
        ):
            page.goto(f"{base}{path}")
            page.wait_for_load_state("networkidle")
            found[f"{path} {label}"] = serious_violations(page)
    problems = {where: issues for where, issues in found.items() if issues}
    assert not problems, "\n".join(f"{w}: {i}" for w, i in problems.items())
