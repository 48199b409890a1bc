"""The admin dashboard page, used as an admin would: forms and buttons."""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
from fastapi import FastAPI

from app.db.models import AccountKind, MemberStatus
from app.db.session import Database
from app.services import ledger, members
from tests.helpers import add_member, found_club, login, open_bourre_table, snapshot

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
CHIP_KEY = re.compile(r'name="chip_key" value="([^"]+)"')


async def admin_client(app: FastAPI) -> httpx.AsyncClient:
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
    assert (await login(client, "owner")).status_code == 200
    return client


async def page_tokens(client: httpx.AsyncClient) -> tuple[str, str]:
    page = await client.get("/admin")
    assert page.status_code == 200
    token, key = TOKEN.search(page.text), CHIP_KEY.search(page.text)
    assert token and key
    return token.group(1), key.group(1)


async def test_approve_a_pending_member_from_the_dashboard(app: FastAPI, db: Database) -> None:
    await found_club(db)
    pending = await add_member(db, "paul", status=MemberStatus.PENDING)
    admin = await admin_client(app)
    token, _ = await page_tokens(admin)
    response = await admin.post(f"/admin/members/{pending}/approve", data={"csrf_token": token})
    assert response.status_code == 200
    assert "paul: active." in response.text
    again = await admin.post(f"/admin/members/{pending}/approve", data={"csrf_token": token})
    assert again.status_code == 409
    assert "is not waiting for approval" in again.text


async def test_a_resent_chip_form_moves_chips_once(app: FastAPI, db: Database) -> None:
    await found_club(db)
    member = await add_member(db, "rita", chips=10)
    admin = await admin_client(app)
    token, key = await page_tokens(admin)
    form = {
        "csrf_token": token,
        "chip_key": key,
        "member_id": str(member),
        "amount": "40",
        "reason": "Cash buy-in",
        "direction": "grant",
    }
    first = await admin.post("/admin/chips", data=form)
    assert "Granted 40 to rita." in first.text
    before = await snapshot(db)
    resent = await admin.post("/admin/chips", data=form)
    assert "nothing moved twice" in resent.text
    assert await snapshot(db) == before
    assert ("member:2", 50) in before[0]


async def test_bad_chip_forms_change_nothing(app: FastAPI, db: Database) -> None:
    await found_club(db)
    member = await add_member(db, "sam", chips=5)
    admin = await admin_client(app)
    token, key = await page_tokens(admin)
    before = await snapshot(db)
    base = {"csrf_token": token, "chip_key": key, "member_id": str(member), "reason": "x"}
    for amount, direction, message in [
        ("6", "deduct", "Not enough chips"),
        ("-3", "grant", "whole positive numbers"),
        ("lots", "grant", "Amount must be a whole number"),
    ]:
        response = await admin.post(
            "/admin/chips", data={**base, "amount": amount, "direction": direction}
        )
        assert response.status_code in (409, 422)
        assert message in response.text
    assert await snapshot(db) == before


