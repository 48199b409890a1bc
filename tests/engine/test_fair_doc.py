"""docs/fair-shuffle.md is correct: its worked example's numbers are recomputed here, by the
engine and by the document's own Python verifier."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from app.engine import rng
from app.engine.bouillotte.deck import PACKS
from app.engine.cards import CARD_INDEX, CARD_NAMES

DOC = (Path(__file__).parents[2] / "docs" / "fair-shuffle.md").read_text()


def _example() -> dict[str, str]:
    section = DOC.split("## Worked example", 1)[1]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    values = dict(re.findall(r"^(\w+)\s*=\s*(.+?)\s*$", block, flags=re.MULTILINE))
    assert len(values) == 10, values
    return values


def _doc_verifier() -> dict[str, Any]:
    code = DOC.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {"print": lambda *args: None}
    exec(compile(code, "fair-shuffle.md", "exec"), namespace)  # noqa: S102 - our own doc
    return namespace


def _names(text: str) -> list[int]:
    return [CARD_INDEX[name] for name in text.split()]


def test_the_worked_example_is_what_the_engine_computes() -> None:
    ex = _example()
    server = bytes.fromhex(ex["server_seed"])
    contributions = {0: bytes.fromhex(ex["contribution_0"]), 2: bytes.fromhex(ex["contribution_2"])}
    assert rng.commitment(server) == ex["commitment"]
    seed = rng.mixed_seed(server, contributions)
    assert seed.hex() == ex["seed"]
    assert rng.mixed_seed(server, {}).hex() == ex["seed_alone"]
    assert rng.shuffled_deck(seed)[:8] == _names(ex["bourre_top_8"])
    assert rng.reshuffled(_names(ex["out_of_play"]), seed, 1) == _names(ex["reshuffle_1"])
    assert rng.shuffled(PACKS[3], seed, 0) == _names(ex["bouillotte_16"])


def test_the_documents_own_verifier_agrees() -> None:
    ex = _example()
    doc = _doc_verifier()
    server = bytes.fromhex(ex["server_seed"])
    contributions = {2: bytes.fromhex(ex["contribution_2"]), 0: bytes.fromhex(ex["contribution_0"])}
    seed = doc["mix"](server, contributions)
    assert seed.hex() == ex["seed"] and hashlib.sha256(server).hexdigest() == ex["commitment"]
    assert [doc["name"](c) for c in doc["shuffle"](range(52), seed, 0)[:8]] == ex[
        "bourre_top_8"
    ].split()
    assert doc["shuffle"](_names(ex["out_of_play"]), seed, 1) == _names(ex["reshuffle_1"])
    assert doc["shuffle"](PACKS[3], seed, 0) == _names(ex["bouillotte_16"])
    # The example's own variables are the worked example's.
    assert doc["server_seed"] == server and doc["contributions"] == contributions


def test_the_pinned_all_zero_vector_is_stated() -> None:
    top = " ".join(CARD_NAMES[c] for c in rng.shuffled_deck(bytes(32))[:8])
    assert f"`{top}`" in DOC
