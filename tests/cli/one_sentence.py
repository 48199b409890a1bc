"""What an operator must see when a command cannot start: one sentence on stderr, starting
"salon: ", no traceback, exit status 2."""

from __future__ import annotations

import subprocess


def assert_one_sentence(result: subprocess.CompletedProcess[str], *phrases: str) -> str:
    """The sentence, once checked to hold each of `phrases`."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    sentence = lines[0]
    assert sentence.startswith("salon: "), sentence
    for phrase in phrases:
        assert phrase in sentence, sentence
    return sentence
