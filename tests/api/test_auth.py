"""Accounts: sign-up paths, sessions, passwords, CSRF, throttling."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.config import Settings
from app.db.models import Invite, User
from app.db.session import Database
from app.main import create_app
from tests.helpers import (
    PASSWORD,
    add_member,
    csrf_headers,
    found_club,
    logged_in_client,
    login,
    post,
    prime_csrf,
)


async def test_signup_waits_for_approval_then_logs_in(
    client: httpx.AsyncClient, app: FastAPI, db: Database
) -> None:
    await found_club(db, approval=True)
    response = await post(client, "/api/auth/register", {"username": "Zoe", "password": PASSWORD})
    assert response.status_code == 201
    body = response.json()
    assert body["logged_in"] is False
    assert body["member"]["status"] == "pending"
    assert body["member"]["username"] == "zoe"
    assert "salon_session" not in client.cookies

    refused = await login(client, "zoe")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "account_pending"

    owner = await logged_in_client(app, "owner")
    approved = await post(owner, f"/api/admin/members/{body['member']['id']}/approve")
    assert approved.status_code == 200
    assert approved.json()["status"] == "active"
    again = await post(owner, f"/api/admin/members/{body['member']['id']}/approve")
    assert again.json()["error"]["code"] == "not_pending"

    assert (await login(client, "ZOE")).status_code == 200
    me = await client.get("/api/me")
    assert me.json()["username"] == "zoe"
    assert me.json()["balance"] == 0


async def test_open_signup_logs_in_at_once(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db, approval=False)
    response = await post(client, "/api/auth/register", {"username": "max", "password": PASSWORD})
    assert response.status_code == 201
    assert response.json()["logged_in"] is True
    assert (await client.get("/api/me")).status_code == 200


async def test_invite_code_skips_approval_and_is_used_up(app: FastAPI, db: Database) -> None:
    await found_club(db, approval=True)
    owner = await logged_in_client(app, "owner")
    invite = (await post(owner, "/api/admin/invites", {"max_uses": 1})).json()
    assert invite["uses"] == 0

    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as guest:
        joined = await post(
            guest,
            "/api/auth/register",
            {"username": "ines", "password": PASSWORD, "invite_code": invite["code"]},
        )
        assert joined.status_code == 201
        assert joined.json()["member"]["status"] == "active"
        assert joined.json()["logged_in"] is True

    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as second:
        refused = await post(
            second,
            "/api/auth/register",
            {"username": "jules", "password": PASSWORD, "invite_code": invite["code"]},
        )
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "invalid_invite"
    async with db.transaction() as session:
        assert await session.scalar(select(User).where(User.username == "jules")) is None
        assert (await session.scalar(select(Invite.uses))) == 1


async def test_revoked_invite_is_refused(
    app: FastAPI, client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    owner = await logged_in_client(app, "owner")
    invite = (await post(owner, "/api/admin/invites", {"max_uses": 5})).json()
    revoked = await post(owner, f"/api/admin/invites/{invite['id']}/revoke")
    assert revoked.json()["revoked"] is True
    response = await post(
        client,
        "/api/auth/register",
        {"username": "kim", "password": PASSWORD, "invite_code": invite["code"]},
    )
    assert response.json()["error"]["code"] == "invalid_invite"


async def test_registration_input_is_checked(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db, approval=False)
    await add_member(db, "taken")
    cases = [
        ({"username": "ab", "password": PASSWORD}, 422, "invalid_username"),
        ({"username": "bad name", "password": PASSWORD}, 422, "invalid_username"),
        ({"username": "shorty", "password": "short"}, 422, "password_too_short"),
        ({"username": "TAKEN", "password": PASSWORD}, 409, "username_taken"),
        ({"username": "x" * 100, "password": PASSWORD}, 422, "invalid_input"),
        ({"username": 42, "password": PASSWORD}, 422, "invalid_input"),
        ({"username": "fine"}, 422, "invalid_input"),
        ({"username": "fine", "password": PASSWORD, "admin": True}, 422, "invalid_input"),
        ({"username": "nul\x00", "password": PASSWORD}, 422, "invalid_input"),
    ]
    for body, status, code in cases:
        response = await post(client, "/api/auth/register", body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), body
    async with db.transaction() as session:
        names = set((await session.scalars(select(User.username))).all())
    assert names == {"owner", "taken"}


async def test_passwords_are_stored_as_argon2id(db: Database) -> None:
    await found_club(db)
    async with db.transaction() as session:
        stored = await session.scalar(select(User.password_hash).where(User.username == "owner"))
    assert stored is not None
    assert stored.startswith("$argon2id$")
    assert PASSWORD not in stored


async def test_session_cookie_is_httponly_and_lax(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    response = await login(client, "owner")
    assert response.status_code == 200
    cookies = response.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("salon_session="))
    assert "HttpOnly" in session
    assert "SameSite=lax" in session
    assert "Secure" not in session  # plain http in this test
    csrf = next(c for c in cookies if c.startswith("salon_csrf="))
    assert "HttpOnly" not in csrf


async def test_session_cookie_is_secure_over_https(app: FastAPI, db: Database) -> None:
    await found_club(db)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="https://testserver"
    ) as client:
        response = await login(client, "owner")
        session = next(
            c for c in response.headers.get_list("set-cookie") if c.startswith("salon_session=")
        )
        assert "Secure" in session


async def test_wrong_password_and_unknown_user_look_the_same(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    wrong = await login(client, "owner", "not the password")
    unknown = await login(client, "nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    # Each answer carries its own request id (the reference a member quotes to an admin);
    # nothing else tells the two apart.
    bodies = [response.json() for response in (wrong, unknown)]
    for body in bodies:
        assert body["error"].pop("request_id")
    assert bodies[0] == bodies[1]
    assert wrong.json()["error"]["code"] == "bad_credentials"


async def test_login_failures_are_throttled(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    for _ in range(5):  # the test settings allow 5 failures per window
        assert (await login(client, "owner", "wrong password")).status_code == 401
    blocked = await login(client, "owner")  # even the right password waits, from here
    assert_throttled(blocked)


def assert_throttled(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) > 0


@asynccontextmanager
async def browsers_at(app: FastAPI, *addresses: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    """A browser at each address, as the trusted proxy in front of the club names it."""
    async with AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(
                httpx.AsyncClient(
                    transport=httpx.ASGITransport(app=app),
                    base_url="http://testserver",
                    headers={"X-Forwarded-For": address},
                )
            )
            for address in addresses
        ]


async def statuses(
    browser: httpx.AsyncClient, username: str, password: str, times: int
) -> list[int]:
    return [(await login(browser, username, password)).status_code for _ in range(times)]


async def test_the_owner_logs_in_while_another_address_guesses(app: FastAPI, db: Database) -> None:
    await found_club(db)
    await add_member(db, "carol")
    async with browsers_at(app, "198.51.100.1", "203.0.113.2", "192.0.2.3") as (a, b, c):
        assert await statuses(a, "owner", "wrong password", 12) == [401] * 5 + [429] * 7
        assert (await login(b, "owner")).status_code == 200
        assert_throttled(await login(a, "owner"))  # the guesser stays refused, right or wrong
        assert (await login(c, "carol")).status_code == 200


async def test_guesses_spread_over_addresses_get_one_each_once_the_account_is_attacked(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    guessers = [f"198.51.100.{n}" for n in range(1, 7)]
    async with browsers_at(app, *guessers, "203.0.113.2") as (*attackers, owner):
        for attacker in attackers[:5]:  # 5 failures: the account is under attack
            assert await statuses(attacker, "owner", "wrong password", 1) == [401]
        assert_throttled(await login(attackers[0], "owner"))
        assert await statuses(attackers[5], "owner", "wrong password", 2) == [401, 429]
        assert (await login(owner, "owner")).status_code == 200


async def test_a_successful_login_forgets_that_address_failures(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    for _ in range(2):
        assert await statuses(client, "owner", "wrong password", 4) == [401] * 4
        assert (await login(client, "owner")).status_code == 200


async def test_a_spray_from_one_address_is_refused_for_every_account(
    settings: Settings, db: Database
) -> None:
    await found_club(db)
    names = [f"member{n}" for n in range(4)]
    for name in names:
        await add_member(db, name)
    app = create_app(settings.model_copy(update={"login_max_failures_per_address": 8}))
    try:
        async with browsers_at(app, "198.51.100.1", "203.0.113.2") as (sprayer, member):
            for name in names:  # two guesses each: no account's own limit is reached
                assert await statuses(sprayer, name, "wrong password", 2) == [401, 401]
            assert_throttled(await login(sprayer, "owner"))
            nobody = await login(sprayer, "nobody", "wrong password")
            assert_throttled(nobody)  # the same answer whether the account exists or not
            assert (await login(member, names[0])).status_code == 200
    finally:
        await app.state.db.dispose()


async def test_logout_ends_the_session(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    await login(client, "owner")
    token = client.cookies["salon_session"]
    assert (await post(client, "/api/auth/logout")).status_code == 204
    client.cookies.set("salon_session", token)  # replaying the old cookie does not work
    response = await client.get("/api/me")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


async def test_change_password_ends_other_sessions(app: FastAPI, db: Database) -> None:
    await found_club(db)
    laptop = await logged_in_client(app, "owner")
    phone = await logged_in_client(app, "owner")

    wrong = await post(
        laptop,
        "/api/auth/password",
        {"current_password": "not it at all", "new_password": "a brand new secret"},
    )
    assert wrong.json()["error"]["code"] == "wrong_password"
    short = await post(
        laptop, "/api/auth/password", {"current_password": PASSWORD, "new_password": "tiny"}
    )
    assert short.json()["error"]["code"] == "password_too_short"

    ok = await post(
        laptop,
        "/api/auth/password",
        {"current_password": PASSWORD, "new_password": "a brand new secret"},
    )
    assert ok.status_code == 204
    assert (await laptop.get("/api/me")).status_code == 200
    assert (await phone.get("/api/me")).status_code == 401
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as fresh:
        assert (await login(fresh, "owner")).status_code == 401
        assert (await login(fresh, "owner", "a brand new secret")).status_code == 200


async def test_posts_without_csrf_token_are_refused(app: FastAPI, db: Database) -> None:
    owner_id = await found_club(db)
    member_id = await add_member(db, "mia")
    owner = await logged_in_client(app, "owner")
    body = {"member_id": member_id, "amount": 5, "reason": "x", "idempotency_key": "key-00001"}

    missing = await owner.post("/api/admin/chips/grant", json=body)
    assert missing.status_code == 403
    assert missing.json()["error"]["code"] == "csrf_failed"

    # A token that matches a cookie but not the session (e.g. planted before login).
    planted = await prime_csrf(
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
    )
    owner.cookies.set("salon_csrf", planted)
    forged = await owner.post(
        "/api/admin/chips/grant", json=body, headers={"X-CSRF-Token": planted}
    )
    assert forged.json()["error"]["code"] == "csrf_failed"

    balance = (await owner.get("/api/admin/members")).json()
    assert [m["balance"] for m in balance if m["id"] == member_id] == [0]
    assert owner_id


async def test_cross_site_origin_is_refused(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    await prime_csrf(client)
    response = await client.post(
        "/api/auth/login",
        json={"username": "owner", "password": PASSWORD},
        headers={**csrf_headers(client), "Origin": "https://evil.example"},
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "bad_origin"
    same_site = await client.post(
        "/api/auth/login",
        json={"username": "owner", "password": PASSWORD},
        headers={**csrf_headers(client), "Origin": "http://testserver"},
    )
    assert same_site.status_code == 200


async def test_unsigned_csrf_cookie_is_refused_before_login(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    client.cookies.set("salon_csrf", "attacker-chosen")
    response = await client.post(
        "/api/auth/login",
        json={"username": "owner", "password": PASSWORD},
        headers={"X-CSRF-Token": "attacker-chosen"},
    )
    assert response.json()["error"]["code"] == "csrf_failed"


async def test_banned_member_is_logged_out_and_locked_out(app: FastAPI, db: Database) -> None:
    await found_club(db)
    member_id = await add_member(db, "ned")
    ned = await logged_in_client(app, "ned")
    owner = await logged_in_client(app, "owner")
    assert (await post(owner, f"/api/admin/members/{member_id}/ban")).json()["status"] == "banned"
    assert (await ned.get("/api/me")).status_code == 401
    refused = await login(ned, "ned")
    assert refused.json()["error"]["code"] == "account_banned"
    assert (await post(owner, f"/api/admin/members/{member_id}/unban")).json()["status"] == "active"
    assert (await login(ned, "ned")).status_code == 200


async def test_oversized_body_is_refused(client: httpx.AsyncClient, db: Database) -> None:
    await found_club(db)
    await prime_csrf(client)
    response = await client.post(
        "/api/auth/login",
        content=b'{"username": "' + b"a" * 100_000 + b'"}',
        headers={**csrf_headers(client), "content-type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


async def test_expired_sessions_do_not_work_and_are_purged(app: FastAPI, db: Database) -> None:
    from datetime import timedelta

    from sqlalchemy import func, update

    from app.db.models import AuthSession
    from app.db.types import utcnow

    await found_club(db)
    old = await logged_in_client(app, "owner")
    async with db.transaction() as session:
        await session.execute(
            update(AuthSession).values(expires_at=utcnow() - timedelta(seconds=1))
        )
    assert (await old.get("/api/me")).status_code == 401
    await logged_in_client(app, "owner")
    async with db.transaction() as session:
        assert await session.scalar(select(func.count()).select_from(AuthSession)) == 1
