"""The setup mistakes an operator makes first, each turned into one sentence saying what to do.

A command that cannot start because of its setup (settings, database) raises `SetupProblem`;
`salon` prints its sentence and exits with status 2 instead of a traceback.
"""

from __future__ import annotations

import asyncio
import sqlite3
import ssl
from pathlib import Path

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from app.config import Settings

CONNECT_TIMEOUT_SECONDS = 5.0


class SetupProblem(Exception):
    """A setup mistake, with the sentence that tells the operator what to do."""


def _where(url: str) -> str:
    parsed = make_url(url)
    return f"{parsed.host or 'localhost'}:{parsed.port or 5432}"


def _postgres_problem(url: str, error: BaseException) -> SetupProblem | None:
    parsed = make_url(url)
    where = _where(url)
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return SetupProblem(
            f"The database {parsed.database!r} does not exist on {where}: create it "
            f"(createdb {parsed.database}) or correct the name in DATABASE_URL."
        )
    if isinstance(
        error, asyncpg.InvalidAuthorizationSpecificationError | asyncpg.InvalidPasswordError
    ):
        return SetupProblem(
            f"The database server at {where} refused user {parsed.username!r}: check the user "
            "and password in DATABASE_URL."
        )
    if isinstance(error, ssl.SSLCertVerificationError):
        return SetupProblem(
            f"The database server at {where} presented a certificate that DATABASE_URL's "
            f"TLS settings do not trust ({error.verify_message}): give the authority that "
            "signed it in sslrootcert=, or correct the host or sslmode in DATABASE_URL."
        )
    if isinstance(error, ConnectionError) and "rejected SSL upgrade" in str(error):
        return SetupProblem(
            f"The database server at {where} does not offer TLS, which DATABASE_URL's sslmode "
            "requires: enable ssl on the server, or set sslmode=disable (or prefer) in "
            "DATABASE_URL."
        )
    if isinstance(error, OSError | TimeoutError):
        if isinstance(error, TimeoutError):
            reason = "no answer"
        elif isinstance(error, ConnectionRefusedError):
            reason = "connection refused"
        else:
            reason = error.strerror or str(error)
        return SetupProblem(
            f"Cannot reach the database server at {where} ({reason}): start it, or set "
            "DATABASE_URL to a server that is running."
        )
    return None


async def _postgres_check(url: str) -> None:
    from app.db.session import postgres_connection

    try:
        bare, tls = postgres_connection(url)
    except ValueError as error:  # a certificate file of DATABASE_URL's that cannot be used
        raise SetupProblem(f"{error}.") from None
    dsn = bare.replace("postgresql+asyncpg://", "postgresql://", 1)
    try:
        connection = await asyncpg.connect(dsn, ssl=tls, timeout=CONNECT_TIMEOUT_SECONDS)
    except (asyncpg.PostgresError, OSError, TimeoutError) as error:
        problem = _postgres_problem(url, error)
        if problem is None:
            raise
        raise problem from None
    await connection.close()


def sqlite_path(url: str) -> Path | None:
    """The SQLite file of `url` (None: not SQLite, or in memory)."""
    if not url.startswith("sqlite"):
        return None
    database = make_url(url).database
    return Path(database) if database and database != ":memory:" else None


def check_reachable(settings: Settings) -> None:
    """The database server answers and the database exists (SQLite: its folder can hold it,
    and this process may write both)."""
    url = settings.resolved_database_url
    if url.startswith("postgresql"):
        asyncio.run(_postgres_check(url))
        return
    from app.commands.data_folder import check_sqlite_writable

    path = sqlite_path(url)
    if path is None:
        return
    if not path.parent.is_dir():
        raise SetupProblem(
            f"The folder {path.parent} for the SQLite database does not exist: create it, or "
            "set SALON_DATA_DIR (or DATABASE_URL) to a folder that does."
        )
    check_sqlite_writable(path)


async def _schema_revision(url: str) -> str | None:
    from app.db.session import Database

    db = Database(url, null_pool=True)
    try:
        async with db.engine.connect() as connection:
            row = await connection.execute(text("SELECT version_num FROM alembic_version"))
            return row.scalar_one_or_none()
    except DBAPIError as error:
        if "alembic_version" in str(error.orig):  # no such table: never migrated
            return None
        if isinstance(error.orig, sqlite3.Error):
            raise SetupProblem(
                f"Cannot read the SQLite database at {sqlite_path(url)} ({error.orig}): "
                "restore it from a backup, or point SALON_DATA_DIR (or DATABASE_URL) at "
                "Salon's database."
            ) from None
        raise
    finally:
        await db.dispose()


def check_migrated(settings: Settings) -> None:
    """The database holds Salon's newest schema (else: run `salon migrate`)."""
    from alembic.script import ScriptDirectory

    from app.db.migrate import alembic_config

    url = settings.resolved_database_url
    path = sqlite_path(url) if url.startswith("sqlite") else None
    if path is not None and not path.exists():
        raise SetupProblem(
            f"There is no database at {path} yet: run `salon migrate` first "
            "(and `salon demo` for a demo club)."
        )
    check_reachable(settings)
    heads = set(ScriptDirectory.from_config(alembic_config(url)).get_heads())
    revision = asyncio.run(_schema_revision(url))
    if revision is None:
        raise SetupProblem(
            "The database has no Salon tables yet: run `salon migrate` first "
            "(and `salon demo` for a demo club)."
        )
    if revision not in heads:
        raise SetupProblem(
            f"The database's schema ({revision}) is not this version's newest: run "
            "`salon migrate` to upgrade it."
        )


def check_redis(settings: Settings) -> None:
    """Redis answers at REDIS_URL (several processes cannot serve the club without it)."""
    from urllib.parse import urlsplit

    from redis.asyncio import Redis
    from redis.exceptions import AuthenticationError, RedisError

    url = str(settings.redis_url)
    try:
        parts = urlsplit(url)
        where = f"{parts.hostname or 'localhost'}:{parts.port or 6379}"
    except ValueError:
        raise SetupProblem(f"REDIS_URL is not a URL Redis understands: {url!r}.") from None

    async def ping() -> None:
        client = Redis.from_url(url, socket_connect_timeout=3)
        try:
            await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except AuthenticationError:
        raise SetupProblem(
            f"Redis at {where} refused the credentials in REDIS_URL: correct them."
        ) from None
    except (RedisError, OSError, ValueError):
        raise SetupProblem(
            f"Cannot reach Redis at {where} (REDIS_URL): start it, correct REDIS_URL, or "
            "unset it to run a single process."
        ) from None
