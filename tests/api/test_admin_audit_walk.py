"""Every admin action writes exactly one audit row, from the REST API and from the forms.

`STEPS` is the table of every admin action and how to perform it (a new action is one
line), and the walk checks that the table names every action the log knows.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.db.models import AccountKind, AdminAction, MemberStatus, Role
from app.db.session import Database
from app.services import (
    admin_log,
    chip_requests,
    ledger,
    members,
    password_resets,
    rule_words,
    rulesets,
)
from app.services import hands as hand_store
from app.services import tables as table_service
from tests.helpers import add_member, found_club, login, post

TABLE = {"game": "bourre", "seat_count": 4, "buy_in_min": 20, "buy_in_max": 200}
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class World:
    """The club the walk acts on: the owner's browser, and the ids of what it acts on."""

    admin: httpx.AsyncClient
    token: str
    app: FastAPI
    db: Database
    ids: dict[str, int] = field(default_factory=dict)
    # The last password-reset link made, for the member to use.
    reset_link: str = ""


async def rest(w: World, path: str, body: object = None, method: str = "POST") -> None:
    if method in ("PATCH", "PUT", "DELETE"):
        response = await w.admin.request(method, path, json=body, headers={"X-CSRF-Token": w.token})
    else:
        response = await post(w.admin, path, body)
    assert response.status_code in (200, 201), (path, response.text)


async def delete(w: World, path: str) -> None:
    response = await w.admin.delete(path, headers={"X-CSRF-Token": w.token})
    assert response.status_code == 204, (path, response.text)


async def form(w: World, path: str, **fields: object) -> None:
    response = await w.admin.post(path, data={"csrf_token": w.token, **fields})
    assert response.status_code == 200, (path, response.text)
    assert 'role="alert"' not in response.text, (path, response.text)


async def submit(w: World, path: str, **fields: object) -> str:
    """A form whose answer is a redirect (303); returns where it leads."""
    response = await w.admin.post(path, data={"csrf_token": w.token, **fields})
    assert response.status_code == 303, (path, response.text)
    return str(response.headers["location"])


def rules_form(name: str, description: str = "") -> dict[str, str]:
    """The house-rules form as the page sends it: every Bourré option at its default."""
    form = {"game": "bourre", "name": name, "description": description}
    form.update({f.name: f.form_value for f in rule_words.option_fields("bourre", {})})
    return form


async def new_rules(w: World, name: str, by: str) -> None:
    if by == "api":
        response = await post(w.admin, "/api/admin/rulesets", {"game": "bourre", "name": name})
        assert response.status_code == 201, response.text
        w.ids[name] = response.json()["id"]
    else:
        where = await submit(w, "/admin/rules/new", **rules_form(name))
        w.ids[name] = int(where.split("?")[0].rsplit("/", 1)[1])


async def open_table(w: World, name: str) -> None:
    response = await post(w.admin, "/api/tables", {**TABLE, "name": name})
    assert response.status_code == 201, response.text
    w.ids[name] = response.json()["id"]


async def reset_link(w: World, by: str) -> None:
    """Make a password-reset link for bea, and keep it for the next step."""
    if by == "api":
        response = await post(w.admin, f"/api/admin/members/{w.ids['bea']}/password-reset")
        assert response.status_code == 201, response.text
        w.reset_link = response.json()["url"]
    else:
        page = await w.admin.post(
            "/admin/password-resets", data={"csrf_token": w.token, "member_id": w.ids["bea"]}
        )
        found = re.search(r'value="(http[^"]+/reset/[^"]+)"', page.text)
        assert page.status_code == 200 and found is not None, page.text
        w.reset_link = found.group(1)


