"""Lost passwords against a real `salon serve` (docs/lost-passwords.md): an admin makes a
one-time link, the member sets a new password through it, and everything around it — who
may make links, single use, expiry, replacement, CSRF, throttling, the audit log, and the
token kept out of the log and the server's own log."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from tests.live import demo_password, running_server, salon, salon_env

CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
NEW_PASSWORD = "a brand new passphrase"


class Club:
    """A served demo club: the owner is `admin`, the members alice, bob, carol, dave, emile."""

    def __init__(self, base: str, env: dict[str, str]) -> None:
        self.base = base
        self.env = env
        self.owner_password = demo_password(env, "admin")
        self.member_password = demo_password(env, "member")
        self.owner = self.logged_in("admin", self.owner_password)
        self.ids = {m["username"]: m["id"] for m in self.owner.get("/api/admin/members").json()}

    def browser(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10)

    def login(self, client: httpx.Client, username: str, password: str) -> httpx.Response:
        token = client.get("/api/auth/csrf").json()["csrf_token"]
        return client.post(
            "/api/auth/login",
            json={"username": username, "password": password},
            headers={"X-CSRF-Token": token},
        )

    def logged_in(self, username: str, password: str | None = None) -> httpx.Client:
        client = self.browser()
        response = self.login(client, username, password or self.member_password)
        assert response.status_code == 200, response.text
        return client

    def can_log_in(self, username: str, password: str) -> bool:
        with self.browser() as client:
            return self.login(client, username, password).status_code == 200

    def log(self) -> list[dict[str, object]]:
        entries: list[dict[str, object]] = self.owner.get("/api/admin/log").json()["entries"]
        return entries


def post_json(client: httpx.Client, path: str, body: object = None) -> httpx.Response:
    return client.post(path, json=body, headers={"X-CSRF-Token": client.cookies["salon_csrf"]})


def make_link(admin: httpx.Client, member_id: int) -> httpx.Response:
    return post_json(admin, f"/api/admin/members/{member_id}/password-reset")


def set_password(
    client: httpx.Client, link: str, password: str, again: str | None = None
) -> httpx.Response:
    """Open the link and send its form, as the member's browser does."""
    page = client.get(link)
    assert page.status_code == 200, page.text
    token = CSRF_FIELD.search(page.text)
    assert token is not None
    return client.post(
        link,
        data={
            "csrf_token": token.group(1),
            "new_password": password,
            "new_password_again": password if again is None else again,
        },
    )


def refused_link(response: httpx.Response) -> bool:
    """The one page every unknown, used or expired link answers."""
    return response.status_code == 404 and 'data-code="reset_link_invalid"' in response.text


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated demo club's data directory, made once and copied for each server."""
    data_dir = tmp_path_factory.mktemp("demo")
    env = salon_env(data_dir)
    assert salon("migrate", env=env).returncode == 0
    assert salon("demo", env=env).returncode == 0
    return data_dir


def served_club(demo_dir: Path, data_dir: Path, **settings: str) -> Iterator[Club]:
    shutil.copytree(demo_dir, data_dir, dirs_exist_ok=True)
    env = salon_env(data_dir, **settings)
    with running_server(env) as base:
        yield Club(base, env)


