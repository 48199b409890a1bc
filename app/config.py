"""Settings read from the environment (pydantic-settings).

Every setting has a safe development default so that `make run` works on a fresh machine;
production mode (`SALON_ENV=production`) refuses the defaults that are only safe locally.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

SECRET_KEY_FILE = "secret_key"  # noqa: S105 (a file name, not a secret)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SALON_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    data_dir: Path = Path("var")
    database_url: str = Field(
        default="",
        validation_alias=AliasChoices("DATABASE_URL", "SALON_DATABASE_URL"),
        description="SQLAlchemy async URL; empty means the embedded SQLite file under data_dir.",
    )
    secret_key: str = Field(
        default="",
        validation_alias=AliasChoices("SECRET_KEY", "SALON_SECRET_KEY"),
    )
    host: str = "127.0.0.1"
    port: int = 8000
    # Origins allowed to post forms/JSON with a session cookie and to open WebSockets.
    allowed_origins: list[str] = ["http://127.0.0.1:8000", "http://localhost:8000"]
    # None: decide from the request (Secure when served over HTTPS).
    cookie_secure: bool | None = None
    session_days: int = 14
    # Login throttling: failures allowed per window, per client address and per username.
    login_max_failures: int = 10
    login_window_seconds: int = 300
    db_pool_size: int = 10
    # Pause between the end of a hand and the next deal (seconds).
    next_hand_seconds: float = 4.0
    # Table sockets: messages allowed per 2-second window (three times that closes the socket).
    ws_messages_per_window: int = 20

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.env == "production":
            if len(self.secret_key) < 32:
                raise ValueError("production needs SECRET_KEY of at least 32 characters")
            if self.cookie_secure is False:
                raise ValueError("production refuses SALON_COOKIE_SECURE=false")
        return self

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data_dir / 'salon.db'}"

    @property
    def database_kind(self) -> str:
        url = self.resolved_database_url
        return "postgresql" if url.startswith("postgresql") else url.split(":", 1)[0].split("+")[0]

    def resolved_secret_key(self) -> str:
        """The configured key, or in development one generated once and kept under data_dir."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / SECRET_KEY_FILE
        if path.exists():
            return path.read_text().strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        path.touch(mode=0o600)
        path.write_text(key)
        return key


@lru_cache
def get_settings() -> Settings:
    return Settings()
