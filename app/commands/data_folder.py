"""The folders Salon writes to, checked before a command starts: a wrong or read-only one is
one sentence naming it, never a traceback half-way through.

SALON_DATA_DIR holds the embedded SQLite database, the secret key generated when SECRET_KEY
is unset, and the demo's credentials; it is created when missing. An SQLite database needs
its folder writable as well as its file: SQLite writes its journal (`-wal`, `-shm`) beside
the file, even to read it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from app.commands.preflight import SetupProblem
from app.config import SECRET_KEY_FILE, Settings


def not_writable_because(folder: Path) -> str | None:
    """Why this process cannot create a file in `folder` (None: it can). Tried for real:
    permissions, read-only mounts, immutable folders and access lists all say no alike."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as error:
        return error.strerror or str(error)


def writable_data_folder(settings: Settings, what: str) -> Path:
    """SALON_DATA_DIR, created if missing, once sure this process may write `what` there."""
    folder = settings.data_dir
    if folder.exists() and not folder.is_dir():
        raise SetupProblem(
            f"SALON_DATA_DIR is {folder}, which is a file, not a folder: set SALON_DATA_DIR to "
            f"a folder (created if missing), where Salon keeps {what}."
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SetupProblem(
            f"Cannot create the data folder {folder} (SALON_DATA_DIR): {error.strerror}; "
            "create it, or set SALON_DATA_DIR to a folder this user can write."
        ) from None
    reason = not_writable_because(folder)
    if reason is not None:
        raise SetupProblem(
            f"The data folder {folder} (SALON_DATA_DIR) is not writable by this user "
            f"({reason}): Salon keeps {what} there; make it writable, or set SALON_DATA_DIR "
            "to a folder that is."
        )
    return folder


def check_data_folder(settings: Settings) -> None:
    """Every command: the embedded database's folder (when DATABASE_URL is unset)."""
    if settings.database_url == "":
        writable_data_folder(settings, "its SQLite database")


def check_secret_key(settings: Settings) -> None:
    """`salon serve` without SECRET_KEY: the key kept in the data folder can be read, or
    generated there."""
    if settings.secret_key:
        return
    path = settings.data_dir / SECRET_KEY_FILE
    if path.exists():
        try:
            path.read_text()
        except OSError as error:
            raise SetupProblem(
                f"Cannot read the secret key file {path} ({error.strerror}): make it readable "
                "by this user, or set SECRET_KEY."
            ) from None
        return
    writable_data_folder(settings, "the secret key it generates when SECRET_KEY is unset")


def check_sqlite_writable(database: Path) -> None:
    """An SQLite database this process may write: its folder and, once it exists, its file."""
    reason = not_writable_because(database.parent)
    if reason is not None:
        raise SetupProblem(
            f"The folder {database.parent} of the SQLite database is not writable by this user "
            f"({reason}): SQLite writes its journal beside the database; make the folder "
            "writable, or move the database (SALON_DATA_DIR or DATABASE_URL) to one that is."
        )
    if database.exists():
        try:
            with database.open("r+b"):
                pass
        except OSError as error:
            raise SetupProblem(
                f"The SQLite database {database} is not writable by this user "
                f"({error.strerror}): make it writable by the user that runs Salon."
            ) from None
