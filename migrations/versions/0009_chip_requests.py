"""chip requests: a member asks the club for chips, an admin approves or declines

Revision ID: 0009
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chip_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("decided_by_id", sa.Integer(), nullable=True),
        sa.Column("answer", sa.String(length=200), nullable=False),
        sa.Column("operation_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("amount > 0", name=op.f("ck_chip_requests_amount_positive")),
        sa.CheckConstraint(
            "status IN ('pending', 'approved', 'declined')",
            name=op.f("ck_chip_requests_status_known"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chip_requests_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["decided_by_id"], ["users.id"], name=op.f("fk_chip_requests_decided_by_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["operation_id"],
            ["ledger_operations.id"],
            name=op.f("fk_chip_requests_operation_id_ledger_operations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chip_requests")),
    )
    op.create_index(op.f("ix_chip_requests_user_id"), "chip_requests", ["user_id"])
    op.create_index("ix_chip_requests_status_id", "chip_requests", ["status", "id"])


def downgrade() -> None:
    op.drop_index("ix_chip_requests_status_id", table_name="chip_requests")
    op.drop_index(op.f("ix_chip_requests_user_id"), table_name="chip_requests")
    op.drop_table("chip_requests")
