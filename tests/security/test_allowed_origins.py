"""SALON_ALLOWED_ORIGINS as operators write it: comma-separated (like SALON_TRUSTED_PROXIES)
or a JSON list, a trailing slash forgiven, anything else refused in a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from app.config import Settings


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("http://127.0.0.1:8080", ["http://127.0.0.1:8080"]),
        (
            " https://cards.example.org/ , http://127.0.0.1:8080",
            ["https://cards.example.org", "http://127.0.0.1:8080"],
        ),
        ('["https://cards.example.org"]', ["https://cards.example.org"]),
        (
            '["https://a.example.org/", "http://b.example.org:81"]',
            ["https://a.example.org", "http://b.example.org:81"],
        ),
    ],
)
def test_origins_are_read_comma_separated_or_as_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, read: list[str]
) -> None:
    monkeypatch.setenv("SALON_ALLOWED_ORIGINS", written)
    assert Settings(data_dir=tmp_path).allowed_origins == read


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("cards.example.org", "lists 'cards.example.org', which is not an origin"),
        ("https://cards.example.org/play", "lists 'https://cards.example.org/play'"),
        ('["https://cards.example.org"', "not a valid JSON list"),
    ],
)
def test_what_is_not_an_origin_is_refused_in_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, said: str
) -> None:
    monkeypatch.setenv("SALON_ALLOWED_ORIGINS", written)
    with pytest.raises(ValidationError, match=said):
        Settings(data_dir=tmp_path)
