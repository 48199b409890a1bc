"""the club's named house-rule configurations, and the one a table was opened from

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rulesets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=12), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("description", sa.String(length=300), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("archived", sa.Boolean(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("game IN ('bourre', 'bouillotte')", name=op.f("ck_rulesets_game_known")),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"], name=op.f("fk_rulesets_created_by_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rulesets")),
        sa.UniqueConstraint("game", "name", name="uq_rulesets_game_name"),
    )
    # A plain ALTER, not a batch copy: other tables' foreign keys point to `game_tables`.
    # SQLite cannot add a constraint to a table, but takes one on an added column.
    fk = "fk_game_tables_ruleset_id_rulesets"
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            f"ALTER TABLE game_tables ADD COLUMN ruleset_id INTEGER "
            f"CONSTRAINT {fk} REFERENCES rulesets (id)"
        )
    else:
        op.add_column("game_tables", sa.Column("ruleset_id", sa.Integer(), nullable=True))
        op.create_foreign_key(fk, "game_tables", "rulesets", ["ruleset_id"], ["id"])


def downgrade() -> None:
    # SQLite 3.35+ drops columns in place (the foreign key goes with the column there).
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint("fk_game_tables_ruleset_id_rulesets", "game_tables", type_="foreignkey")
    op.execute("ALTER TABLE game_tables DROP COLUMN ruleset_id")
    op.drop_table("rulesets")
