"""The browser's verifier (static/js/fair.js) computes what the engine computes.

Seeds and contributions are made with `app.engine.rng`, decks by the games' drivers; Node
(≥ 18, whose `globalThis.crypto.subtle` is Web Crypto) runs the module on them, with each
game as GET /api/games describes it (its packs come from there). Without Node the test
skips on a developer's machine and fails under CI=true.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.api.games import GAMES_DESCRIBED
from app.engine import registry, rng
from app.engine.cards import CARD_NAMES

SCRIPT = Path(__file__).with_name("fair_check.mjs")


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("Node is needed to test static/js/fair.js")
        pytest.skip("Node is not installed")
    return node


DESCRIBED = {game.name: game.model_dump(mode="json") for game in GAMES_DESCRIBED}


def _case(rand: random.Random, game: str, seats: list[int], players: int) -> dict[str, Any]:
    server = rand.randbytes(32)
    contributions = {seat: rand.randbytes(32) for seat in seats}
    seed = rng.mixed_seed(server, contributions)
    deck = [CARD_NAMES[c] for c in registry.driver(game).dealt_deck(seed, players)]
    out_of_play = sorted(rand.sample(range(52), 9))
    published = rng.contributions_to_hex(contributions)
    return {
        "game": DESCRIBED[game],
        "serverSeed": server.hex(),
        "contributions": published,
        "seed": seed.hex(),
        "packSize": len(deck),
        "reshuffle": {"index": 2, "cards": [CARD_NAMES[c] for c in reversed(out_of_play)]},
        "verify": {
            "commitment": rng.commitment(server),
            "serverSeed": server.hex(),
            "contributions": published,
            "seed": seed.hex(),
            "game": DESCRIBED[game],
            "deck": deck,
        },
        # What the engine says, for the comparison (fair.js does not read these).
        "expected": {
            "commitment": rng.commitment(server),
            "seed": seed.hex(),
            "deck": deck,
            "reshuffle": [CARD_NAMES[c] for c in rng.reshuffled(out_of_play, seed, 2)],
        },
    }


def _cases() -> list[dict[str, Any]]:
    rand = random.Random(20261130)
    cases = [
        _case(rand, "bourre", [], 2),
        _case(rand, "bourre", [0, 1, 2, 3, 4, 5, 6], 7),
        _case(rand, "bourre", [6, 1], 2),
        _case(rand, "bouillotte", [0, 2, 4], 3),
        _case(rand, "bouillotte", [1, 2, 3, 4], 4),
        _case(rand, "bouillotte", [0, 1, 2, 3, 4], 5),
    ]
    base = cases[2]
    changed_card = _tampered(base, "deck")
    changed_card["verify"]["deck"][5], changed_card["verify"]["deck"][6] = (
        base["verify"]["deck"][6],
        base["verify"]["deck"][5],
    )
    changed_contribution = _tampered(base, "contribution")
    value = base["contributions"]["6"]
    changed_contribution["verify"]["contributions"]["6"] = value[:-1] + (
        "0" if value[-1] != "0" else "1"
    )
    wrong_server = _tampered(base, "server seed")
    wrong_server["verify"]["serverSeed"] = rand.randbytes(32).hex()
    return [*cases, changed_card, changed_contribution, wrong_server]


def _tampered(case: dict[str, Any], what: str) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(case))
    copy["tampered"] = what
    return copy


def _run(tmp_path: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    fixture = tmp_path / "cases.json"
    fixture.write_text(json.dumps(cases))
    done = subprocess.run(
        [_node(), str(SCRIPT), str(fixture)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return results


def test_fair_js_matches_the_engine_and_catches_tampering(tmp_path: Path) -> None:
    cases = _cases()
    results = _run(tmp_path, cases)
    assert len(results) == len(cases)
    for case, got in zip(cases, results, strict=True):
        expected = case["expected"]
        assert got["commitment"] == expected["commitment"]
        assert got["seed"] == expected["seed"]
        assert got["deck"] == expected["deck"]
        assert got["reshuffle"] == expected["reshuffle"]
        verified = got["verified"]
        assert verified["computedDeck"] == expected["deck"]
        tampered = case.get("tampered")
        assert verified["deck"] is (tampered != "deck"), (tampered, verified)
        # A wrong server seed fails its commitment and, mixed, the published seed too.
        assert verified["seed"] is (tampered not in ("contribution", "server seed")), verified
        assert verified["commitment"] is (tampered != "server seed"), (tampered, verified)


def test_fair_js_checks_a_hand_dealt_before_contributions(tmp_path: Path) -> None:
    """Hands dealt before contributions existed committed to their seed itself."""
    seed = bytes(32)
    deck = [CARD_NAMES[c] for c in rng.shuffled_deck(seed)]
    case = _case(random.Random(1), "bourre", [], 2)
    case["verify"] = {
        "commitment": rng.commitment(seed),
        "serverSeed": None,
        "contributions": {},
        "seed": seed.hex(),
        "game": DESCRIBED["bourre"],
        "deck": deck,
    }
    verified = _run(tmp_path, [case])[0]["verified"]
    assert verified == {"commitment": True, "seed": True, "deck": True, "computedDeck": deck}
