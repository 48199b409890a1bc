"""tables, seats, hands, actions, chat

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "game_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("game", sa.String(length=12), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seat_count", sa.Integer(), nullable=False),
        sa.Column("buy_in_min", sa.BigInteger(), nullable=False),
        sa.Column("buy_in_max", sa.BigInteger(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_code", sa.String(length=32), nullable=True),
        sa.Column("allow_spectators", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("session_state", sa.JSON(), nullable=False),
        sa.Column("hands_played", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint(
            "game IN ('bourre', 'bouillotte')", name=op.f("ck_game_tables_game_known")
        ),
        sa.CheckConstraint(
            "status IN ('open', 'paused', 'closed')", name=op.f("ck_game_tables_status_known")
        ),
        sa.CheckConstraint(
            "buy_in_min >= 1 AND buy_in_min <= buy_in_max", name=op.f("ck_game_tables_buy_in_range")
        ),
        sa.CheckConstraint(
            "seat_count BETWEEN 2 AND 8", name=op.f("ck_game_tables_seat_count_range")
        ),
        sa.CheckConstraint(
            "turn_seconds BETWEEN 5 AND 600", name=op.f("ck_game_tables_turn_seconds_range")
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"], name=op.f("fk_game_tables_created_by_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_tables")),
        sa.UniqueConstraint("invite_code", name=op.f("uq_game_tables_invite_code")),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name=op.f("fk_chat_messages_table_id_game_tables")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chat_messages_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_messages_table_id"), ["table_id"], unique=False)

    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("header", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("running", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name=op.f("fk_hands_table_id_game_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
    )
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hands_running"), ["running"], unique=False)
        batch_op.create_index(batch_op.f("ix_hands_table_id"), ["table_id"], unique=False)

    op.create_table(
        "table_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("sitting_out", sa.Boolean(), nullable=False),
        sa.Column("leaving", sa.Boolean(), nullable=False),
        sa.Column("timed_out_hands", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name=op.f("fk_table_seats_table_id_game_tables")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_table_seats_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_seats")),
        sa.UniqueConstraint("table_id", "seat_no", name="uq_table_seats_table_seat"),
        sa.UniqueConstraint("table_id", "user_id", name="uq_table_seats_table_user"),
    )
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_table_seats_table_id"), ["table_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_table_seats_user_id"), ["user_id"], unique=False)

    op.create_table(
        "hand_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("table_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_hand_actions_hand_id_hands")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_hand_actions_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_actions")),
        sa.UniqueConstraint("hand_id", "seq", name="uq_hand_actions_hand_seq"),
    )
    with op.batch_alter_table("hand_actions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_actions_hand_id"), ["hand_id"], unique=False)

    with op.batch_alter_table("club", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "members_may_create_tables", sa.Boolean(), nullable=False, server_default=sa.false()
            )
        )


def downgrade() -> None:

    with op.batch_alter_table("club", schema=None) as batch_op:
        batch_op.drop_column("members_may_create_tables")

    with op.batch_alter_table("hand_actions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_actions_hand_id"))

    op.drop_table("hand_actions")
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_table_seats_user_id"))
        batch_op.drop_index(batch_op.f("ix_table_seats_table_id"))

    op.drop_table("table_seats")
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hands_table_id"))
        batch_op.drop_index(batch_op.f("ix_hands_running"))

    op.drop_table("hands")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_messages_table_id"))

    op.drop_table("chat_messages")
    op.drop_table("game_tables")
