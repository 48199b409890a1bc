"""Stored house-rule options rewritten when a game drops or renames an option, or lowers
an option's maximum.

The engine accepts only the options it knows, each within its range, so rules stored
before such a change would no longer validate: a saved configuration would be listed as
invalid and open no table until an admin fixed it by hand, a table could not deal, an old
hand could not be replayed. A migration that drops, renames or narrows an option calls
``rewrite_rule_options`` in its ``upgrade`` so that every stored copy follows the engine:
the club's saved configurations (``rulesets.options``), the rules each table was opened
with (``game_tables.rules``) and those in each hand's header (the table log's ``rules``,
read to replay the hand or restore it after a restart).

Migrations run on a synchronous connection (Alembic's ``op.get_bind()``); the tables are
named here, not taken from the models, so an old migration keeps working as the models
change.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

_RULESETS = sa.table(
    "rulesets",
    sa.column("id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("options", sa.JSON),
)
_TABLES = sa.table(
    "game_tables",
    sa.column("id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("rules", sa.JSON),
)
_HANDS = sa.table(
    "hands",
    sa.column("id", sa.Integer),
    sa.column("table_id", sa.Integer),
    sa.column("header", sa.JSON),
)
# Rows are read this many at a time: a club's hands may be many.
_BATCH = 500

Rewrite = Callable[[Any], dict[str, Any] | None]


def rewritten_options(
    options: Mapping[str, Any],
    rename: Mapping[str, str],
    drop: Collection[str] = (),
    cap: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """``options`` with each ``rename`` key under its new name, each ``drop`` key gone and
    each whole number above its ``cap`` lowered to it (caps name options as renamed). A row
    already holding the new name keeps its own value there."""
    kept = {key: value for key, value in options.items() if key not in drop and key not in rename}
    for old, new in rename.items():
        if old in options and new not in kept:
            kept[new] = options[old]
    for key, maximum in (cap or {}).items():
        value = kept.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > maximum:
            kept[key] = maximum
    return kept


def rewrite_rule_options(
    connection: Connection,
    game: str,
    *,
    rename: Mapping[str, str] | None = None,
    drop: Collection[str] = (),
    cap: Mapping[str, int] | None = None,
) -> int:
    """Rename, drop and cap options in every stored copy of ``game``'s rules; returns how
    many rows changed. Rules that are not an object at all are left as they are (the
    application lists such a configuration as invalid, to be fixed or archived)."""
    renames = dict(rename or {})
    both = set(renames) & set(drop)
    if both:
        raise ValueError(f"an option is either renamed or dropped, not both: {sorted(both)}")

    def options(stored: Any) -> dict[str, Any] | None:
        if not isinstance(stored, Mapping):
            return None
        return rewritten_options(stored, renames, drop, cap)

    def in_header(header: Any) -> dict[str, Any] | None:
        if not isinstance(header, Mapping) or not isinstance(header.get("rules"), Mapping):
            return None
        return {**header, "rules": options(header["rules"])}

    tables_of_game = sa.select(_TABLES.c.id).where(_TABLES.c.game == game)
    return (
        _rewrite(connection, _RULESETS, "options", _RULESETS.c.game == game, options)
        + _rewrite(connection, _TABLES, "rules", _TABLES.c.game == game, options)
        + _rewrite(connection, _HANDS, "header", _HANDS.c.table_id.in_(tables_of_game), in_header)
    )


def _rewrite(
    connection: Connection,
    table: sa.TableClause,
    column: str,
    which: sa.ColumnElement[bool],
    rewrite: Rewrite,
) -> int:
    """Write ``rewrite`` of ``table.column`` in each row ``which`` selects, where it
    changes."""
    row_id = table.c.id
    changed, after = 0, 0
    while True:
        rows = connection.execute(
            sa.select(row_id, table.c[column])
            .where(which, row_id > after)
            .order_by(row_id)
            .limit(_BATCH)
        ).all()
        if not rows:
            return changed
        for found_id, stored in rows:
            new = rewrite(stored)
            if new is not None and new != stored:
                connection.execute(sa.update(table).where(row_id == found_id).values({column: new}))
                changed += 1
        after = rows[-1][0]
