"""The setup mistakes a new operator makes first: each ends in one sentence and exit status 2,
never a traceback (the real `salon` command, as a subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import PROJECT_DIR, free_port, salon, salon_env


def _one_sentence(result: subprocess.CompletedProcess[str], *phrases: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("salon: ")
    assert "Traceback" not in result.stderr
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


def test_production_without_a_secret_key(tmp_path: Path) -> None:
    result = salon("serve", env=salon_env(tmp_path, SALON_ENV="production"))
    _one_sentence(result, "production needs SECRET_KEY", "at least 32 characters")


def test_serving_before_migrating(tmp_path: Path) -> None:
    result = salon("serve", env=salon_env(tmp_path))
    _one_sentence(result, "no database at", "run `salon migrate` first")
    assert not (tmp_path / "salon.db").exists()


def test_an_unreachable_database_server(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    url = f"postgres://postgres@127.0.0.1:{port}/salon"
    for command in ("migrate", "serve", "audit"):
        result = salon(command, env=salon_env(tmp_path, url))
        _one_sentence(result, f"Cannot reach the database server at 127.0.0.1:{port}", "start it")


def test_a_database_that_does_not_exist(tmp_path: Path) -> None:
    scratch = create_postgres_database()
    drop_postgres_database(scratch)
    name = scratch.rsplit("/", 1)[1]
    url = scratch.replace("postgresql+asyncpg://", "postgres://", 1)
    result = salon("migrate", env=salon_env(tmp_path, url))
    _one_sentence(result, f"The database {name!r} does not exist", f"createdb {name}")


def test_an_unmigrated_postgres_database_then_postgres_urls_as_hosts_print_them(
    tmp_path: Path,
) -> None:
    scratch = create_postgres_database()
    try:
        for scheme in ("postgres://", "postgresql://"):
            url = scratch.replace("postgresql+asyncpg://", scheme, 1)
            env = salon_env(tmp_path, url)
            if scheme == "postgres://":
                _one_sentence(salon("audit", env=env), "no Salon tables yet", "salon migrate")
                migrated = salon("migrate", env=env)
                assert migrated.returncode == 0, migrated.stderr
                assert "(postgresql)" in migrated.stdout
            audit = salon("audit", env=env)
            assert audit.returncode == 0, audit.stderr
            assert "ledger OK" in audit.stdout
    finally:
        drop_postgres_database(scratch)


def test_a_database_url_of_another_kind(tmp_path: Path) -> None:
    result = salon("migrate", env=salon_env(tmp_path, "mysql://root@127.0.0.1/salon"))
    _one_sentence(result, "DATABASE_URL must start with postgresql://", "not mysql://")


def test_an_sqlite_file_in_a_missing_folder(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing' / 'salon.db'}"
    _one_sentence(salon("migrate", env=salon_env(tmp_path, url)), "does not exist: create it")


def test_a_trusted_proxy_that_is_not_an_address(tmp_path: Path) -> None:
    env = salon_env(tmp_path, SALON_TRUSTED_PROXIES="nginx")
    _one_sentence(salon("serve", env=env), "SALON_TRUSTED_PROXIES lists 'nginx'")


def test_an_allowed_origin_that_is_not_an_origin(tmp_path: Path) -> None:
    env = salon_env(tmp_path, SALON_ALLOWED_ORIGINS="cards.example.org")
    _one_sentence(salon("serve", env=env), "SALON_ALLOWED_ORIGINS lists 'cards.example.org'")


def test_several_processes_on_the_embedded_database(tmp_path: Path) -> None:
    env = salon_env(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0")
    _one_sentence(salon("serve", env=env), "REDIS_URL is set", "PostgreSQL")


def test_an_unreachable_redis(tmp_path: Path) -> None:
    scratch = create_postgres_database()
    try:
        env = salon_env(tmp_path, scratch)
        assert salon("migrate", env=env).returncode == 0
        port = free_port()  # nothing listens there
        env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        _one_sentence(salon("serve", env=env), f"Cannot reach Redis at 127.0.0.1:{port}", "unset")
    finally:
        drop_postgres_database(scratch)


@pytest.mark.parametrize(
    "command",
    [
        (),
        ("serve",),
        ("migrate",),
        ("create-admin",),
        ("demo",),
        ("audit",),
        ("backup",),
        ("restore",),
        ("return-stranded",),
        ("replay",),
        ("bench",),
        ("bench", "engine"),
        ("bench", "live"),
        ("bench", "hands"),
    ],
)
def test_every_command_documents_its_options_and_defaults(command: tuple[str, ...]) -> None:
    from app.cli import build_parser

    parser = build_parser()
    for name in command:
        parser = next(
            action.choices[name]
            for action in parser._actions
            if isinstance(action.choices, dict) and name in action.choices
        )
    shown = " ".join(parser.format_help().split())
    assert shown.startswith(f"usage: salon {' '.join(command)}".rstrip())
    for action in parser._actions:
        assert action.help, f"{action.dest} of `salon {' '.join(command)}` has no help"
        if action.default not in (None, False, "==SUPPRESS==") and action.option_strings:
            assert f"(default: {action.default})" in shown, action.dest


def test_salon_help_lists_every_command(tmp_path: Path) -> None:
    result = salon("--help", env=salon_env(tmp_path))
    assert result.returncode == 0, result.stderr
    for name in ("serve", "migrate", "create-admin", "demo", "audit", "replay", "bench"):
        assert f"\n    {name}" in result.stdout
    assert "exits with status 2" in " ".join(result.stdout.split())


def test_replay_documents_its_exit_codes(tmp_path: Path) -> None:
    result = salon("replay", "--help", env=salon_env(tmp_path))
    text = result.stdout
    assert "exit status:" in text
    for code in ("0  the log replays", "1  an action is illegal", "2  the file is unreadable"):
        assert code in text


def test_a_reader_that_goes_away_ends_quietly(tmp_path: Path) -> None:
    """`salon replay log.json | head -c 0`: the reader closes the pipe before salon writes
    (it has not even started Python yet), so the write meets a closed pipe every time."""
    log = next(
        path
        for path in sorted((PROJECT_DIR / "tests" / "engine" / "fixtures").glob("*.json"))
        if not path.name.endswith(".expected.json") and "error" not in path.name
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "replay", str(log)],
        cwd=PROJECT_DIR,
        env=salon_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    process.stdout.close()
    _, errors = process.communicate(timeout=60)
    assert errors == ""
    assert process.returncode == 0
