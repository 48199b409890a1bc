"""The `salon` command as a user runs it, on the embedded SQLite database."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from app.db.models import AccountKind
from app.db.session import Database
from app.services import ledger
from tests.live import PROJECT_DIR, running_server, salon, salon_env

LOGIN = re.compile(r"admin login:\s+admin / (\S+)")
BOURRE_LOGS = PROJECT_DIR / "tests" / "engine" / "fixtures"


def test_migrate_demo_audit_and_serve(tmp_path: Path) -> None:
    env = salon_env(tmp_path)
    migrated = salon("migrate", env=env)
    assert migrated.returncode == 0, migrated.stderr
    assert (tmp_path / "salon.db").exists()

    demo = salon("demo", env=env)
    assert demo.returncode == 0, demo.stderr
    found = LOGIN.search(demo.stdout)
    assert found, demo.stdout
    password = found.group(1)
    again = salon("demo", env=env)
    assert LOGIN.search(again.stdout) and LOGIN.search(again.stdout).group(1) == password  # type: ignore[union-attr]
    assert (tmp_path / "demo-credentials.txt").stat().st_mode & 0o077 == 0

    audit = salon("audit", env=env)
    assert audit.returncode == 0, audit.stdout
    assert "chips in circulation: 5000" in audit.stdout
    assert "ledger OK" in audit.stdout

    with running_server(env) as base, httpx.Client(base_url=base) as client:
        token = client.get("/api/auth/csrf").json()["csrf_token"]
        response = client.post(
            "/api/auth/login",
            json={"username": "admin", "password": password},
            headers={"X-CSRF-Token": token},
        )
        assert response.status_code == 200
        assert response.json()["member"]["role"] == "owner"
        members = client.get("/api/admin/members").json()
        assert sorted(m["balance"] for m in members) == [0, 1000, 1000, 1000, 1000, 1000]
        # One table of each game waits in the lobby, and `salon demo` again adds none.
        lobby = client.get("/api/tables").json()
        assert sorted(t["game"] for t in lobby) == ["bouillotte", "bourre"]
        assert all(t["seats"] == [] and t["status"] == "open" for t in lobby)


def test_audit_exits_1_on_an_inconsistent_ledger(tmp_path: Path) -> None:
    env = salon_env(tmp_path)
    assert salon("migrate", env=env).returncode == 0
    assert salon("demo", env=env).returncode == 0
    with sqlite3.connect(tmp_path / "salon.db") as conn:
        conn.execute("UPDATE accounts SET balance = balance + 7 WHERE key = 'member:2'")
    audit = salon("audit", env=env)
    assert audit.returncode == 1
    assert "PROBLEM: account member:2: balance 1007 but its entries sum to 1000" in audit.stdout
    assert "ledger INCONSISTENT" in audit.stdout


def test_create_admin_founds_the_club_then_adds_admins(tmp_path: Path) -> None:
    env = salon_env(tmp_path)
    assert salon("migrate", env=env).returncode == 0
    first = salon(
        "create-admin",
        "boss",
        "--club-name",
        "Chez Nous",
        "--password-stdin",
        env=env,
        stdin="a long enough password\n",
    )
    assert first.returncode == 0, first.stderr
    assert "boss as owner of a new club" in first.stdout
    second = salon("create-admin", "deputy", env=env, stdin="")  # no tty: a password is generated
    assert second.returncode == 0, second.stderr
    assert re.search(r"login: deputy / \S{23}", second.stdout)
    taken = salon("create-admin", "deputy", "--password-stdin", env=env, stdin="another password\n")
    assert taken.returncode == 1
    assert "username_taken" in taken.stderr
    weak = salon("create-admin", "weak", "--password-stdin", env=env, stdin="short\n")
    assert weak.returncode == 1
    assert "password_too_short" in weak.stderr
    with sqlite3.connect(tmp_path / "salon.db") as conn:
        rows = conn.execute("SELECT username, role FROM users ORDER BY id").fetchall()
        assert rows == [("boss", "owner"), ("deputy", "admin")]
        assert conn.execute("SELECT name FROM club").fetchone() == ("Chez Nous",)


def test_demo_on_a_club_that_is_not_the_demo_refuses_with_status_2(tmp_path: Path) -> None:
    env = salon_env(tmp_path)
    assert salon("migrate", env=env).returncode == 0
    founded = salon(
        "create-admin", "boss", "--password-stdin", env=env, stdin="a long enough password\n"
    )
    assert founded.returncode == 0, founded.stderr

    demo = salon("demo", env=env)
    assert demo.returncode == 2, demo.stdout
    assert demo.stdout == ""
    assert demo.stderr.count("\n") == 1
    assert "already has a club (not created by `salon demo`)" in demo.stderr
    assert "salon create-admin" in demo.stderr
    # Nothing of the demo landed in the real club.
    with sqlite3.connect(tmp_path / "salon.db") as conn:
        assert conn.execute("SELECT username FROM users").fetchall() == [("boss",)]
        assert conn.execute("SELECT count(*) FROM game_tables").fetchone() == (0,)
    assert not (tmp_path / "demo-credentials.txt").exists()


def test_production_refuses_a_missing_secret_key(tmp_path: Path) -> None:
    env = salon_env(tmp_path, SALON_ENV="production")
    result = salon("migrate", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


INVALID_PAIRS = {
    "malformed_simultaneous_draw_with_declare": (
        "declare: simultaneous",
        "draw_with_declare: true",
    ),
    "malformed_must_trump_always_throw_off": ("must_trump: always", "allow_throw_off: true"),
}


@pytest.mark.parametrize("log", INVALID_PAIRS)
def test_replay_refuses_an_invalid_pair_of_options(tmp_path: Path, log: str) -> None:
    """bourre.md: the two invalid pairs are a malformed document: exit 2, the path $.rules,
    a message naming both options, nothing on standard output."""
    replayed = salon("replay", str(BOURRE_LOGS / f"{log}.json"), env=salon_env(tmp_path))
    assert replayed.returncode == 2 and replayed.stdout == ""
    assert replayed.stderr.startswith("$.rules: ") and replayed.stderr.count("\n") == 1
    assert all(option in replayed.stderr for option in INVALID_PAIRS[log])


def test_audit_names_stranded_chips_and_return_stranded_gives_them_back(tmp_path: Path) -> None:
    env = salon_env(tmp_path)
    assert salon("migrate", env=env).returncode == 0
    assert salon("demo", env=env).returncode == 0

    async def strand() -> None:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'salon.db'}", null_pool=True)
        try:
            async with db.transaction() as session:
                await ledger.open_account(session, "seat:9:2", AccountKind.SEAT, 2)
                await ledger.post(
                    session,
                    idempotency_key="left-behind",
                    kind="buy_in",
                    reason="left behind",
                    actor_id=2,
                    movements=[ledger.Movement("member:2", "seat:9:2", 70)],
                )
        finally:
            await db.dispose()

    asyncio.run(strand())
    audit = salon("audit", env=env)
    assert audit.returncode == 1
    assert "PROBLEM: account seat:9:2: 70 chips stranded" in audit.stdout
    assert "salon return-stranded seat:9:2" in audit.stdout
    returned = salon("return-stranded", "seat:9:2", env=env)
    assert returned.returncode == 0, returned.stderr
    assert "returned 70 chips from seat:9:2" in returned.stdout

    async def logged() -> list[tuple[object, ...]]:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'salon.db'}", null_pool=True)
        try:
            async with db.engine.connect() as conn:
                query = text(
                    "SELECT action, actor_id, target_id FROM admin_actions "
                    "WHERE action = 'chips.return_stranded'"
                )
                return [tuple(row) for row in (await conn.execute(query)).all()]
        finally:
            await db.dispose()

    # The operator's command is an admin action too, by "the salon command" (no member).
    assert asyncio.run(logged()) == [("chips.return_stranded", None, "seat:9:2")]
    again = salon("return-stranded", "seat:9:2", env=env)
    assert again.returncode == 1 and "not_stranded" in again.stderr
    audit = salon("audit", env=env)
    assert audit.returncode == 0, audit.stdout
    assert "chips in circulation: 5000" in audit.stdout
