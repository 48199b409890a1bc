"""seatings get their own id; answers to idempotent seat requests are kept

Revision ID: 0003
Revises: 0002
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seating_id", sa.String(length=32), nullable=True))
    seats = sa.table("table_seats", sa.column("id", sa.Integer), sa.column("seating_id"))
    connection = op.get_bind()
    for (seat_id,) in connection.execute(sa.select(seats.c.id)).all():
        connection.execute(
            seats.update().where(seats.c.id == seat_id).values(seating_id=secrets.token_urlsafe(16))
        )
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.alter_column("seating_id", existing_type=sa.String(length=32), nullable=False)
        batch_op.create_unique_constraint("uq_table_seats_seating_id", ["seating_id"])

    op.create_table(
        "request_replies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_request_replies")),
        sa.UniqueConstraint("key", name=op.f("uq_request_replies_key")),
    )


def downgrade() -> None:
    op.drop_table("request_replies")
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.drop_constraint("uq_table_seats_seating_id", type_="unique")
        batch_op.drop_column("seating_id")
