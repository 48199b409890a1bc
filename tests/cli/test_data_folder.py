"""A data folder Salon cannot use — read-only, or a file — is one sentence naming it and exit
status 2, from the real `salon` command.

Root writes anywhere whatever the permissions say, so run as root (CI) the folder is made
immutable (`chattr +i`: no file can be created in it, even by root); otherwise its mode is
made read-only.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.one_sentence import assert_one_sentence
from tests.databases import create_postgres_database, drop_postgres_database, postgres_required
from tests.live import salon, salon_env


@pytest.fixture
def read_only() -> Iterator[list[Path]]:
    """Folders a test appends to, made read-only by `make_read_only`, and writable again
    afterwards so they can be removed."""
    folders: list[Path] = []
    yield folders
    for folder in folders:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(folder)], check=False)
        folder.chmod(0o755)


def make_read_only(folder: Path, registry: list[Path]) -> None:
    registry.append(folder)
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        message = f"cannot make a folder read-only for root here: {done.stderr.strip()}"
        if postgres_required():  # CI: the test must run
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def test_a_migrated_database_in_a_read_only_folder(tmp_path: Path, read_only: list[Path]) -> None:
    data = tmp_path / "data"
    env = salon_env(data, SECRET_KEY="k" * 40)
    assert salon("migrate", env=env).returncode == 0
    make_read_only(data, read_only)
    for command in ("serve", "migrate", "audit"):
        result = salon(command, env=env)
        sentence = assert_one_sentence(
            result, f"The data folder {data} (SALON_DATA_DIR) is not writable by this user"
        )
        assert "salon migrate" not in sentence


def test_a_read_only_folder_without_a_secret_key(tmp_path: Path, read_only: list[Path]) -> None:
    scratch = create_postgres_database()
    try:
        data = tmp_path / "data"
        data.mkdir()
        env = salon_env(data, scratch)
        assert salon("migrate", env=env).returncode == 0
        make_read_only(data, read_only)
        assert_one_sentence(
            salon("serve", env=env),
            f"The data folder {data} (SALON_DATA_DIR) is not writable",
            "the secret key it generates when SECRET_KEY is unset",
        )
        # The commands that keep nothing there still work.
        audit = salon("audit", env=env)
        assert audit.returncode == 0, audit.stderr
    finally:
        drop_postgres_database(scratch)


def test_a_data_folder_that_is_a_file(tmp_path: Path) -> None:
    a_file = tmp_path / "salon.conf"
    a_file.write_text("")
    for command in ("serve", "migrate", "demo"):
        result = salon(command, env=salon_env(a_file))
        assert_one_sentence(result, f"SALON_DATA_DIR is {a_file}, which is a file, not a folder")


def test_an_sqlite_database_named_by_url_in_a_read_only_folder(
    tmp_path: Path, read_only: list[Path]
) -> None:
    data = tmp_path / "elsewhere"
    data.mkdir()
    url = f"sqlite:///{data / 'club.db'}"
    env = salon_env(tmp_path, url, SECRET_KEY="k" * 40)
    assert salon("migrate", env=env).returncode == 0
    make_read_only(data, read_only)
    assert_one_sentence(
        salon("migrate", env=env),
        f"The folder {data} of the SQLite database is not writable by this user",
    )