@pytest.fixture(scope="module")
def club(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    yield from served_club(demo_dir, tmp_path_factory.mktemp("reset"))


@pytest.fixture(scope="module")
def short_links(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    """Links that last a second, and three bad links per address per window."""
    yield from served_club(
        demo_dir,
        tmp_path_factory.mktemp("short"),
        SALON_PASSWORD_RESET_SECONDS="1",
        SALON_LOGIN_MAX_FAILURES_PER_ADDRESS="3",
    )


def test_a_member_sets_a_new_password_through_the_admins_link(club: Club) -> None:
    first, second = club.logged_in("alice"), club.logged_in("alice")
    made = make_link(club.owner, club.ids["alice"])
    assert made.status_code == 201, made.text
    assert made.headers["cache-control"] == "no-store"
    link, expires_at = made.json()["url"], datetime.fromisoformat(made.json()["expires_at"])
    assert link.startswith(f"{club.base}/reset/") and len(link) > len(club.base) + 40
    assert abs(expires_at - (datetime.now(UTC) + timedelta(days=1))) < timedelta(minutes=1)

    with club.browser() as browser:
        page = browser.get(link)
        assert page.status_code == 200 and "Alice" in page.text
        # The token goes as a Referer to this site alone, and no cache keeps the page.
        assert page.headers["referrer-policy"] == "same-origin"
        assert page.headers["cache-control"] == "no-store"
        done = set_password(browser, link, NEW_PASSWORD)
        assert done.status_code == 200 and 'data-testid="reset-done"' in done.text
        # Used once: the same link answers the one refusal page, and changes nothing.
        assert refused_link(browser.get(link))
        again = browser.post(
            link,
            data={
                "csrf_token": browser.cookies["salon_csrf"],
                "new_password": "yet another passphrase",
                "new_password_again": "yet another passphrase",
            },
        )
        assert refused_link(again)

    # Every session alice had is over; the old password fails, the new one works.
    assert first.get("/api/me").status_code == 401
    assert second.get("/api/me").status_code == 401
    assert not club.can_log_in("alice", club.member_password)
    assert not club.can_log_in("alice", "yet another passphrase")
    assert club.can_log_in("alice", NEW_PASSWORD)

    made_row, used_row = (
        next(e for e in club.log() if e["action"] == action and e["target_label"] == "alice")
        for action in ("member.password_reset", "member.password_reset_used")
    )
    assert (made_row["actor"], made_row["target_id"]) == ("admin", str(club.ids["alice"]))
    assert used_row["actor"] == "alice"
    assert used_row["after"] == {
        "link_made_by": "admin",
        "link_made_at": used_row["after"]["link_made_at"],  # type: ignore[index]
        "sessions_ended": 2,
    }
    # The token is nowhere: not in the audit log, its CSV, nor the server's access log.
    secret = link.rsplit("/", 1)[1]
    assert secret not in club.owner.get("/api/admin/log").text
    assert secret not in club.owner.get("/api/admin/log.csv").text
    server_log = next(Path(club.env["SALON_DATA_DIR"]).glob("server-*.log")).read_text()
    assert "GET /reset/[token withheld]" in server_log and secret not in server_log


def test_the_admin_page_shows_the_link_once_and_a_newer_link_replaces_it(club: Club) -> None:
    member_page = club.owner.get(f"/admin/members/{club.ids['dave']}")
    assert 'data-testid="password-reset-form"' in member_page.text
    token = CSRF_FIELD.search(member_page.text)
    assert token is not None

    def by_form() -> str:
        shown = club.owner.post(
            "/admin/password-resets",
            data={"csrf_token": token.group(1), "member_id": str(club.ids["dave"])},
        )
        assert shown.status_code == 200 and shown.headers["cache-control"] == "no-store"
        found = re.search(r'value="([^"]+/reset/[^"]+)"', shown.text)
        assert found is not None, shown.text
        return found.group(1)

    older, newer = by_form(), by_form()
    with club.browser() as browser:
        assert refused_link(browser.get(older))
        # A refused password leaves the link working, and the password as it was.
        differ = set_password(browser, newer, NEW_PASSWORD, again="something else here")
        assert differ.status_code == 422 and 'data-code="passwords_differ"' in differ.text
        short = set_password(browser, newer, "short")
        assert short.status_code == 422 and 'data-code="password_too_short"' in short.text
        assert club.can_log_in("dave", club.member_password)
        assert set_password(browser, newer, NEW_PASSWORD).status_code == 200
    assert club.can_log_in("dave", NEW_PASSWORD)


def test_who_may_make_links_for_whom(club: Club) -> None:
    """Members make none; an admin makes them for members only; the owner for admins too;
    nobody for the owner, nor for themselves. A refusal writes nothing."""
    for name in ("bob", "carol"):
        promoted = post_json(
            club.owner, f"/api/admin/members/{club.ids[name]}/role", {"role": "admin"}
        )
        assert promoted.status_code == 200, promoted.text
    member, admin = club.logged_in("emile"), club.logged_in("bob")
    rows = len(club.log())
    refusals = [
        (member, "carol", 403, "admin_only"),
        (admin, "admin", 403, "target_is_owner"),
        (admin, "carol", 403, "owner_only"),
        (admin, "bob", 403, "cannot_act_on_self"),
        (club.owner, "admin", 403, "cannot_act_on_self"),
    ]
    for caller, target, status, code in refusals:
        refused = make_link(caller, club.ids[target])
        assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), target
    missing = make_link(club.owner, 999_999)
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "member_not_found")
    assert len(club.log()) == rows

    assert make_link(admin, club.ids["emile"]).status_code == 201
    assert make_link(club.owner, club.ids["carol"]).status_code == 201
    made = [(e["actor"], e["target_label"]) for e in club.log()[:2]]
    assert made == [("admin", "carol"), ("bob", "emile")]


def test_without_the_csrf_token_nothing_is_made_or_changed(club: Club) -> None:
    rows = len(club.log())
    bare = club.owner.post(f"/api/admin/members/{club.ids['carol']}/password-reset")
    assert (bare.status_code, bare.json()["error"]["code"]) == (403, "csrf_failed")
    form = club.owner.post("/admin/password-resets", data={"member_id": str(club.ids["carol"])})
    assert form.status_code == 403
    assert len(club.log()) == rows

    link = make_link(club.owner, club.ids["carol"]).json()["url"]
    with club.browser() as browser:
        assert browser.get(link).status_code == 200
        forged = browser.post(
            link, data={"new_password": NEW_PASSWORD, "new_password_again": NEW_PASSWORD}
        )
        assert forged.status_code == 403 and "csrf_failed" in forged.text
    assert club.can_log_in("carol", club.member_password)
    with club.browser() as browser:
        assert set_password(browser, link, NEW_PASSWORD).status_code == 200


def test_a_link_expires_and_bad_links_are_throttled(short_links: Club) -> None:
    made = make_link(short_links.owner, short_links.ids["bob"])
    assert made.status_code == 201
    link = made.json()["url"]
    with short_links.browser() as browser:
        deadline = time.monotonic() + 10
        while not refused_link(answer := browser.get(link)):  # polled, not slept through
            assert answer.status_code == 200 and time.monotonic() < deadline
            time.sleep(0.1)
        # Expired: refused, and bob's password is what it was.  (2 failures so far)
        refused = browser.post(
            link,
            data={
                "csrf_token": browser.cookies["salon_csrf"],
                "new_password": NEW_PASSWORD,
                "new_password_again": NEW_PASSWORD,
            },
        )
        assert refused_link(refused)
        assert short_links.can_log_in("bob", short_links.member_password)

        assert refused_link(browser.get(f"{short_links.base}/reset/made-up-token"))
        # Three bad links from this address: even a good one waits now.
        fresh = make_link(short_links.owner, short_links.ids["bob"]).json()["url"]
        throttled = browser.get(fresh)
        assert throttled.status_code == 429 and 'data-code="rate_limited"' in throttled.text
        assert int(throttled.headers["retry-after"]) > 0
