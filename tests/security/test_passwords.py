"""Argon2id's cost: RFC 9106's profile unless a test suite asks for the cheap one, which
production refuses; each profile verifies the other's hashes and asks for a rehash."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import extract_parameters
from pydantic import ValidationError

from app.config import Settings
from app.security import passwords


@pytest.fixture
def standard() -> Iterator[None]:
    passwords.use_hashing("standard")
    yield
    passwords.use_hashing("fast-insecure")  # what the rest of the suite runs with


def test_the_standard_profile_is_the_default_and_costs_64_mib(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path).argon2_profile == "standard"
    assert passwords.PROFILES["standard"].memory_cost == 64 * 1024
    assert passwords.PROFILES["standard"].time_cost == 3


def test_production_refuses_the_cheap_profile(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="SALON_ARGON2_PROFILE"):
        Settings(
            env="production",
            data_dir=tmp_path,
            secret_key="k" * 40,
            argon2_profile="fast-insecure",
        )


@pytest.mark.usefixtures("standard")
def test_hashes_carry_their_parameters_and_are_rehashed_on_a_change() -> None:
    made = passwords.hash_password("correct horse")
    assert extract_parameters(made).memory_cost == 64 * 1024
    assert not passwords.needs_rehash(made)
    passwords.use_hashing("fast-insecure")
    assert passwords.verify_password(made, "correct horse")
    assert not passwords.verify_password(made, "wrong horse")
    assert passwords.needs_rehash(made)
    cheap = passwords.hash_password("correct horse")
    assert extract_parameters(cheap).memory_cost == passwords.PROFILES["fast-insecure"].memory_cost
    passwords.use_hashing("standard")
    assert passwords.verify_password(cheap, "correct horse") and passwords.needs_rehash(cheap)


def test_an_unknown_username_is_checked_against_a_hash_of_the_current_profile() -> None:
    assert not passwords.verify_password(None, "not a real password")
