"""Adding a language as the README says (`make language CODE=de`, translate, restart):
in a copy of the source tree, German is offered in the menu and spoken to a browser that
asks for it, and the completeness check has every entry of its new catalog to report."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import httpx

from tests.i18n.catalog_files import extracted
from tests.live import PROJECT_DIR, RestartableServer, salon, salon_env

TREE = ["app", "templates", "static", "migrations"]
FILES = ["alembic.ini", "babel.cfg", "Makefile", "pyproject.toml", "constraints.txt"]


def test_a_seventh_language_made_with_make_language_is_offered(tmp_path: Path) -> None:
    source = tmp_path / "salon"
    for name in TREE:
        shutil.copytree(
            PROJECT_DIR / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
        )
    for name in FILES:
        shutil.copy2(PROJECT_DIR / name, source / name)
    venv = PROJECT_DIR / ".venv"
    # This checkout's environment, taken as installed (-o): the copy is only read.
    make = ["make", "-C", str(source), "-o", f"{venv}/.installed", f"VENV={venv}"]
    made = subprocess.run(
        [*make, "language", "CODE=de"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    catalog = source / "app/i18n/locales/de/LC_MESSAGES/messages.po"
    text = catalog.read_text()
    # Every word the sources mark, each to translate (the completeness test fails until
    # each has its German).
    assert text.count('msgstr ""') + text.count('msgstr[0] ""') >= len(extracted())
    assert 'msgid "Log in"' in text
    (tmp_path / "data").mkdir()
    env = salon_env(tmp_path / "data")
    migrated = salon("migrate", env=env, source=source)
    assert migrated.returncode == 0, migrated.stderr
    server = RestartableServer(env, source=source, log_name="de.log")
    server.start()
    try:
        login = httpx.get(f"http://{server.host}/login", headers={"accept-language": "de-DE"})
        assert '<html lang="de" dir="ltr">' in login.text
        assert ">Deutsch</option>" in login.text
        # Not yet translated: its English, until a translator gives the German.
        assert "<h1>Log in</h1>" in login.text
    finally:
        server.stop()
