"""`salon reset-password`, run as the owner runs it on the server, against a real server on
the embedded SQLite database and on PostgreSQL (docs/lost-passwords.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.commands.preflight import SetupProblem
from app.commands.reset_password import link_origin
from app.config import Settings
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import running_server, salon, salon_env

FIRST = "the owner's first passphrase"
FROM_LINK = "chosen through the link"
FROM_SHELL = "typed into the server's shell"
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: the embedded SQLite file under the data directory."""
    if request.param == "sqlite":
        yield None
        return
    url = create_postgres_database()
    try:
        yield url
    finally:
        drop_postgres_database(url)


def log_in(base: str, username: str, password: str) -> httpx.Client | None:
    """A browser logged in as `username`, or None when the password is refused."""
    client = httpx.Client(base_url=base, timeout=10)
    token = client.get("/api/auth/csrf").json()["csrf_token"]
    response = client.post(
        "/api/auth/login",
        json={"username": username, "password": password},
        headers={"X-CSRF-Token": token},
    )
    if response.status_code == 200:
        return client
    client.close()
    return None


def can_log_in(base: str, username: str, password: str) -> bool:
    client = log_in(base, username, password)
    if client is None:
        return False
    client.close()
    return True


def test_the_owner_resets_their_password_from_the_shell(
    tmp_path: Path, database_url: str | None
) -> None:
    env = salon_env(tmp_path, database_url)
    assert salon("migrate", env=env).returncode == 0
    founded = salon("create-admin", "boss", "--password-stdin", env=env, stdin=f"{FIRST}\n")
    assert founded.returncode == 0, founded.stderr

    unknown = salon("reset-password", "nobody", env=env)
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr.count("\n") == 1 and "'nobody'" in unknown.stderr

    with running_server(env) as base:
        before = log_in(base, "boss", FIRST)
        assert before is not None
        made = salon("reset-password", "boss", "--base-url", base, env=env)
        assert made.returncode == 0, made.stderr
        found = re.search(rf"^  ({re.escape(base)}/reset/\S+)$", made.stdout, re.M)
        assert found, made.stdout
        link = found.group(1)
        with httpx.Client(timeout=10) as browser:
            page = browser.get(link)
            token = CSRF_FIELD.search(page.text)
            assert page.status_code == 200 and token is not None, page.text
            done = browser.post(
                link,
                data={
                    "csrf_token": token.group(1),
                    "new_password": FROM_LINK,
                    "new_password_again": FROM_LINK,
                },
            )
            assert done.status_code == 200 and 'data-testid="reset-done"' in done.text
            assert browser.get(link).status_code == 404
        assert before.get("/api/me").status_code == 401
        before.close()
        assert not can_log_in(base, "boss", FIRST)

        owner = log_in(base, "boss", FROM_LINK)
        assert owner is not None
        # Or set at once, from standard input (the name as typed: any case).
        shell = salon(
            "reset-password", "BOSS", "--password-stdin", env=env, stdin=f"{FROM_SHELL}\n"
        )
        assert shell.returncode == 0, shell.stderr
        assert shell.stdout == "Password of boss set; sessions ended: 1.\n"
        assert owner.get("/api/me").status_code == 401
        owner.close()
        weak = salon("reset-password", "boss", "--password-stdin", env=env, stdin="short\n")
        assert weak.returncode == 1 and "password_too_short" in weak.stderr
        assert not can_log_in(base, "boss", FROM_LINK)
        auditor = log_in(base, "boss", FROM_SHELL)
        assert auditor is not None
        log = auditor.get("/api/admin/log").json()["entries"]
        csv = auditor.get("/api/admin/log.csv").text
        auditor.close()

    assert [(e["action"], e["actor"], e["target_label"]) for e in log] == [
        ("member.password_set", "the salon command", "boss"),
        ("member.password_reset_used", "boss", "boss"),
        ("member.password_reset", "the salon command", "boss"),
    ]
    secret = link.rsplit("/", 1)[1]
    assert all(secret not in text for text in (str(log), csv, made.stderr))


def test_the_link_is_under_the_base_url_or_the_first_allowed_origin() -> None:
    settings = Settings(allowed_origins="https://cards.example.org,http://127.0.0.1:9")
    assert link_origin(settings, None) == "https://cards.example.org"
    assert link_origin(settings, "https://club.example.net/") == "https://club.example.net"
    for wrong in ("ftp://club.example.net", "club.example.net", "https://a.example?x=1"):
        with pytest.raises(SetupProblem, match="--base-url"):
            link_origin(settings, wrong)
    with pytest.raises(SetupProblem, match="SALON_ALLOWED_ORIGINS is empty"):
        link_origin(Settings(allowed_origins=""), None)


def test_the_command_is_listed_and_documents_its_options() -> None:
    from app.cli import build_parser

    listed = " ".join(build_parser().format_help().split())
    assert "reset-password print a one-time link" in listed
    with pytest.raises(SystemExit):
        build_parser().parse_args(["reset-password"])  # the name is required
    args = build_parser().parse_args(["reset-password", "alice", "--password-stdin"])
    assert (args.username, args.base_url, args.password_stdin) == ("alice", None, True)
