"""the admins' audit log (append-only, enforced by the database) and chat moderation

`admin_actions` keeps one row per admin action. Triggers refuse every UPDATE and DELETE on
it (and TRUNCATE on Postgres), so a row once written stays as it was, whatever the code
does. Chat lines can be removed by an admin (`removed_at`, `removed_by_id`); members can be
muted until a time (`chat_mutes`).

Revision ID: 0008
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = "admin_actions is append-only: its rows cannot be changed or deleted"

POSTGRES_UP = (
    f"""
    CREATE FUNCTION admin_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{APPEND_ONLY} (% refused)', TG_OP
            USING ERRCODE = 'insufficient_privilege';
    END
    $$
    """,
    """
    CREATE TRIGGER admin_actions_no_change BEFORE UPDATE OR DELETE ON admin_actions
    FOR EACH ROW EXECUTE FUNCTION admin_actions_append_only()
    """,
    """
    CREATE TRIGGER admin_actions_no_truncate BEFORE TRUNCATE ON admin_actions
    FOR EACH STATEMENT EXECUTE FUNCTION admin_actions_append_only()
    """,
)

SQLITE_UP = tuple(
    f"""
    CREATE TRIGGER admin_actions_no_{verb.lower()} BEFORE {verb} ON admin_actions
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END
    """
    for verb in ("UPDATE", "DELETE")
)


def upgrade() -> None:
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("target_kind", sa.String(length=20), nullable=False),
        sa.Column("target_id", sa.String(length=64), nullable=False),
        sa.Column("target_label", sa.String(length=100), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["users.id"], name=op.f("fk_admin_actions_actor_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
    )
    op.create_index(op.f("ix_admin_actions_actor_id"), "admin_actions", ["actor_id"])
    op.create_index(op.f("ix_admin_actions_action"), "admin_actions", ["action"])
    op.create_index(op.f("ix_admin_actions_created_at"), "admin_actions", ["created_at"])
    op.create_index("ix_admin_actions_target", "admin_actions", ["target_kind", "target_id"])
    statements = POSTGRES_UP if op.get_bind().dialect.name == "postgresql" else SQLITE_UP
    for statement in statements:
        op.execute(statement)

    op.create_table(
        "chat_mutes",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("muted_until", sa.DateTime(), nullable=False),
        sa.Column("muted_by_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chat_mutes_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["muted_by_id"], ["users.id"], name=op.f("fk_chat_mutes_muted_by_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_chat_mutes")),
    )

    # Nothing points at chat_messages, so SQLite's batch copy of it is safe.
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("removed_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("removed_by_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_chat_messages_removed_by_id_users"), "users", ["removed_by_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_chat_messages_removed_by_id_users"), type_="foreignkey"
        )
        batch_op.drop_column("removed_by_id")
        batch_op.drop_column("removed_at")
    op.drop_table("chat_mutes")
    # Dropping the table drops its triggers (on both databases); the function goes after.
    op.drop_table("admin_actions")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION admin_actions_append_only()")