async def use_reset_link(w: World) -> None:
    """bea, in a browser of her own, sets a new password through the link."""
    transport = httpx.ASGITransport(app=w.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as bea:
        page = await bea.get(w.reset_link)
        found = TOKEN.search(page.text)
        assert page.status_code == 200 and found is not None, page.text
        done = await bea.post(
            w.reset_link,
            data={
                "csrf_token": found.group(1),
                "new_password": "bea's new passphrase",
                "new_password_again": "bea's new passphrase",
            },
        )
        assert done.status_code == 200 and 'role="alert"' not in done.text, done.text


async def set_from_shell(w: World) -> None:
    """What `salon reset-password bea --password-stdin` does (tests/cli run the command)."""
    async with w.db.transaction() as session:
        bea = await members.get_member(session, w.ids["bea"])
        await password_resets.set_from_shell(session, bea, "bea's shell passphrase")


Step = Callable[[World], Awaitable[None]]

# Who acts, where it is not the owner: a member through their own link, the command.
ACTED_BY: dict[str, str | None] = {
    "member.password_reset_used": "bea",
    "member.password_set": None,
}

# (action, by, how): every admin action, each way it can be taken.
STEPS: list[tuple[str, str, Step]] = [
    ("member.approve", "api", lambda w: rest(w, f"/api/admin/members/{w.ids['pam']}/approve")),
    ("member.approve", "form", lambda w: form(w, f"/admin/members/{w.ids['pat']}/approve")),
    ("member.reject", "api", lambda w: rest(w, f"/api/admin/members/{w.ids['rex']}/reject")),
    ("member.reject", "form", lambda w: form(w, f"/admin/members/{w.ids['roy']}/reject")),
    ("member.ban", "api", lambda w: rest(w, f"/api/admin/members/{w.ids['bea']}/ban")),
    ("member.unban", "api", lambda w: rest(w, f"/api/admin/members/{w.ids['bea']}/unban")),
    ("member.password_reset", "api", lambda w: reset_link(w, "api")),
    ("member.password_reset_used", "form", use_reset_link),
    ("member.password_reset", "form", lambda w: reset_link(w, "form")),
    ("member.password_reset_used", "form", use_reset_link),
    ("member.password_set", "command", set_from_shell),
    ("member.ban", "form", lambda w: form(w, f"/admin/members/{w.ids['bob']}/ban")),
    ("member.unban", "form", lambda w: form(w, f"/admin/members/{w.ids['bob']}/unban")),
    (
        "member.role",
        "api",
        lambda w: rest(w, f"/api/admin/members/{w.ids['ray']}/role", {"role": "admin"}),
    ),
    ("member.role", "form", lambda w: form(w, f"/admin/members/{w.ids['ray']}/make-member")),
    ("invite.create", "api", lambda w: rest(w, "/api/admin/invites", {"max_uses": 2})),
    ("invite.create", "form", lambda w: form(w, "/admin/invites", max_uses="3")),
    ("invite.revoke", "api", lambda w: rest(w, f"/api/admin/invites/{w.ids['invite_1']}/revoke")),
    ("invite.revoke", "form", lambda w: form(w, f"/admin/invites/{w.ids['invite_2']}/revoke")),
    (
        "chips.grant",
        "api",
        lambda w: rest(
            w,
            "/api/admin/chips/grant",
            {
                "member_id": w.ids["cyd"],
                "amount": 50,
                "reason": "Cash in",
                "idempotency_key": "grant-0001",
            },
        ),
    ),
    (
        "chips.deduct",
        "api",
        lambda w: rest(
            w,
            "/api/admin/chips/deduct",
            {
                "member_id": w.ids["cyd"],
                "amount": 5,
                "reason": "Fix",
                "idempotency_key": "deduct-0001",
            },
        ),
    ),
    (
        "chips.grant",
        "form",
        lambda w: form(
            w,
            "/admin/chips",
            member_id=w.ids["cyd"],
            amount="7",
            reason="Prize",
            direction="grant",
            chip_key="form-grant-1",
        ),
    ),
    (
        "chips.deduct",
        "form",
        lambda w: form(
            w,
            "/admin/chips",
            member_id=w.ids["cyd"],
            amount="2",
            reason="Fix",
            direction="deduct",
            chip_key="form-deduct-1",
        ),
    ),
    (
        "chips.return_stranded",
        "api",
        lambda w: rest(w, "/api/admin/stranded/return", {"account": f"seat:99:{w.ids['cyd']}"}),
    ),
    (
        "chips.return_stranded",
        "form",
        lambda w: form(w, "/admin/stranded/return", account=f"seat:98:{w.ids['cyd']}"),
    ),
    ("club.settings", "api", lambda w: rest(w, "/api/admin/club", {"name": "Le Cercle"}, "PATCH")),
    (
        "club.settings",
        "form",
        lambda w: form(
            w, "/admin/club", name="Cercle", chip_unit="jetons", default_turn_seconds="25"
        ),
    ),
    (
        "chip_request.approve",
        "api",
        lambda w: rest(w, f"/api/admin/chip-requests/{w.ids['request_1']}/approve", {}),
    ),
    (
        "chip_request.decline",
        "api",
        lambda w: rest(
            w, f"/api/admin/chip-requests/{w.ids['request_2']}/decline", {"answer": "Not now"}
        ),
    ),
    (
        "chip_request.approve",
        "form",
        lambda w: form(w, f"/admin/chip-requests/{w.ids['request_3']}/approve", answer="Enjoy"),
    ),
    (
        "chip_request.decline",
        "form",
        lambda w: form(w, f"/admin/chip-requests/{w.ids['request_4']}/decline", answer="No"),
    ),
    ("rules.create", "api", lambda w: new_rules(w, "Rest Rules", "api")),
    ("rules.create", "form", lambda w: new_rules(w, "Form Rules", "form")),
    (
        "rules.edit",
        "api",
        lambda w: rest(
            w, f"/api/admin/rulesets/{w.ids['Rest Rules']}", {"description": "Fridays"}, "PATCH"
        ),
    ),
    (
        "rules.edit",
        "form",
        lambda w: submit(
            w, f"/admin/rules/{w.ids['Form Rules']}", **rules_form("Form Rules", "Saturdays")
        ),
    ),
    (
        "rules.clone",
        "api",
        lambda w: rest(w, f"/api/admin/rulesets/{w.ids['Rest Rules']}/clone", {}),
    ),
    (
        "rules.clone",
        "api",
        lambda w: rest(w, "/api/admin/rulesets/presets/bourre/friendly/clone", {"name": "Mine"}),
    ),
    ("rules.clone", "form", lambda w: submit(w, f"/admin/rules/{w.ids['Form Rules']}/clone")),
    ("rules.clone", "form", lambda w: submit(w, "/admin/rules/presets/bourre/friendly/clone")),
    (
        "rules.archive",
        "api",
        lambda w: rest(w, f"/api/admin/rulesets/{w.ids['Rest Rules']}/archive"),
    ),
    (
        "rules.restore",
        "api",
        lambda w: rest(w, f"/api/admin/rulesets/{w.ids['Rest Rules']}/restore"),
    ),
    ("rules.archive", "form", lambda w: submit(w, f"/admin/rules/{w.ids['Form Rules']}/archive")),
    ("rules.restore", "form", lambda w: submit(w, f"/admin/rules/{w.ids['Form Rules']}/restore")),
    ("table.open", "api", lambda w: open_table(w, "Rest Table")),
    ("table.open", "api", lambda w: open_table(w, "Form Table")),
    (
        "table.edit",
        "api",
        lambda w: rest(
            w,
            f"/api/tables/{w.ids['Rest Table']}",
            {"name": "Rest Table II", "ruleset_id": w.ids["Rest Rules"]},
            "PATCH",
        ),
    ),
    (
        "table.edit",
        "form",
        lambda w: submit(
            w, f"/tables/{w.ids['Form Table']}/edit", table_name="Form Table II", ante="1"
        ),
    ),
    (
        "table.bot_fill",
        "api",
        lambda w: rest(
            w, f"/api/tables/{w.ids['chat_table']}/bot-fill", {"level": "random"}, "PUT"
        ),
    ),
    (
        "table.bot_fill",
        "form",
        lambda w: form(w, f"/admin/tables/{w.ids['chat_table']}/bot-fill", level=""),
    ),
    (
        "table.bot_seat",
        "api",
        lambda w: rest(
            w,
            f"/api/tables/{w.ids['chat_table']}/bots",
            {"level": "club", "request_key": "bot-api-0001"},
        ),
    ),
    (
        "table.bot_seat",
        "form",
        lambda w: form(
            w,
            f"/admin/tables/{w.ids['chat_table']}/bots",
            level="random",
            bot_key="bot-form-0001",
        ),
    ),
    (
        "table.bot_remove",
        "api",
        lambda w: rest(w, f"/api/tables/{w.ids['chat_table']}/bots/0", method="DELETE"),
    ),
    (
        "table.bot_remove",
        "form",
        lambda w: form(w, f"/admin/tables/{w.ids['chat_table']}/bots/1/remove"),
    ),
    ("table.pause", "api", lambda w: rest(w, f"/api/tables/{w.ids['Rest Table']}/pause")),
    ("table.resume", "api", lambda w: rest(w, f"/api/tables/{w.ids['Rest Table']}/resume")),
    ("table.close", "api", lambda w: rest(w, f"/api/tables/{w.ids['Rest Table']}/close")),
    (
        "table.pause",
        "form",
        lambda w: form(w, f"/admin/tables/{w.ids['Form Table']}/status", verb="pause"),
    ),
    (
        "table.resume",
        "form",
        lambda w: form(w, f"/admin/tables/{w.ids['Form Table']}/status", verb="resume"),
    ),
    (
        "table.close",
        "form",
        lambda w: form(w, f"/admin/tables/{w.ids['Form Table']}/status", verb="close"),
    ),
    ("latency.reset", "api", lambda w: delete(w, "/api/admin/latency")),
    ("chat.remove", "api", lambda w: rest(w, f"/api/admin/chat/{w.ids['line_1']}/remove")),
    (
        "chat.remove",
        "form",
        lambda w: form(w, f"/admin/chat/{w.ids['line_2']}/remove", table_id=w.ids["chat_table"]),
    ),
    (
        "chat.mute",
        "api",
        lambda w: rest(w, "/api/admin/chat/mute", {"member_id": w.ids["cyd"], "minutes": 30}),
    ),
    (
        "chat.unmute",
        "api",
        lambda w: rest(w, "/api/admin/chat/unmute", {"member_id": w.ids["cyd"]}),
    ),
    (
        "chat.mute",
        "form",
        lambda w: form(
            w,
            "/admin/chat/mute",
            member_id=w.ids["cyd"],
            minutes="60",
            table_id=w.ids["chat_table"],
        ),
    ),
    (
        "chat.unmute",
        "form",
        lambda w: form(
            w, "/admin/chat/unmute", member_id=w.ids["cyd"], table_id=w.ids["chat_table"]
        ),
    ),
]


async def _club(db: Database) -> dict[str, int]:
    """The members, chips, stranded chips, invites, chip requests and chat lines the steps
    act on."""
    ids = {"owner": await found_club(db)}
    for name in ("pam", "pat", "rex", "roy"):
        ids[name] = await add_member(db, name, status=MemberStatus.PENDING)
    for name in ("bea", "bob", "ray"):
        ids[name] = await add_member(db, name)
    ids["cyd"] = await add_member(db, "cyd", chips=500)
    async with db.transaction() as session:
        owner = await members.get_member(session, ids["owner"])
        for table_id in (98, 99):  # chips left in seats of tables that never were
            account = f"seat:{table_id}:{ids['cyd']}"
            await ledger.open_account(session, account, AccountKind.SEAT, ids["cyd"])
            await ledger.post(
                session,
                idempotency_key=f"stranded-{table_id}",
                kind="buy_in",
                reason="left behind",
                actor_id=ids["cyd"],
                movements=[ledger.Movement(ledger.member_account_key(ids["cyd"]), account, 10)],
            )
        for n in (1, 2):
            invite = await members.create_invite(session, owner, members.InviteSpec())
            ids[f"invite_{n}"] = invite.id
        for n, asker in ((1, "cyd"), (2, "cyd"), (3, "bea"), (4, "bea")):
            member = await members.get_member(session, ids[asker])
            asked = await chip_requests.create(session, member, 10 * n, f"request {n}")
            ids[f"request_{n}"] = asked.id
    return ids


async def test_every_admin_action_writes_exactly_one_audit_row(app: FastAPI, db: Database) -> None:
    assert {action for action, _, _ in STEPS} == set(admin_log.ACTIONS), (
        "every admin action needs a line in STEPS (and every line a known action)"
    )
    ids = await _club(db)
    async with db.transaction() as session:
        owner = await members.get_member(session, ids["owner"])
        chat_table = await table_service.create_table(
            session,
            owner,
            table_service.TableSpec(
                name="Chatty", game="bourre", rules={}, seat_count=4, buy_in_min=20, buy_in_max=200
            ),
        )
        cy = await members.get_member(session, ids["cyd"])
        ids["chat_table"] = chat_table.id
        for n in (1, 2):
            line = await hand_store.add_chat(session, chat_table.id, cy, f"line {n}")
            ids[f"line_{n}"] = line.id
    admin = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
    try:
        assert (await login(admin, "owner")).status_code == 200
        found = TOKEN.search((await admin.get("/admin")).text)
        assert found is not None
        world = World(admin, found.group(1), app, db, ids)
        seen = await _rows(db)
        for action, by, how in STEPS:
            await how(world)
            rows = await _rows(db)
            new = rows[len(seen) :]
            actor = ACTED_BY.get(action, "owner")
            expected = (action, ids[actor] if actor else None)
            assert [(r.action, r.actor_id) for r in new] == [expected], (action, by)
            seen = rows
    finally:
        await app.state.tables.stop()
        await admin.aclose()


async def _rows(db: Database) -> list[AdminAction]:
    async with db.transaction() as session:
        return list((await session.scalars(select(AdminAction).order_by(AdminAction.id))).all())


async def test_a_member_opening_a_table_is_no_admin_action(db: Database) -> None:
    await found_club(db, approval=False)
    member_id = await add_member(db, "moe", role=Role.MEMBER)
    async with db.transaction() as session:
        from app.services import club

        the_club = await club.get_club(session)
        the_club.members_may_create_tables = True
        member = await members.get_member(session, member_id)
        await table_service.create_table(
            session,
            member,
            table_service.TableSpec(
                name="Mine", game="bourre", rules={}, seat_count=4, buy_in_min=20, buy_in_max=200
            ),
        )
    assert await _rows(db) == []


async def test_what_changes_nothing_writes_no_audit_row(db: Database) -> None:
    """A repeated approval, archiving twice, an edit that changes nothing, and a member's
    edit of their own table: none of them is an admin action to record."""
    owner_id = await found_club(db, approval=False)
    member_id = await add_member(db, "moe", role=Role.MEMBER)
    async with db.transaction() as session:
        from app.services import club

        (await club.get_club(session)).members_may_create_tables = True
        owner = await members.get_member(session, owner_id)
        member = await members.get_member(session, member_id)
        asked = await chip_requests.create(session, member, 25, "")
        ruleset = await rulesets.create_ruleset(
            session, owner, rulesets.RuleSetDraft(game="bourre", name="Once", options={})
        )
        mine = await table_service.create_table(
            session,
            member,
            table_service.TableSpec(
                name="Mine", game="bourre", rules={}, seat_count=4, buy_in_min=20, buy_in_max=200
            ),
        )
    for _ in range(2):
        async with db.transaction() as session:
            owner = await members.get_member(session, owner_id)
            member = await members.get_member(session, member_id)
            await chip_requests.approve(session, owner, asked.id)
            await rulesets.archive_ruleset(session, owner, ruleset.id)
            table = await table_service.get_table(session, mine.id)
            await table_service.edit_table(
                session, owner, table, table_service.TableEdit(name="Ours"), dealt=False
            )
            await table_service.edit_table(
                session, member, table, table_service.TableEdit(buy_in_min=30), dealt=False
            )
    rows = await _rows(db)
    assert [r.action for r in rows] == [
        "rules.create",
        "chip_request.approve",
        "rules.archive",
        "table.edit",
    ]
    approved = rows[1].after
    assert approved is not None and approved["amount"] == 25 and approved["operation_id"]
