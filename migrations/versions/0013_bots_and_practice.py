"""computer players and practice tables

A member row may be a computer player (`users.bot_level`: its level of play, or NULL for a
person). A table may be a practice table (`game_tables.practice`: play money, never the
club's chips) and may fill its empty seats with computer players (`game_tables.bot_fill`:
their level, or NULL); a seat a bot took to fill the table says so (`table_seats.filled`).
Play money has accounts of its own kinds: `play_bank` (where it comes from; the only one
besides the club's bank allowed below zero), `play_seat` and `play_pot`; the club's chips
in circulation never include them.

The accounts' two CHECK constraints change. Postgres replaces them in place; SQLite cannot,
so its table definition is rewritten by SQLite's documented procedure (as in 0012).

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_CHECKS = {
    "ck_accounts_kind_known": "kind IN ('bank', 'member', 'seat', 'pot')",
    "ck_accounts_no_overdraft": "kind = 'bank' OR balance >= 0",
}
NEW_CHECKS = {
    "ck_accounts_kind_known": (
        "kind IN ('bank', 'member', 'seat', 'pot', 'play_bank', 'play_seat', 'play_pot')"
    ),
    "ck_accounts_no_overdraft": "kind IN ('bank', 'play_bank') OR balance >= 0",
}


def upgrade() -> None:
    op.add_column("users", sa.Column("bot_level", sa.String(length=10), nullable=True))
    op.add_column(
        "game_tables",
        sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("game_tables", sa.Column("bot_fill", sa.String(length=10), nullable=True))
    op.add_column(
        "table_seats",
        sa.Column("filled", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    _replace_checks(OLD_CHECKS, NEW_CHECKS)


def downgrade() -> None:
    _replace_checks(NEW_CHECKS, OLD_CHECKS)
    with op.batch_alter_table("table_seats") as batch:
        batch.drop_column("filled")
    op.drop_column("game_tables", "bot_fill")
    op.drop_column("game_tables", "practice")
    op.drop_column("users", "bot_level")


def _replace_checks(old: dict[str, str], new: dict[str, str]) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        for name, condition in new.items():
            op.drop_constraint(op.f(name), "accounts", type_="check")
            op.create_check_constraint(op.f(name), "accounts", condition)
        return
    sql = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'accounts'"
    ).scalar_one()
    for name, condition in old.items():
        clause = f"CONSTRAINT {name} CHECK ({condition})"
        if sql.count(clause) != 1:
            raise RuntimeError(f"{name}: expected once in the accounts' definition")
        sql = sql.replace(clause, f"CONSTRAINT {name} CHECK ({new[name]})")
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql(
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'accounts'", (sql,)
    )
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")
    problems = bind.exec_driver_sql("PRAGMA quick_check(accounts)").scalars().all()
    if problems != ["ok"]:
        raise RuntimeError(f"accounts: the rewritten schema fails SQLite's check: {problems}")
