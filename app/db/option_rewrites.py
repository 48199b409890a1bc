"""Stored house-rule options rewritten when a game drops or renames an option, or lowers
an option's maximum.

The engine accepts only the options it knows, each within its range, so a configuration
saved before such a change would no longer validate: it would be listed as invalid and
open no table until an admin fixed it by hand. A migration that drops, renames or narrows
an option calls ``rewrite_rule_options`` in its ``upgrade`` so that every stored copy
follows the engine:
the club's saved configurations (``rulesets.options``) and the rules each table was opened
with (``game_tables.rules``, read again whenever the table deals). The hands' headers keep
the rules as they were played: they are the record of those hands.

Migrations run on a synchronous connection (Alembic's ``op.get_bind()``); the tables are
named here, not taken from the models, so an old migration keeps working as the models
change.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
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
# Each table holding a game's rules, with its column of options.
_STORED_RULES = ((_RULESETS, _RULESETS.c.options), (_TABLES, _TABLES.c.rules))


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
    many rows changed. A row whose options are not an object at all is left as it is (the
    application lists it as invalid, to be fixed or archived)."""
    renames = dict(rename or {})
    both = set(renames) & set(drop)
    if both:
        raise ValueError(f"an option is either renamed or dropped, not both: {sorted(both)}")
    changed = 0
    for table, column in _STORED_RULES:
        rows = connection.execute(sa.select(table.c.id, column).where(table.c.game == game))
        for row_id, stored in rows.all():
            if not isinstance(stored, Mapping):
                continue
            rewritten = rewritten_options(stored, renames, drop, cap)
            if rewritten != stored:
                connection.execute(
                    sa.update(table).where(table.c.id == row_id).values({column.name: rewritten})
                )
                changed += 1
    return changed
