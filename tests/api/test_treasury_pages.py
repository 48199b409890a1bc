"""The treasurer's pages, used as an admin and a member would: filters, forms, answers."""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI

from app.db.session import Database
from app.services import ledger
from tests.helpers import login, snapshot
from tests.treasury_scene import TABLE_NAME, evening

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


async def client_of(app: FastAPI, username: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
    assert (await login(client, username)).status_code == 200
    return client


def token_in(page: httpx.Response) -> str:
    found = TOKEN.search(page.text)
    assert found, page.text[:500]
    return found.group(1)


async def test_the_ledger_page_speaks_in_names_and_filters(app: FastAPI, db: Database) -> None:
    scene = await evening(db)
    admin = await client_of(app, "owner")
    whole = await admin.get("/admin/ledger")
    assert whole.status_code == 200
    assert "Club bank → Alice" in whole.text
    assert f"Alice → Alice&#39;s stack at &#39;{TABLE_NAME}&#39;" in whole.text
    assert "seat:" not in whole.text.split('data-testid="ledger-lines"')[1]
    bobs = await admin.get(f"/admin/ledger?member={scene.bob}&kind=top_up&since=2000-01-01")
    assert "1 movement<" in bobs.text
    assert f"member_id={scene.bob}&amp;kind=top_up&amp;since=2000-01-01T00%3A00%3A00" in bobs.text
    none = await admin.get("/admin/ledger?since=2000-01-01&until=2000-01-01")
    assert "No movement matches" in none.text
    bad = await admin.get("/admin/ledger?since=yesterday", headers={"accept": "text/html"})
    assert bad.status_code == 422
    await admin.aclose()


async def test_sessions_page_and_member_page(app: FastAPI, db: Database) -> None:
    scene = await evening(db)
    admin = await client_of(app, "owner")
    page = await admin.get("/admin/sessions")
    assert page.status_code == 200
    assert "still seated" in page.text  # Cyd
    assert "/api/admin/treasury/sessions.csv?" in page.text
    transfers = page.text.split('data-testid="transfers"')[1].split("</ul>")[0]
    assert "<strong>Alice</strong> pays <strong>Bob</strong> 20" in transfers
    # Filtered to Bob: only his sitting is listed, but settling still takes everyone.
    bobs = await admin.get(f"/admin/sessions?member={scene.bob}")
    listed = bobs.text.split('data-testid="sittings"')[1].split("</table>")[0]
    assert "Bob" in listed and "Alice" not in listed
    transfers = bobs.text.split('data-testid="transfers"')[1].split("</ul>")[0]
    assert "<strong>Alice</strong> pays <strong>Bob</strong> 20" in transfers
    alice = await admin.get(f"/admin/members/{scene.alice}")
    assert alice.status_code == 200
    assert 'data-testid="member-balance">470<' in alice.text
    nets = alice.text.split('data-testid="nets"')[1].split("</table>")[0]
    assert re.search(r">Bourré</td><td class=\"num\" data-label=\"Sittings\">1</td>.*>-30<", nets)
    await admin.aclose()


async def test_members_cannot_open_treasury_pages(app: FastAPI, db: Database) -> None:
    scene = await evening(db)
    member = await client_of(app, "alice")
    for path in ("/admin/ledger", "/admin/sessions", "/admin/chip-requests"):
        assert (await member.get(path)).status_code == 403
    assert (await member.get(f"/admin/members/{scene.bob}")).status_code == 403
    await member.aclose()
    anon = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
    assert (await anon.get("/admin/ledger")).status_code == 303
    await anon.aclose()


async def test_a_request_asked_on_the_account_page_and_approved_on_the_admins(
    app: FastAPI, db: Database
) -> None:
    scene = await evening(db)
    alice = await client_of(app, "alice")
    token = token_in(await alice.get("/account"))
    asked = await alice.post(
        "/account/chip-requests", data={"csrf_token": token, "amount": "60", "note": "Rebuy"}
    )
    assert asked.status_code == 303
    assert "waiting for an admin" in (await alice.get("/account")).text
    refused = await alice.post(
        "/account/chip-requests", data={"csrf_token": token, "amount": "0", "note": ""}
    )
    assert refused.status_code == 422 and "request_amount_not_positive" in refused.text
    no_csrf = await alice.post("/account/chip-requests", data={"amount": "5"})
    assert no_csrf.status_code == 403

    admin = await client_of(app, "owner")
    dashboard = await admin.get("/admin")
    assert "Chip requests: 1 waiting" in dashboard.text
    listing = await admin.get("/admin/chip-requests")
    request_id = re.search(r'data-request="([0-9]+)"', listing.text)
    assert request_id
    before = await snapshot(db)
    forged = await admin.post(
        f"/admin/chip-requests/{request_id.group(1)}/approve", data={"answer": "x"}
    )
    assert forged.status_code == 403
    form = {"csrf_token": token_in(listing), "answer": "Enjoy"}
    approved = await admin.post(f"/admin/chip-requests/{request_id.group(1)}/approve", data=form)
    again = await admin.post(f"/admin/chip-requests/{request_id.group(1)}/approve", data=form)
    assert approved.status_code == again.status_code == 200
    assert "approved" in approved.text
    _, entries, _ = await snapshot(db)
    assert entries == before[1] + 1
    async with db.transaction() as session:
        assert await ledger.balance_of(session, ledger.member_account_key(scene.alice)) == 530
    account = (await alice.get("/account")).text
    assert "approved</span> by owner: “Enjoy”" in account
    assert "Chip requests: 0 waiting" in (await admin.get("/admin")).text
    await alice.aclose()
    await admin.aclose()


async def test_the_dashboard_overview_counts_chips_where_they_are(
    app: FastAPI, db: Database
) -> None:
    scene = await evening(db)
    app.state.latency.record(12.5, table_id=scene.table_id)
    admin = await client_of(app, "owner")
    page = (await admin.get("/admin")).text
    latency = page.split('data-testid="latency-by-table"')[1].split("</table>")[0]
    assert f">{TABLE_NAME}</td>" in latency and ">12.5<" in latency
    circulation = page.split('data-testid="circulation"')[1].split("</dl>")[0]
    # 1500 granted: Cyd's 100 at the table, 10 in the pot, the rest on balances.
    assert 'data-testid="circulation-total">1500<' in page
    # Held by members (balances + stacks), then each part; no bot here.
    figures = [int(n) for n in re.findall(r'<dd data-testid="[a-z-]+">([0-9]+)</dd>', circulation)]
    assert figures == [1490, 1390, 100, 0, 10]
    # Today's bar is the tallest (the only one) of both charts: one hand, a pot of 30.
    assert page.count('height="100"><title>') == 2
    assert ": 1 hand</title>" in page and ": 30 chips</title>" in page
    await admin.aclose()
