"""house-rule options above the maxima the engine now states are lowered to them (in
saved configurations, tables' rules and hands' headers)

The engine refuses a chip amount above 1,000,000,000 (the most the ledger moves at once,
and the largest buy-in) and a renege penalty above 10 pots. Before, a pot limit, a brelan
bonus or a renege penalty had no upper bound: a saved configuration or a table holding a
larger value would no longer validate, such a table could not deal and its hands could not
be replayed. Each is lowered to the maximum, which plays the same (a larger pot limit or
bonus than any stack is never reached; penalised reneges are not played yet). The bounds
are written here as they were set, not read from the application, so that this migration
keeps its meaning.

No schema change: the downgrade leaves the rows as they are.

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

from alembic import op

from app.db.option_rewrites import rewrite_rule_options

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MAX_CHIPS = 1_000_000_000
MAX_RENEGE_PENALTY = 10
CAPS = {
    "bourre": {"ante": MAX_CHIPS, "pot_limit": MAX_CHIPS, "renege_penalty": MAX_RENEGE_PENALTY},
    "bouillotte": {"cave": MAX_CHIPS, "bonus_carre": MAX_CHIPS, "bonus_brelan": MAX_CHIPS},
}


def upgrade() -> None:
    for game, caps in CAPS.items():
        rewrite_rule_options(op.get_bind(), game, cap=caps)


def downgrade() -> None:
    pass
