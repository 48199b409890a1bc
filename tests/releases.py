"""The releases recorded in migrations/releases.toml, and the source of one exported from
this checkout's git history (`git archive`), for the tests of upgrades."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.live import PROJECT_DIR

RELEASES_FILE = PROJECT_DIR / "migrations" / "releases.toml"


@dataclass(frozen=True)
class Release:
    commit: str
    # The Alembic head of its migrations.
    schema: str


def previous_release() -> Release:
    """The newest release recorded: the one upgrades start from."""
    releases = tomllib.loads(RELEASES_FILE.read_text())["release"]
    newest = releases[-1]
    return Release(commit=str(newest["commit"]), schema=str(newest["schema"]))


def export_source(release: Release, folder: Path) -> Path:
    """The release's source tree, exported from git into `folder`. Without git history
    holding its commit the test skips on a developer's machine, but fails under `CI=true`
    (CI must check out enough history: the previous release's commit)."""
    found = subprocess.run(
        ["git", "-C", str(PROJECT_DIR), "archive", "--format=tar", release.commit],
        capture_output=True,
        check=False,
    )
    if found.returncode != 0:
        message = (
            f"cannot export the previous release {release.commit[:12]} "
            f"(migrations/releases.toml) from this checkout's git history: "
            f"{found.stderr.decode(errors='replace').strip()} — check out the repository "
            "with its history (e.g. `git fetch --unshallow`)"
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    with tarfile.open(fileobj=io.BytesIO(found.stdout)) as archive:
        archive.extractall(folder, filter="data")
    return folder
