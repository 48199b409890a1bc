"""DATABASE_URL as libpq's tools read it: every part of the connection in PG* variables (the
password too, never on a command line), TLS in libpq's words whichever spelling the URL used."""

from __future__ import annotations

import pytest

from app.config import async_database_url
from app.db.libpq import libpq_environment, libpq_url


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "postgresql://club:p%40ss@db.example.org:6543/salon?sslmode=verify-full",
            {
                "PGHOST": "db.example.org",
                "PGPORT": "6543",
                "PGUSER": "club",
                "PGPASSWORD": "p@ss",
                "PGDATABASE": "salon",
                "PGSSLMODE": "verify-full",
            },
        ),
        (
            "postgres://club@db.example.org/salon?sslmode=require&sslrootcert=/etc/ca.pem",
            {
                "PGHOST": "db.example.org",
                "PGUSER": "club",
                "PGDATABASE": "salon",
                "PGSSLMODE": "require",
                "PGSSLROOTCERT": "/etc/ca.pem",
            },
        ),
        # A local server without a word of TLS: reached without it, as the app reaches it.
        (
            "postgresql://postgres@127.0.0.1/salon",
            {
                "PGHOST": "127.0.0.1",
                "PGUSER": "postgres",
                "PGDATABASE": "salon",
                "PGSSLMODE": "disable",
            },
        ),
        (
            "postgresql://salon@/salon?host=/var/run/postgresql",
            {
                "PGHOST": "/var/run/postgresql",
                "PGUSER": "salon",
                "PGDATABASE": "salon",
                "PGSSLMODE": "disable",
            },
        ),
        # A remote server without a word of TLS: libpq's own default (prefer).
        (
            "postgresql://salon@db.example.org/salon",
            {"PGHOST": "db.example.org", "PGUSER": "salon", "PGDATABASE": "salon"},
        ),
    ],
)
def test_the_url_becomes_libpq_variables(url: str, expected: dict[str, str]) -> None:
    assert libpq_environment(async_database_url(url), base={}) == expected


def test_asyncpg_ssl_spellings_become_libpq_modes() -> None:
    assert (
        libpq_environment("postgresql+asyncpg://u@h/d?ssl=true", base={})["PGSSLMODE"] == "require"
    )
    assert (
        libpq_environment("postgresql+asyncpg://u@h/d?ssl=false", base={})["PGSSLMODE"] == "disable"
    )
    assert libpq_url("postgresql+asyncpg://u:pw@h:5433/d?ssl=verify-ca") == (
        "postgresql://u:pw@h:5433/d?sslmode=verify-ca"
    )


def test_an_unknown_ssl_mode_is_named() -> None:
    with pytest.raises(ValueError, match="sslmode 'sometimes'"):
        libpq_environment("postgresql+asyncpg://u@h/d?sslmode=sometimes", base={})


def test_the_rest_of_the_environment_is_kept() -> None:
    env = libpq_environment("postgresql+asyncpg://u@h/d", base={"PATH": "/usr/bin"})
    assert env["PATH"] == "/usr/bin" and "PGPASSWORD" not in env
