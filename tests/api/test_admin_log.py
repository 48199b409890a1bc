"""The audit log as admins read it: the listing with its filters and pages, the CSV export
with the same filters, the /admin/log page; and rejecting sign-ups, with the dashboard's
list of what waits for an admin."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.db.models import AdminAction, MemberStatus, Role, User
from app.db.session import Database
from app.services import admin_log
from tests.helpers import add_member, found_club, logged_in_client, post

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


async def _actions(app: FastAPI, db: Database) -> dict[str, int]:
    """Five actions by two admins: owner approves pia, grants ada 40, bans ben; cleo
    (an admin) grants ada 5 and unbans ben."""
    ids = {"owner": await found_club(db)}
    ids["ada"] = await add_member(db, "ada", chips=10)
    ids["ben"] = await add_member(db, "ben")
    ids["pia"] = await add_member(db, "pia", status=MemberStatus.PENDING)
    ids["cleo"] = await add_member(db, "cleo", role=Role.ADMIN)
    owner = await logged_in_client(app, "owner")
    cleo = await logged_in_client(app, "cleo")
    grant = {"member_id": ids["ada"], "reason": "Cash in"}
    for client, path, body in [
        (owner, f"/api/admin/members/{ids['pia']}/approve", None),
        (owner, "/api/admin/chips/grant", {**grant, "amount": 40, "idempotency_key": "key-0001"}),
        (owner, f"/api/admin/members/{ids['ben']}/ban", None),
        (cleo, "/api/admin/chips/grant", {**grant, "amount": 5, "idempotency_key": "key-0002"}),
        (cleo, f"/api/admin/members/{ids['ben']}/unban", None),
    ]:
        response = await post(client, path, body)
        assert response.status_code == 200, response.text
    # The same grant sent again moves nothing and writes nothing.
    again = await post(
        cleo, "/api/admin/chips/grant", {**grant, "amount": 5, "idempotency_key": "key-0002"}
    )
    assert again.json()["replayed"] is True
    await owner.aclose()
    await cleo.aclose()
    return ids


async def test_the_log_lists_who_did_what_to_what_before_and_after(
    app: FastAPI, db: Database
) -> None:
    ids = await _actions(app, db)
    owner = await logged_in_client(app, "owner")
    listed = (await owner.get("/api/admin/log")).json()
    assert listed["total"] == 5
    assert [(e["actor"], e["action"], e["target_label"]) for e in listed["entries"]] == [
        ("cleo", "member.unban", "ben"),
        ("cleo", "chips.grant", "ada"),
        ("owner", "member.ban", "ben"),
        ("owner", "chips.grant", "ada"),
        ("owner", "member.approve", "pia"),
    ]
    first_grant = listed["entries"][3]
    assert first_grant["before"] == {"balance": 10}
    assert first_grant["after"]["balance"] == 50 and first_grant["after"]["amount"] == 40
    assert listed["entries"][2]["before"] == {"status": "active"}
    assert listed["entries"][2]["after"] == {"status": "banned"}

    def actions(response: httpx.Response) -> list[str]:
        return [e["action"] for e in response.json()["entries"]]

    by_cleo = await owner.get("/api/admin/log", params={"actor_id": ids["cleo"]})
    assert actions(by_cleo) == ["member.unban", "chips.grant"]
    grants = await owner.get("/api/admin/log", params={"action": "chips.grant"})
    assert actions(grants) == ["chips.grant", "chips.grant"]
    on_ben = await owner.get(
        "/api/admin/log", params={"target_kind": "member", "target": str(ids["ben"])}
    )
    assert actions(on_ben) == ["member.unban", "member.ban"]
    now = datetime.now(UTC)
    tomorrow = (now + timedelta(days=1)).isoformat()
    yesterday = (now - timedelta(days=1)).isoformat()
    assert (await owner.get("/api/admin/log", params={"since": tomorrow})).json()["total"] == 0
    assert (await owner.get("/api/admin/log", params={"until": yesterday})).json()["total"] == 0
    today = await owner.get("/api/admin/log", params={"since": yesterday, "until": tomorrow})
    assert today.json()["total"] == 5
    page = await owner.get("/api/admin/log", params={"limit": 2, "offset": 2})
    assert page.json()["total"] == 5 and actions(page) == ["member.ban", "chips.grant"]
    unknown = await owner.get("/api/admin/log", params={"action": "club.rename"})
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown_action"
    await owner.aclose()


async def test_the_csv_export_takes_the_same_filters(app: FastAPI, db: Database) -> None:
    ids = await _actions(app, db)
    owner = await logged_in_client(app, "owner")
    for params in ({}, {"action": "chips.grant"}, {"actor_id": str(ids["cleo"])}):
        listed = (await owner.get("/api/admin/log", params=params)).json()["entries"]
        exported = await owner.get("/api/admin/log.csv", params=params)
        assert exported.status_code == 200
        assert exported.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(exported.text)))
        assert [int(r["id"]) for r in rows] == [e["id"] for e in listed]
        for row, entry in zip(rows, listed, strict=True):
            assert (row["actor"], row["action"]) == (entry["actor"], entry["action"])
            assert json.loads(row["before"] or "null") == entry["before"]
            assert json.loads(row["after"] or "null") == entry["after"]
    await owner.aclose()


async def test_the_log_page_filters_and_pages(app: FastAPI, db: Database) -> None:
    ids = await _actions(app, db)
    owner = await logged_in_client(app, "owner")
    page = await owner.get("/admin/log", headers={"accept": "text/html"})
    assert page.status_code == 200
    assert page.text.count('<tr data-action="') == 5
    assert '<span data-testid="log-total">5</span>' in page.text
    grants = await owner.get("/admin/log", params={"action": "chips.grant", "actor_id": ""})
    assert grants.text.count('<tr data-action="chips.grant">') == 2
    assert 'href="/api/admin/log.csv?action=chips.grant"' in grants.text
    today = datetime.now(UTC).date()
    same_day = await owner.get(
        "/admin/log", params={"since": today.isoformat(), "until": today.isoformat()}
    )
    assert same_day.text.count('<tr data-action="') == 5
    later = await owner.get("/admin/log", params={"since": (today + timedelta(days=1)).isoformat()})
    assert "No admin action matches." in later.text
    bad = await owner.get("/admin/log", params={"since": "yesterday"})
    assert bad.status_code == 422

    # 55 more rows: two pages of 50.
    async with db.transaction() as session:
        for n in range(55):
            await admin_log.record(
                session,
                actor_id=ids["owner"],
                action="invite.create",
                target_kind="invite",
                target_id=n + 1,
            )
    first = await owner.get("/admin/log")
    assert first.text.count('<tr data-action="') == 50
    assert 'href="/admin/log?page=2"' in first.text and "page 1 of 2" in first.text
    second = await owner.get("/admin/log", params={"page": 2})
    assert second.text.count('<tr data-action="') == 10
    assert second.text.count('<tr data-action="member.approve">') == 1
    await owner.aclose()


async def test_rejecting_a_sign_up_removes_it_and_frees_the_name(
    app: FastAPI, db: Database
) -> None:
    owner_id = await found_club(db)
    pia = await add_member(db, "pia", status=MemberStatus.PENDING)
    ada = await add_member(db, "ada")
    owner = await logged_in_client(app, "owner")
    dashboard = await owner.get("/admin")
    assert '<span data-testid="pending-count">1</span>' in dashboard.text
    assert "@pia" in dashboard.text.split('data-testid="pending-signups"')[1].split("</ul>")[0]

    not_pending = await post(owner, f"/api/admin/members/{ada}/reject")
    assert not_pending.status_code == 409 and not_pending.json()["error"]["code"] == "not_pending"
    rejected = await post(owner, f"/api/admin/members/{pia}/reject")
    assert rejected.status_code == 200 and rejected.json() == {"id": pia, "username": "pia"}
    async with db.transaction() as session:
        assert await session.get(User, pia) is None
        row = await session.scalar(select(AdminAction).where(AdminAction.action == "member.reject"))
        assert row is not None and row.actor_id == owner_id and row.target_id == str(pia)
        assert row.before is not None and row.before["username"] == "pia"
    assert '<span data-testid="pending-count">0</span>' in (await owner.get("/admin")).text

    # The name is free again: she may sign up anew (and waits for approval again).
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as browser:
        again = await post(
            browser,
            "/api/auth/register",
            {"username": "pia", "password": "correct horse battery", "display_name": "Pia"},
        )
        assert again.status_code == 201, again.text
    await owner.aclose()


async def test_a_sign_up_with_chips_cannot_be_rejected(app: FastAPI, db: Database) -> None:
    await found_club(db)
    pia = await add_member(db, "pia", chips=5, status=MemberStatus.PENDING)
    owner = await logged_in_client(app, "owner")
    refused = await post(owner, f"/api/admin/members/{pia}/reject")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "has_ledger_history"
    async with db.transaction() as session:
        assert await session.get(User, pia) is not None
        assert await session.scalar(select(AdminAction)) is None
    token = TOKEN.search((await owner.get("/admin")).text)
    assert token is not None
    page = await owner.post(f"/admin/members/{pia}/reject", data={"csrf_token": token.group(1)})
    assert page.status_code == 409 and "approve or ban them instead" in page.text
    await owner.aclose()


def test_a_row_reads_as_words_not_as_stored_fields() -> None:
    """The page says what changed as a person would: a setting's name, on/off, a game's
    title, a table's rules in the game's own words, a seat counted from 1, a time left for
    the reader's zone."""
    settings = admin_log.changes(
        {"signup_requires_approval": False, "seed_reveal": "session"},
        {"signup_requires_approval": True, "seed_reveal": "hand"},
    )
    assert [(c.label, c.before, c.after) for c in settings] == [
        ("Sign-up needs approval", admin_log.Shown("off"), admin_log.Shown("on")),
        (
            "Hand seeds published",
            admin_log.Shown("when the session ends"),
            admin_log.Shown("as each hand ends"),
        ),
    ]
    opened = admin_log.changes(
        None,
        {
            "game": "bourre",
            "rules": {"ante": 1},
            "seat": 0,
            "muted_until": "2026-12-02T20:04:00+00:00",
        },
    )
    words = {c.label: c.after for c in opened}
    assert words["Game"] == admin_log.Shown("Bourré")
    assert words["Rules"] == admin_log.Shown("Ante 1 chip")
    assert words["Seat"] == admin_log.Shown("1")
    assert words["Muted until"] == admin_log.Shown(at=datetime(2026, 12, 2, 20, 4, tzinfo=UTC))
    assert all(c.before is None for c in opened)
