"""hands keep their server seed and the players' contributions to the seed

A hand's `seed` is now the server seed mixed with the seated players' contributions
(docs/fair-shuffle.md); `commitment` is the SHA-256 of `server_seed`. Hands dealt before
this revision have neither (their commitment is that of `seed` itself).

Revision ID: 0005
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ALTERs, not batch copies: other tables' foreign keys point to `hands`, and an
    # SQLite batch copy of a table holding hands fails on them.
    op.add_column("hands", sa.Column("server_seed", sa.String(length=64), nullable=True))
    op.add_column("hands", sa.Column("contributions", sa.JSON(), nullable=True))


def downgrade() -> None:
    # SQLite 3.35+ drops columns in place.
    for column in ("contributions", "server_seed"):
        op.execute(f"ALTER TABLE hands DROP COLUMN {column}")
