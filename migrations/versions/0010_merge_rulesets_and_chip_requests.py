"""join two schema lines: the club's house-rule configurations (0007) and chip requests (0009)

Both revise 0006 and add tables of their own, so they apply in either order; this revision
only makes them one history again.

Revision ID: 0010
Revises: 0007, 0009
"""

from collections.abc import Sequence

revision: str = "0010"
down_revision: tuple[str, str] = ("0007", "0009")
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
