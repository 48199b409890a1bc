"""Settings read from the environment (pydantic-settings).

Every setting has a safe development default so that `make run` works on a fresh machine;
production mode (`SALON_ENV=production`) refuses the defaults that are only safe locally.
Every setting is bounded (numbers from a least to a most, words from a list or a pattern):
a value that would lock everyone out or stall the tables is refused at start-up, in a
sentence naming its environment variable (app/commands/setting_errors.py) — a test goes
through every field. docs/configuration.md lists them.
"""

from __future__ import annotations

import ipaddress
import json
import re
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.db.tls import split_tls
from app.monitoring.access import network_list
from app.security.passwords import Hashing

SECRET_KEY_FILE = "secret_key"  # noqa: S105 (a file name, not a secret)

# The schemes hosts print, each with the async driver Salon talks through.
_DRIVERS = {
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
    "sqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
}


def proxy_list(value: str) -> list[str]:
    return [entry.strip() for entry in value.split(",") if entry.strip()]


# A bearer token as HTTP carries it: visible ASCII, no spaces; long enough not to be guessed.
_METRICS_TOKEN = re.compile(r"^[!-~]{16,256}$")

# What a browser sends as its Origin header: a scheme, a host and perhaps a port, no path.
_ORIGIN = re.compile(r"^https?://[^/\s?#]+$")

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
SECRET_KEY_MIN_LENGTH = 32
_SECRET_KEY_EXAMPLE = "`python3 -c 'import secrets; print(secrets.token_urlsafe(48))'`"  # noqa: S105 (how to make one)


