"""The configured PostgreSQL database as libpq's environment, for its own tools (`pg_dump`,
`pg_restore`, `psql`).

DATABASE_URL is read the way the app reads it (app/config.py turns it into SQLAlchemy's
asyncpg URL, where libpq's `sslmode=` may have become asyncpg's `ssl=`), and handed to the
tools as PG* environment variables: the password never appears on a command line, where
any user of the machine could read it in the process list.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from sqlalchemy.engine import make_url

from app.db.session import is_local

SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
# asyncpg's boolean spellings of `ssl=`, as libpq modes.
_SSL_BOOLEANS = {"true": "require", "1": "require", "false": "disable", "0": "disable"}
# Query parameters libpq also reads from the environment (certificates, a socket folder).
_QUERY_VARIABLES = {
    "host": "PGHOST",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "sslcrl": "PGSSLCRL",
}


def _first(query: Mapping[str, str | tuple[str, ...]], name: str) -> str | None:
    value = query.get(name)
    if isinstance(value, tuple):
        return value[0] if value else None
    return value


def ssl_mode(url: str) -> str | None:
    """libpq's `sslmode` for `url`: the one it names (`sslmode=` or asyncpg's `ssl=`);
    `disable` for a server on this machine when it names none, as the app connects to it
    (app/db/session.py); None (libpq's default, `prefer`) otherwise."""
    query = make_url(url).query
    named = _first(query, "sslmode") or _first(query, "ssl")
    if named is not None:
        mode = _SSL_BOOLEANS.get(named.lower(), named.lower())
        if mode not in SSL_MODES:
            raise ValueError(
                f"DATABASE_URL asks for sslmode {named!r}, which libpq does not know: use one "
                f"of {', '.join(SSL_MODES)}"
            )
        return mode
    return "disable" if is_local(url) else None


def libpq_environment(url: str, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) with the PG* variables that point
    libpq's tools at the database `url` names."""
    parsed = make_url(url)
    env = dict(os.environ if base is None else base)
    values = {
        "PGHOST": parsed.host,
        "PGPORT": str(parsed.port) if parsed.port else None,
        "PGUSER": parsed.username,
        "PGPASSWORD": parsed.password,
        "PGDATABASE": parsed.database,
        "PGSSLMODE": ssl_mode(url),
    }
    for name, variable in _QUERY_VARIABLES.items():
        value = _first(parsed.query, name)
        if value is not None:
            values[variable] = value
    env.update({name: value for name, value in values.items() if value})
    return env


def libpq_url(url: str) -> str:
    """`url` as a plain `postgresql://` connection URI with libpq's `sslmode=` (what
    asyncpg.connect and libpq both read), whatever spelling of TLS it came with."""
    parsed = make_url(url)
    query = {k: v for k, v in parsed.query.items() if k not in ("ssl", "sslmode")}
    mode = ssl_mode(url)
    if mode:
        query["sslmode"] = mode
    return parsed.set(drivername="postgresql", query=query).render_as_string(hide_password=False)
