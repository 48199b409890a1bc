"""The documents a club reads name only files that exist in this project."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
DOCUMENTS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
EXTENSIONS = r"(?:py|js|css|md|html|json|toml|ini|yml)"
# A path as the documents write them: in backticks, as a Markdown link target, or bare with
# a folder in it (`docs/table-log.md`, [x](fair-shuffle.md), see app/engine/rng.py).
PATH = re.compile(
    rf"(?:(?<=`)|(?<=\]\())((?:[\w.-]+/)*[\w.-]+\.{EXTENSIONS})(?=[`)])"
    rf"|(?<![\w/.:-])((?:[\w.-]+/)+[\w.-]+\.{EXTENSIONS})\b"
)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_file_a_document_names_exists(document: Path) -> None:
    named = {quoted or bare for quoted, bare in PATH.findall(document.read_text(encoding="utf-8"))}
    missing = [
        name
        for name in named
        if not (PROJECT / name).exists() and not (document.parent / name).exists()
    ]
    assert not missing, f"{document.name} names files that do not exist: {missing}"


def test_the_documents_name_files_at_all() -> None:
    """The pattern finds what it is meant to find (else the test above proves nothing)."""
    found = {
        a or b for a, b in PATH.findall("see `app/engine/rng.py` and rules/x.md §4 or [t](t.md)")
    }
    assert found == {"app/engine/rng.py", "rules/x.md", "t.md"}
