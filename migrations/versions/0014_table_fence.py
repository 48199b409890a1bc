"""a table's fencing token

When several `salon serve` processes share a club, each live table is owned by one process
at a time (a lease in Redis). Taking a table raises `game_tables.fence`; every write the
owner makes checks that the column still holds its token, so a former owner that lost its
lease (paused, cut off) can never write again. A single process never changes it.

Revision ID: 0014
Revises: 0013
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "game_tables",
        sa.Column("fence", sa.BigInteger(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_column("game_tables", "fence")
