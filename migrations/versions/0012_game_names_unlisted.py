"""the database no longer lists the games: the registry does

`game_tables.game` and `rulesets.game` were checked against the two games Salon dealt, so a
third game would have needed a migration. The application refuses a game the registry does
not know (``unknown_game``) before anything is written; the columns keep their type.

Postgres drops a CHECK constraint in place. SQLite cannot, and a batch copy of
`game_tables` is refused: dropping the old table under `PRAGMA foreign_keys=ON` (which
cannot be switched off inside the migration's transaction) breaks the foreign keys of the
seats, hands and chat lines that point to it. SQLite's documented procedure for removing a
CHECK constraint is used instead: the table's definition is rewritten in `sqlite_master`,
the schema version bumped so that every connection reads it again, and the result checked.

Revision ID: 0012
Revises: 0011
"""

import re
from collections.abc import Callable, Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The check as 0002 and 0007 wrote it, for the downgrade.
GAMES_LISTED = "game IN ('bourre', 'bouillotte')"
CHECKS = {
    "game_tables": "ck_game_tables_game_known",
    "rulesets": "ck_rulesets_game_known",
}


def upgrade() -> None:
    for table, check in CHECKS.items():
        if op.get_bind().dialect.name == "sqlite":
            _rewrite_sqlite_table(table, lambda sql, check=check: _without(sql, check))
        else:
            op.drop_constraint(op.f(check), table, type_="check")


def downgrade() -> None:
    for table, check in CHECKS.items():
        if op.get_bind().dialect.name == "sqlite":
            _rewrite_sqlite_table(table, lambda sql, check=check: _with(sql, check))
        else:
            op.create_check_constraint(op.f(check), table, GAMES_LISTED)


def _without(sql: str, check: str) -> str:
    # The clause and the comma before it: right wherever the clause stands in the list.
    found = re.compile(rf",\s*CONSTRAINT {check} CHECK \(game IN \([^()]*\)\)")
    rewritten, count = found.subn("", sql)
    if count != 1:
        raise RuntimeError(f"{check}: expected once in the table's definition, found {count}")
    return rewritten


def _with(sql: str, check: str) -> str:
    body, closing, _ = sql.rpartition(")")
    if not closing:
        raise RuntimeError(f"{check}: the table's definition has no closing parenthesis")
    return f"{body.rstrip()}, \n\tCONSTRAINT {check} CHECK ({GAMES_LISTED})\n)"


def _rewrite_sqlite_table(table: str, change: Callable[[str], str]) -> None:
    """SQLite's own recipe (sqlite.org/lang_altertable.html, "other kinds of table schema
    changes") for removing or adding a CHECK constraint, within the current transaction."""
    bind = op.get_bind()
    sql = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).scalar_one()
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql(
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
        (change(sql), table),
    )
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")
    # The table alone (its rows against its CHECKs), not the whole file: hands are many.
    problems = bind.exec_driver_sql(f"PRAGMA quick_check({table})").scalars().all()
    if problems != ["ok"]:
        raise RuntimeError(f"{table}: the rewritten schema fails SQLite's check: {problems}")
