"""initial schema: club, members, sessions, invites, ledger

Revision ID: 0001
Revises:
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "club",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("chip_unit", sa.String(length=20), nullable=False),
        sa.Column("signup_requires_approval", sa.Boolean(), nullable=False),
        sa.Column("default_turn_seconds", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "default_turn_seconds BETWEEN 5 AND 600", name=op.f("ck_club_turn_seconds_range")
        ),
        sa.CheckConstraint("id = 1", name=op.f("ck_club_single_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("display_name", sa.String(length=40), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "role IN ('owner', 'admin', 'member')", name=op.f("ck_users_role_known")
        ),
        sa.CheckConstraint(
            "status IN ('pending', 'active', 'banned')", name=op.f("ck_users_status_known")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("username", name=op.f("uq_users_username")),
    )
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("kind = 'bank' OR balance >= 0", name=op.f("ck_accounts_no_overdraft")),
        sa.CheckConstraint(
            "kind IN ('bank', 'member', 'seat', 'pot')", name=op.f("ck_accounts_kind_known")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_accounts_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("key", name=op.f("uq_accounts_key")),
    )
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_accounts_user_id"), ["user_id"], unique=False)

    op.create_table(
        "auth_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf_token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_auth_sessions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_auth_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_auth_sessions_token_hash")),
    )
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_auth_sessions_user_id"), ["user_id"], unique=False)

    op.create_table(
        "invites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=False),
        sa.Column("max_uses", sa.Integer(), nullable=False),
        sa.Column("uses", sa.Integer(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("max_uses >= 1", name=op.f("ck_invites_max_uses_positive")),
        sa.CheckConstraint(
            "uses >= 0 AND uses <= max_uses", name=op.f("ck_invites_uses_within_max")
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"], name=op.f("fk_invites_created_by_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invites")),
        sa.UniqueConstraint("code", name=op.f("uq_invites_code")),
    )
    op.create_table(
        "ledger_operations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("idempotency_key", sa.String(length=128), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["users.id"], name=op.f("fk_ledger_operations_actor_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_operations")),
        sa.UniqueConstraint("idempotency_key", name=op.f("uq_ledger_operations_idempotency_key")),
    )
    with op.batch_alter_table("ledger_operations", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_ledger_operations_created_at"), ["created_at"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_ledger_operations_kind"), ["kind"], unique=False)

    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("operation_id", sa.Integer(), nullable=False),
        sa.Column("from_account_id", sa.Integer(), nullable=False),
        sa.Column("to_account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount > 0", name=op.f("ck_ledger_entries_amount_positive")),
        sa.CheckConstraint(
            "from_account_id <> to_account_id", name=op.f("ck_ledger_entries_distinct_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["from_account_id"],
            ["accounts.id"],
            name=op.f("fk_ledger_entries_from_account_id_accounts"),
        ),
        sa.ForeignKeyConstraint(
            ["operation_id"],
            ["ledger_operations.id"],
            name=op.f("fk_ledger_entries_operation_id_ledger_operations"),
        ),
        sa.ForeignKeyConstraint(
            ["to_account_id"],
            ["accounts.id"],
            name=op.f("fk_ledger_entries_to_account_id_accounts"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
    )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_ledger_entries_from_account_id"), ["from_account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_ledger_entries_operation_id"), ["operation_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_ledger_entries_to_account_id"), ["to_account_id"], unique=False
        )


def downgrade() -> None:

    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_entries_to_account_id"))
        batch_op.drop_index(batch_op.f("ix_ledger_entries_operation_id"))
        batch_op.drop_index(batch_op.f("ix_ledger_entries_from_account_id"))

    op.drop_table("ledger_entries")
    with op.batch_alter_table("ledger_operations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_operations_kind"))
        batch_op.drop_index(batch_op.f("ix_ledger_operations_created_at"))

    op.drop_table("ledger_operations")
    op.drop_table("invites")
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_auth_sessions_user_id"))

    op.drop_table("auth_sessions")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_accounts_user_id"))

    op.drop_table("accounts")
    op.drop_table("users")
    op.drop_table("club")
