"""table versions carry the table's epoch

A table's event versions were carried on after a restart from the last one stored, but seat
events are not stored, so a restarted table could show a version again for another event.
Now each start of a table raises its fencing token, the run's epoch, and its versions count
up from the epoch times 10**9: the stored versions need 64 bits.

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.alter_column("version", type_=sa.BigInteger(), existing_nullable=False)
    with op.batch_alter_table("hand_actions") as batch:
        batch.alter_column("table_version", type_=sa.BigInteger(), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("hand_actions") as batch:
        batch.alter_column("table_version", type_=sa.Integer(), existing_nullable=False)
    with op.batch_alter_table("game_tables") as batch:
        batch.alter_column("version", type_=sa.Integer(), existing_nullable=False)
