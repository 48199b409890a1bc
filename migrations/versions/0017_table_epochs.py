"""table versions carry the table's epoch

A table's event versions were carried on after a restart from the last one stored, but seat
events are not stored, so a restarted table could show a version again for another event.
Now each start of a table raises its fencing token, the run's epoch, and its versions count
up from the epoch times 10**9: the stored versions need 64 bits (SQLite's have them).

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return  # SQLite's integers are 64 bits already (and rebuilding game_tables would
        # trip the foreign keys of every table that refers to it)
    op.alter_column("game_tables", "version", type_=sa.BigInteger(), existing_nullable=False)
    op.alter_column("hand_actions", "table_version", type_=sa.BigInteger(), existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    op.alter_column("hand_actions", "table_version", type_=sa.Integer(), existing_nullable=False)
    op.alter_column("game_tables", "version", type_=sa.Integer(), existing_nullable=False)
