"""Run Alembic from Python (`salon migrate`, tests, start-up checks)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = database_url
    return config


def upgrade_head(database_url: str) -> None:
    """Bring the database to the newest schema. Alembic runs its own event loop, so call
    this from synchronous code (or a worker thread)."""
    command.upgrade(alembic_config(database_url), "head")