def origin_list(value: Any) -> list[str]:
    """SALON_ALLOWED_ORIGINS as operators write it: comma-separated, or a JSON list. A
    trailing slash is dropped (browsers never send one, so the origin would never match);
    anything that is not an origin is refused in a sentence."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                raise ValueError(
                    "SALON_ALLOWED_ORIGINS is not a valid JSON list: write the origins "
                    "comma-separated, e.g. https://cards.example.org,http://127.0.0.1:8080"
                ) from None
        else:
            value = text.split(",")
    if not isinstance(value, list):
        raise ValueError("SALON_ALLOWED_ORIGINS must be a list of origins")
    origins = [str(entry).strip().rstrip("/") for entry in value if str(entry).strip()]
    for origin in origins:
        if not _ORIGIN.match(origin):
            raise ValueError(
                f"SALON_ALLOWED_ORIGINS lists {origin!r}, which is not an origin: give each "
                "site as a browser names it (scheme, host and port, no path), "
                "comma-separated, e.g. https://cards.example.org,http://127.0.0.1:8080"
            )
    return origins


def async_database_url(url: str) -> str:
    """`url` with the driver Salon uses: `postgres://` and `postgresql://` (what hosting
    panels print) become `postgresql+asyncpg://`, `sqlite:///` becomes `sqlite+aiosqlite:///`.
    Its TLS mode (`sslmode=`, `ssl=`, app/db/tls.py) is checked here; the certificate files
    it names are read when it is connected to. Any other scheme is refused with a sentence."""
    scheme, separator, rest = url.partition("://")
    driver = _DRIVERS.get(scheme.lower())
    if not separator or driver is None:
        raise ValueError(
            "DATABASE_URL must start with postgresql:// (or postgres://) or sqlite:///, "
            f"not {scheme + separator if separator else repr(url)}"
        )
    if driver.startswith("postgresql"):
        split_tls(f"{driver}://{rest}")  # a sentence if its TLS mode is wrong
    return f"{driver}://{rest}"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SALON_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    data_dir: Path = Field(default=Path("var"), description="a folder (created if missing)")
    database_url: str = Field(
        default="",
        validation_alias=AliasChoices("DATABASE_URL", "SALON_DATABASE_URL"),
        description="SQLAlchemy async URL; empty means the embedded SQLite file under data_dir.",
    )
    secret_key: str = Field(
        default="",
        validation_alias=AliasChoices("SECRET_KEY", "SALON_SECRET_KEY"),
    )
    host: str = Field(
        default="127.0.0.1",
        pattern=r"^[A-Za-z0-9._:%-]{1,253}$",
        description="an address of this machine or a host name, e.g. 127.0.0.1, 0.0.0.0 or ::",
    )
    port: int = Field(default=8000, ge=1, le=65535)
    # Origins allowed to post forms/JSON with a session cookie and to open WebSockets.
    allowed_origins: Annotated[list[str], NoDecode] = [
        "http://127.0.0.1:8000",
        "http://localhost:8000",
    ]
    # None: decide from the request (Secure when served over HTTPS).
    cookie_secure: bool | None = None
    # Addresses of the reverse proxies whose X-Forwarded-Proto / X-Forwarded-For are believed
    # (comma-separated IPs or networks, "*" for any): behind one, the request's scheme is the
    # one the browser used, so cookies get `Secure` over HTTPS. Empty: believe no one.
    trusted_proxies: str = "127.0.0.1"
    session_days: int = Field(default=14, ge=1, le=365)
    # Login throttling (app/security/login_throttle.py), wrong passwords per window: from one
    # address against one account (and from all addresses against one account, after which
    # only the addresses that have not failed against it may try), and from one address in all.
    login_max_failures: int = Field(default=10, ge=1, le=1000)
    login_max_failures_per_address: int = Field(default=30, ge=1, le=100_000)
    login_window_seconds: int = Field(default=300, ge=1, le=86_400)
    # Postgres connections kept open for the whole process (no overflow: connections that
    # open and close under load cost a handshake and their prepared statements each time).
    db_pool_size: int = Field(default=20, ge=1, le=1000)
    # Argon2id's cost (app/security/passwords.py): "standard" (RFC 9106, 64 MiB) or
    # "fast-insecure", for test suites only: production refuses it.
    argon2_profile: Hashing = "standard"
    # Postgres: answer a commit before it is on disk (`synchronous_commit = off`; off by
    # default). A database or machine crash may then forget the last ~600 ms of commits —
    # accepted actions and settled hands — never half of one; a crash of Salon loses
    # nothing. docs/performance.md, "Durability".
    db_async_commit: bool = False
    # After start-up, move every object alive then (modules, templates, the tables loaded)
    # out of the collector's sight, and collect young objects less often: its pauses then
    # scan only what play creates, and seldom.
    gc_freeze: bool = True
    # Pause between the end of a hand and the next deal (seconds).
    next_hand_seconds: float = Field(default=4.0, ge=0, le=120)
    # Before a hand when play starts or starts again (a table filling, after a pause or a
    # spell without enough players): the time latecomers have to sit down. A table may set
    # its own; its seated players may cut it with "Deal now".
    gathering_seconds: float = Field(default=12.0, ge=0, le=120)
    # How long a computer player takes over a decision: uniformly between the two.
    bot_think_min_seconds: float = Field(default=0.8, ge=0, le=30)
    bot_think_max_seconds: float = Field(default=2.0, ge=0, le=30)
    # Table sockets: messages allowed per 2-second window (three times that closes the socket).
    ws_messages_per_window: int = Field(default=20, ge=1, le=1_000_000)
    # Table sockets' liveness: each end pings the other this often, and takes the connection
    # for lost when nothing came back this long after a ping — so a frozen or cut-off server
    # is left by its pages, and a frozen or cut-off browser is shown offline, within seconds
    # rather than when TCP gives up (app/ws/endpoint.py says which ping each end uses).
    ws_ping_seconds: float = Field(default=10.0, gt=0, le=120)
    ws_ping_timeout_seconds: float = Field(default=5.0, gt=0, le=120)
    # Several processes serving one club (app/cluster): Redis coordinates them. Unset: one
    # process owns every table, as on the embedded database.
    redis_url: str | None = Field(
        default=None, validation_alias=AliasChoices("REDIS_URL", "SALON_REDIS_URL")
    )
    # Every Redis key starts with this, so clubs (or test runs) can share one Redis.
    redis_prefix: str = Field(
        default="salon",
        pattern=r"^[A-Za-z0-9_.-]{1,40}$",
        description="1 to 40 letters, digits, '_', '.' or '-'",
    )
    # A table's lease: a dead process's tables move to another within about this long.
    lease_seconds: float = Field(default=3.0, ge=0.5, le=60)
    # Password-reset links (docs/lost-passwords.md): how long a link made by an admin or by
    # `salon reset-password` stays usable, from one second to seven days (a day by default).
    # Links that are unknown, used or expired count against the address that tried them as
    # wrong passwords do (SALON_LOGIN_MAX_FAILURES_PER_ADDRESS per SALON_LOGIN_WINDOW_SECONDS).
    password_reset_seconds: int = Field(default=86_400, ge=1, le=7 * 86_400)

    @field_validator("data_dir", mode="before")
    @classmethod
    def _a_folder(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise ValueError("SALON_DATA_DIR is empty: give a folder, e.g. /var/lib/salon")
        return value

    # Monitoring (docs/monitoring.md). /metrics answers a bearer token (empty: no token is
    # accepted; else 16 to 256 visible characters) or a scraper in these networks
    # (comma-separated addresses or networks; empty: none), seen through SALON_TRUSTED_PROXIES.
    metrics_token: str = ""
    metrics_networks: str = "127.0.0.1,::1"
    # Log lines: "text" for people, "json" (one object a line) for log shippers.
    log_format: Literal["text", "json"] = "text"

    @field_validator("database_url")
    @classmethod
    def _with_async_driver(cls, url: str) -> str:
        return async_database_url(url) if url else url

    @field_validator("secret_key")
    @classmethod
    def _long_enough(cls, key: str) -> str:
        if key and len(key) < SECRET_KEY_MIN_LENGTH:
            raise ValueError(
                f"SECRET_KEY is {len(key)} characters long: it accepts a random string of at "
                f"least {SECRET_KEY_MIN_LENGTH} characters, e.g. the output of "
                f"{_SECRET_KEY_EXAMPLE}"
            )
        return key

    @field_validator("redis_url")
    @classmethod
    def _a_redis_url(cls, url: str | None) -> str | None:
        if url and not url.startswith(_REDIS_SCHEMES):
            scheme = url.partition("://")[0] + "://" if "://" in url else repr(url)
            raise ValueError(
                "REDIS_URL must start with redis://, rediss:// or unix:// (a Redis server's "
                f"address, e.g. redis://127.0.0.1:6379/0), not {scheme}"
            )
        return url

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> list[str]:
        return origin_list(value)

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_addresses(cls, value: str) -> str:
        for entry in proxy_list(value):
            if entry == "*":
                continue
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(
                    f"SALON_TRUSTED_PROXIES lists {entry!r}, which is not an IP address or "
                    "network: give the proxies' addresses, comma-separated, e.g. 10.0.0.5,"
                    "172.18.0.0/16"
                ) from None
        return value

    @field_validator("metrics_token")
    @classmethod
    def _metrics_token(cls, value: str) -> str:
        if value and not _METRICS_TOKEN.match(value):
            raise ValueError(
                "SALON_METRICS_TOKEN must be empty (no token accepted) or 16 to 256 visible "
                "characters without spaces, e.g. the output of "
                "`python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`"
            )
        return value

    @field_validator("metrics_networks")
    @classmethod
    def _metrics_networks(cls, value: str) -> str:
        network_list(value)  # refuses what is not an address or network, naming it
        return value

    @property
    def trusted_proxy_list(self) -> list[str]:
        return proxy_list(self.trusted_proxies)

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.bot_think_min_seconds > self.bot_think_max_seconds:
            raise ValueError(
                f"SALON_BOT_THINK_MIN_SECONDS ({self.bot_think_min_seconds:g}) is more than "
                f"SALON_BOT_THINK_MAX_SECONDS ({self.bot_think_max_seconds:g}): the least "
                "time a computer player takes must not exceed the most"
            )
        if self.env == "production":
            if not self.secret_key:
                raise ValueError(
                    "production needs SECRET_KEY: set it to a random string of at least "
                    f"{SECRET_KEY_MIN_LENGTH} characters, e.g. the output of "
                    f"{_SECRET_KEY_EXAMPLE}"
                )
            if self.cookie_secure is False:
                raise ValueError("production refuses SALON_COOKIE_SECURE=false")
            if self.argon2_profile != "standard":
                raise ValueError("production refuses SALON_ARGON2_PROFILE=fast-insecure")
        if self.redis_url and not self.resolved_database_url.startswith("postgresql"):
            raise ValueError(
                "REDIS_URL is set, but several processes can only share a PostgreSQL "
                "database: set DATABASE_URL to one, or unset REDIS_URL to run one process"
            )
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
