"""Migrations run while the previous release's processes still serve the club (the upgrade
order of docs/backups-and-upgrades.md), so every migration newer than the previous release
(migrations/releases.toml) only expands the schema: new tables, new nullable columns (or
columns with a server default), backfills, relaxed constraints. What the previous release
still reads or writes is dropped, renamed, narrowed or made NOT NULL in a later release
only: such a migration declares `CONTRACT = "..."`, saying which release stopped using
what it removes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from app.db.migrate import alembic_config
from tests.releases import previous_release

VERSIONS = Path(__file__).resolve().parents[2] / "migrations" / "versions"
# Operations that take away or narrow what running code may use.
CONTRACTING_CALLS = {"drop_table", "drop_column", "rename_table"}
CONTRACTING_ALTERATIONS = {"new_column_name", "type_"}
CONTRACTING_SQL = re.compile(
    r"\b(DROP\s+(TABLE|COLUMN)|RENAME\s+(TO|COLUMN)|SET\s+NOT\s+NULL|ALTER\s+COLUMN\s+\w+\s+TYPE)\b",
    re.IGNORECASE,
)


def contractions(source: str) -> list[str]:
    """What `upgrade()` of a migration's source does that is not an expansion (nothing when
    the module declares `CONTRACT`)."""
    module = ast.parse(source)
    for node in module.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "CONTRACT" for t in targets):
                return []
    upgrade = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "upgrade")
    found = []
    # Its SQL, and that of the module's constants it uses (raw SQL is often kept beside).
    used = {n.id for n in ast.walk(upgrade) if isinstance(n, ast.Name)}
    constants = [
        node
        for node in module.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id in used for t in node.targets)
    ]
    strings = [
        n for tree in (upgrade, *constants) for n in ast.walk(tree) if isinstance(n, ast.Constant)
    ]
    for node in ast.walk(upgrade):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name = node.func.attr
        keywords = {k.arg: k.value for k in node.keywords}
        if name in CONTRACTING_CALLS:
            found.append(f"line {node.lineno}: {name}")
        elif name == "alter_column":
            nullable = keywords.get("nullable")
            if isinstance(nullable, ast.Constant) and nullable.value is False:
                found.append(f"line {node.lineno}: alter_column(nullable=False)")
            for keyword in CONTRACTING_ALTERATIONS & keywords.keys():
                found.append(f"line {node.lineno}: alter_column({keyword}=...)")
    for constant in strings:
        if isinstance(constant.value, str) and CONTRACTING_SQL.search(constant.value):
            found.append(f"line {constant.lineno}: SQL {constant.value.strip()[:60]!r}")
    return found


def released_revisions() -> set[str]:
    """The previous release's schema and every revision it was built on."""
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    return {script.revision for script in scripts.walk_revisions("base", previous_release().schema)}


def test_the_previous_release_s_schema_is_one_of_ours() -> None:
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert scripts.get_revision(previous_release().schema) is not None


def test_every_migration_since_the_previous_release_only_expands() -> None:
    released = released_revisions()
    assert released, "the previous release's schema has no revisions"
    newer = {}
    for path in sorted(VERSIONS.glob("*.py")):
        source = path.read_text()
        revision = re.search(r'^revision: str = "([^"]+)"', source, re.MULTILINE)
        assert revision, path.name
        if revision.group(1) not in released:
            newer[path.name] = contractions(source)
    offending = {name: found for name, found in newer.items() if found}
    assert not offending, (
        "these migrations take away what the previous release's running processes use: "
        f"{offending}; expand now, contract in a later release (declare CONTRACT there)"
    )


@pytest.mark.parametrize(
    ("migration", "expected"),
    [
        # A column made NOT NULL after its backfill, in the release that added it.
        ("0003_seatings_and_replies.py", ["alter_column(nullable=False)"]),
        # A column widened in place (a table rewrite under a lock).
        ("0017_table_epochs.py", ["alter_column(type_=...)", "alter_column(type_=...)"]),
        # New nullable columns, new tables: expansions.
        ("0015_table_gathering.py", []),
        ("0009_chip_requests.py", []),
    ],
)
def test_the_review_tells_contractions_from_expansions(migration: str, expected: list[str]) -> None:
    found = contractions((VERSIONS / migration).read_text())
    assert [f.split(": ", 1)[1] for f in found] == expected


def test_a_declared_contraction_passes() -> None:
    source = (
        'CONTRACT = "release 2 stopped reading game_tables.old"\n'
        "def upgrade():\n    op.drop_column('game_tables', 'old')\n"
    )
    assert contractions(source) == []
    assert contractions(source.split("\n", 1)[1]) == ["line 2: drop_column"]
