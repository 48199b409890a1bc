"""a table's gathering countdown

Before a hand when play starts (or starts again after a spell without enough players), a
table waits for latecomers: the club's setting, or the table's own length here (seconds;
NULL: the club's setting).

Revision ID: 0015
Revises: 0014
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("gathering_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("game_tables", "gathering_seconds")
