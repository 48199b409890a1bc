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
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.add_column(sa.Column("server_seed", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("contributions", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_column("contributions")
        batch_op.drop_column("server_seed")
