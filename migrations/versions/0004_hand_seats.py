"""per-seat hand results, table sessions and the seed reveal policy

Revision ID: 0004
Revises: 0003

Existing finished hands get their `hand_seats` rows and `pot` from their stored report, and
count as revealed (their seeds were shown when each hand ended).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db.types import UTCDateTime
from app.services.hand_replay import deal_stored
from app.services.hand_results import pot_of, seat_results

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("club", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("seed_reveal", sa.String(length=10), nullable=False, server_default="session")
        )
        batch_op.create_check_constraint(
            op.f("ck_club_seed_reveal_known"), "seed_reveal IN ('hand', 'session')"
        )
    # Plain ALTERs, not batch copies: other tables' foreign keys point to these two, and
    # SQLite adds a column in place.
    op.add_column(
        "game_tables", sa.Column("session", sa.Integer(), nullable=False, server_default="1")
    )
    op.add_column("hands", sa.Column("pot", sa.BigInteger(), nullable=False, server_default="0"))
    op.add_column("hands", sa.Column("session", sa.Integer(), nullable=False, server_default="1"))
    op.add_column(
        "hands", sa.Column("revealed", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_index("ix_hands_ended_at_id", "hands", ["ended_at", "id"], unique=False)
    op.create_table(
        "hand_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=12), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=False),
        sa.Column("stack_before", sa.BigInteger(), nullable=False),
        sa.Column("stack_after", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("bourres_paid", sa.BigInteger(), nullable=False),
        sa.Column("brelan", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_hand_seats_hand_id_hands")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name=op.f("fk_hand_seats_table_id_game_tables")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_hand_seats_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_seats")),
        sa.UniqueConstraint("hand_id", "seat_no", name="uq_hand_seats_hand_seat"),
    )
    op.create_index("ix_hand_seats_user_ended", "hand_seats", ["user_id", "ended_at", "hand_id"])
    op.create_index("ix_hand_seats_table_ended", "hand_seats", ["table_id", "ended_at"])
    _backfill()


def _backfill() -> None:
    """Rows for every finished hand, from its stored header, players and report."""
    hands = sa.table(
        "hands",
        sa.column("id", sa.Integer),
        sa.column("table_id", sa.Integer),
        sa.column("seed", sa.String),
        sa.column("header", sa.JSON),
        sa.column("players", sa.JSON),
        sa.column("result", sa.JSON),
        sa.column("running", sa.Boolean),
        sa.column("ended_at", UTCDateTime),
        sa.column("pot", sa.BigInteger),
        sa.column("revealed", sa.Boolean),
    )
    seats = sa.table(
        "hand_seats",
        *(
            sa.column(name, kind)
            for name, kind in (
                ("hand_id", sa.Integer),
                ("table_id", sa.Integer),
                ("user_id", sa.Integer),
                ("seat_no", sa.Integer),
                ("game", sa.String),
                ("ended_at", UTCDateTime),
                ("stack_before", sa.BigInteger),
                ("stack_after", sa.BigInteger),
                ("net", sa.BigInteger),
                ("won", sa.Boolean),
                ("bourres_paid", sa.BigInteger),
                ("brelan", sa.Boolean),
            )
        ),
    )
    connection = op.get_bind()
    finished = connection.execute(
        sa.select(hands).where(hands.c.running.is_(False), hands.c.result.is_not(None))
    ).all()
    for hand in finished:
        header, players, report = hand.header, hand.players, hand.result
        game = str(header["game"])
        users = {int(k): int(v) for k, v in players["users"].items()}
        dealt_in = deal_stored(header, players, hand.seed).dealt_in
        stacks = [int(s["stack"]) for s in header["seats"]]
        rows = seat_results(game, header.get("rules", {}), users, dealt_in, stacks, report)
        if rows:
            connection.execute(
                seats.insert(),
                [
                    {
                        "hand_id": hand.id,
                        "table_id": hand.table_id,
                        "user_id": r.user_id,
                        "seat_no": r.seat_no,
                        "game": game,
                        "ended_at": hand.ended_at,
                        "stack_before": r.stack_before,
                        "stack_after": r.stack_after,
                        "net": r.net,
                        "won": r.won,
                        "bourres_paid": r.bourres_paid,
                        "brelan": r.brelan,
                    }
                    for r in rows
                ],
            )
        connection.execute(
            hands.update()
            .where(hands.c.id == hand.id)
            .values(pot=pot_of(game, report), revealed=True)
        )


def downgrade() -> None:
    op.drop_index("ix_hand_seats_table_ended", table_name="hand_seats")
    op.drop_index("ix_hand_seats_user_ended", table_name="hand_seats")
    op.drop_table("hand_seats")
    op.drop_index("ix_hands_ended_at_id", table_name="hands")
    # Plain ALTERs (SQLite 3.35+ drops columns in place), as in the upgrade.
    for table, column in (
        ("hands", "revealed"),
        ("hands", "session"),
        ("hands", "pot"),
        ("game_tables", "session"),
    ):
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    with op.batch_alter_table("club", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_club_seed_reveal_known"), type_="check")
        batch_op.drop_column("seed_reveal")
