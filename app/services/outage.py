"""What a failure of the database looks like to the table runtime, which reaches the
database only through the services: an error that says the database could not be reached
or could not write, as opposed to one refusing what was asked."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError


def is_storage_failure(error: BaseException) -> bool:
    """Whether `error` says the database could not be reached or could not write (a
    restarting server, a dropped connection, a full disk): SQLAlchemy wraps the drivers'
    errors (PostgreSQL's "disk full" and "shutting down" are operational errors; a dropped
    connection invalidates it); a connection refused or timed out may come through as the
    OS's own."""
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, (OperationalError, InterfaceError, OSError, TimeoutError))
