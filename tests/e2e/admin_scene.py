"""A club with something on every admin page: a sign-up waiting, a member who asked for
chips (one request waiting, one answered), bought in, topped up and cashed out at a Bourré
table where a bot now sits, and a changed club setting in the audit log.

Set up through the API from the pages' own sessions (quick, and the same calls the pages'
scripts make); the tests then look only at what the pages show.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from playwright.sync_api import Page

from tests.e2e.table_ui import PASSWORD, call_api
from tests.e2e.ui import LiveServer, NewPage, log_in


@dataclass(frozen=True, slots=True)
class AdminScene:
    owner: Page
    # Approved, with a history: chips asked for, a sitting at the table.
    member_id: int
    member_username: str
    member_name: str
    # Waiting for approval.
    pending_username: str
    pending_name: str
    table_id: int
    table_name: str


def sign_up(page: Page, base: str, name: str) -> tuple[int, str]:
    """Register `name` from `page`'s own session; its id and username."""
    username = f"{name.split()[0].lower()}{secrets.token_hex(3)}"
    page.goto(f"{base}/login")
    answer = call_api(
        page,
        "POST",
        "/api/auth/register",
        {"username": username, "password": PASSWORD, "display_name": name},
    )
    return int(answer["member"]["id"]), username


def key() -> str:
    return secrets.token_hex(8)


def club_with_history(live_server: LiveServer, new_page: NewPage) -> AdminScene:
    base = live_server.base_url
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    # A settings change for the audit log: sign-ups wait for approval (then back as it was).
    club = call_api(owner, "GET", "/api/admin/club")
    approval = bool(club["signup_requires_approval"])
    call_api(owner, "PATCH", "/api/admin/club", {"signup_requires_approval": not approval})
    call_api(owner, "PATCH", "/api/admin/club", {"signup_requires_approval": True})

    pending_name = "Carol Waiting"
    _, pending_username = sign_up(new_page(), base, pending_name)

    member = new_page()
    member_name = "Dora Member"
    member_id, member_username = sign_up(member, base, member_name)
    call_api(owner, "POST", f"/api/admin/members/{member_id}/approve")
    grant = {"member_id": member_id, "amount": 1000, "reason": "Club night"}
    call_api(owner, "POST", "/api/admin/chips/grant", {**grant, "idempotency_key": key()})
    one = {"member_id": member_id, "amount": 1, "reason": "Rounding"}
    call_api(owner, "POST", "/api/admin/chips/grant", {**one, "idempotency_key": key()})
    call_api(member, "POST", "/api/auth/login", {"username": member_username, "password": PASSWORD})
    member.goto(f"{base}/account")
    answered = call_api(member, "POST", "/api/me/chip-requests", {"amount": 1, "note": "one"})
    call_api(owner, "POST", f"/api/admin/chip-requests/{answered['id']}/approve", {"answer": ""})
    call_api(member, "POST", "/api/me/chip-requests", {"amount": 200, "note": "Friday night"})

    table_name = f"Friday {secrets.token_hex(2)}"
    table = call_api(
        owner,
        "POST",
        "/api/tables",
        {
            "name": table_name,
            "game": "bourre",
            "seat_count": 4,
            "rules": {"ante": 1},
            "buy_in_min": 50,
            "buy_in_max": 500,
            "turn_seconds": 300,
        },
    )
    table_id = int(table["id"])
    call_api(member, "POST", f"/api/tables/{table_id}/seat", {"buy_in": 100, "request_key": key()})
    call_api(member, "POST", f"/api/tables/{table_id}/top-up", {"amount": 50, "request_key": key()})
    call_api(member, "POST", f"/api/tables/{table_id}/stand")
    call_api(owner, "POST", f"/api/tables/{table_id}/bots", {"request_key": key()})
    return AdminScene(
        owner=owner,
        member_id=member_id,
        member_username=member_username,
        member_name=member_name,
        pending_username=pending_username,
        pending_name=pending_name,
        table_id=table_id,
        table_name=table_name,
    )
