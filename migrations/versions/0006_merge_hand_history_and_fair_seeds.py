"""join the two schema lines: hand result rows (0004) and fair-seed contributions (0005)

Both revise 0003 and touch different columns, so they apply in either order; this revision
only makes them one history again.

Revision ID: 0006
Revises: 0004, 0005
"""

from collections.abc import Sequence

revision: str = "0006"
down_revision: tuple[str, str] = ("0004", "0005")
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
