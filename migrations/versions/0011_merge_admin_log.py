"""join two schema lines: the admin audit log and chat moderation (0008) and the house rules
with chip requests (0010)

They add tables of their own, so they apply in either order; this revision only makes them
one history again.

Revision ID: 0011
Revises: 0008, 0010
"""

from collections.abc import Sequence

revision: str = "0011"
down_revision: tuple[str, str] = ("0008", "0010")
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