async def test_club_settings_form_validates(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await admin_client(app)
    token, _ = await page_tokens(admin)
    bad = await admin.post(
        "/admin/club",
        data={"csrf_token": token, "name": "X", "chip_unit": "c", "default_turn_seconds": "2"},
    )
    assert bad.status_code == 422
    assert "5 to 600 seconds" in bad.text
    ok = await admin.post(
        "/admin/club",
        data={
            "csrf_token": token,
            "name": "Le Cercle",
            "chip_unit": "jetons",
            "default_turn_seconds": "20",
            "members_may_create_tables": "on",
        },
    )
    assert "Club settings saved." in ok.text
    club = (await admin.get("/api/club")).json()
    assert club == {
        "name": "Le Cercle",
        "chip_unit": "jetons",
        "signup_requires_approval": False,
        "default_turn_seconds": 20,
        "members_may_create_tables": True,
        # The settings form leaves the seed reveal policy as it was (the default).
        "seed_reveal": "session",
    }


async def test_members_and_strangers_are_kept_out(
    app: FastAPI, client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    await add_member(db, "tina")
    assert (await client.get("/admin")).status_code == 303
    assert (await login(client, "tina")).status_code == 200
    page = await client.get("/admin", headers={"accept": "text/html"})
    assert page.status_code == 403
    assert "Only the club&#39;s admins" in page.text or "Only the club's admins" in page.text


async def test_a_bad_id_in_an_admin_form_is_an_error_page_and_changes_nothing(
    app: FastAPI, db: Database
) -> None:
    """Past Postgres' 32-bit ids, below 1, or in other digits ("٢" is 2 in Arabic-Indic
    digits, and Python's int() reads it so): refused before anything is looked up."""
    await found_club(db)
    pending = await add_member(db, "uma", chips=5, status=MemberStatus.PENDING)
    assert pending == 2
    admin = await admin_client(app)
    token, key = await page_tokens(admin)
    before = await snapshot(db)
    browser = {"accept": "text/html"}
    for bad in (str(2**31), str(2**63), "-1", "0", "٢"):
        approve = await admin.post(
            f"/admin/members/{quote(bad)}/approve", data={"csrf_token": token}, headers=browser
        )
        grant = await admin.post(
            "/admin/chips",
            data={
                "csrf_token": token,
                "chip_key": key,
                "member_id": bad,
                "amount": "5",
                "reason": "Cash buy-in",
                "direction": "grant",
            },
            headers=browser,
        )
        for response in (approve, grant):
            assert response.status_code == 422, (bad, response.text[:300])
            assert 'role="alert" data-code="invalid_input"' in response.text
    assert await snapshot(db) == before
    members = (await admin.get("/api/admin/members", params={"status": "pending"})).json()
    assert [m["username"] for m in members] == ["uma"]


async def test_stranded_chips_are_shown_and_returned_from_the_dashboard(
    app: FastAPI, db: Database
) -> None:
    """A seat account holding chips with nobody seated (what a bad cash-out key once left):
    the dashboard says the audit failed, names the chips, and its button gives them back."""
    await found_club(db)
    member = await add_member(db, "sami", chips=300)
    account = f"seat:7:{member}"
    async with db.transaction() as session:
        await ledger.open_account(session, account, AccountKind.SEAT, member)
        await ledger.post(
            session,
            idempotency_key="stranded-by-a-test",
            kind="buy_in",
            reason="left behind",
            actor_id=member,
            movements=[ledger.Movement(ledger.member_account_key(member), account, 120)],
        )
    admin = await admin_client(app)
    page = await admin.get("/admin")
    assert 'data-testid="audit">INCONSISTENT' in page.text
    assert f"Return the 120 chips stranded in {account}" in page.text
    token, _ = await page_tokens(admin)
    # Not an account's key (a NUL, which Postgres cannot store): refused, nothing moves.
    for odd in ("seat:7:\x00", "bank; drop", f"{account}\n"):
        refused = await admin.post(
            "/admin/stranded/return", data={"csrf_token": token, "account": odd}
        )
        assert refused.status_code == 422, (odd, refused.text)
    answer = await admin.post(
        "/admin/stranded/return", data={"csrf_token": token, "account": account}
    )
    assert answer.status_code == 200, answer.text
    assert f"120 chips returned from {account}." in answer.text
    assert 'data-testid="audit">balanced' in answer.text
    async with db.transaction() as session:
        assert await ledger.balance_of(session, ledger.member_account_key(member)) == 300


async def test_the_seed_reveal_policy_is_chosen_on_the_dashboard(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    admin = await admin_client(app)
    page = await admin.get("/admin")
    assert '<option value="session" selected>' in page.text
    token, _ = await page_tokens(admin)
    form = {"csrf_token": token, "name": "Le Cercle", "chip_unit": "jetons"}
    form["default_turn_seconds"] = "20"
    ok = await admin.post("/admin/club", data={**form, "seed_reveal": "hand"})
    assert "Club settings saved." in ok.text
    assert '<option value="hand" selected>' in ok.text
    assert (await admin.get("/api/club")).json()["seed_reveal"] == "hand"
    bad = await admin.post("/admin/club", data={**form, "seed_reveal": "never"})
    assert bad.status_code == 422
    assert (await admin.get("/api/club")).json()["seed_reveal"] == "hand"


async def test_a_mute_says_until_when_as_a_time_shown_in_the_admins_zone(
    app: FastAPI, db: Database
) -> None:
    owner_id = await found_club(db)
    cyd = await add_member(db, "cyd")
    async with db.transaction() as session:
        owner = await members.get_member(session, owner_id)
        table = await open_bourre_table(session, owner, "Hush")
    admin = await admin_client(app)
    token, _ = await page_tokens(admin)
    fields = {"csrf_token": token, "member_id": cyd, "minutes": 30, "table_id": table.id}
    response = await admin.post("/admin/chat/mute", data=fields)
    assert response.status_code == 200, response.text
    notice = re.search(r'<p class="ok" role="status">(.*?)</p>', response.text)
    assert notice, response.text
    # A <time> (the exact instant, readable in UTC without scripts) that the browser
    # rewrites in the admin's own zone, as every time on the pages.
    time = r'<time datetime="[^"]+\+00:00">\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC</time>'
    assert re.fullmatch(rf"Muted in the chat until {time}\.", notice.group(1)), notice.group(1)
