"""languages

`users.language`: the language a member chose on their account page (None: their
browser's). `club.default_language`: the language of whoever neither chose one nor has a
browser asking for one Salon speaks (None: English). Nullable columns only: processes still
running the previous release neither read nor write them.

Revision ID: 0019
Revises: 0018
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it): no table is copied, none of their keys disturbed.
    op.add_column("users", sa.Column("language", sa.String(length=16), nullable=True))
    op.add_column("club", sa.Column("default_language", sa.String(length=16), nullable=True))


def downgrade() -> None:
    # ALTER TABLE DROP COLUMN, which SQLite has since 3.35: a batch copy of `users` would
    # drop the table that every other one refers to.
    op.drop_column("club", "default_language")
    op.drop_column("users", "language")
