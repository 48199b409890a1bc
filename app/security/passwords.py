"""Password hashing with Argon2id.

The cost is a setting (`Settings.argon2_profile`): "standard" is argon2-cffi's default,
RFC 9106's low-memory profile (64 MiB, three passes); "fast-insecure" is one pass over a few
KiB, for test suites that create and log in members by the thousand — production refuses
it. A hash says which parameters made it, so either setting verifies the other's hashes;
a login rehashes a password whose hash was made with other parameters.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from argon2 import Parameters, PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError

from app.errors import InvalidInput
from app.i18n import _

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 256

Hashing = Literal["standard", "fast-insecure"]
PROFILES: dict[Hashing, Parameters] = {
    "standard": profiles.RFC_9106_LOW_MEMORY,
    "fast-insecure": dataclasses.replace(profiles.CHEAPEST, salt_len=16, hash_len=32),
}


class _Hashing:
    """The process's hasher, and the hash checked when a username is unknown (taking as
    long as a real check, so the response time does not tell which usernames exist)."""

    def __init__(self, name: Hashing) -> None:
        self.name = name
        self.hasher = PasswordHasher.from_parameters(PROFILES[name])
        self.dummy_hash = self.hasher.hash("not a real password")


_current = _Hashing("standard")


def use_hashing(name: Hashing) -> None:
    """Hash with this profile from now on (at start-up, from the settings)."""
    global _current
    if _current.name != name:
        _current = _Hashing(name)


def check_strength(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidInput(
            "password_too_short",
            _(
                "Passwords need at least %(min_password_length)s characters.",
                min_password_length=MIN_PASSWORD_LENGTH,
            ),
        )
    if len(password) > MAX_PASSWORD_LENGTH:
        raise InvalidInput(
            "password_too_long",
            _(
                "Passwords may have at most %(max_password_length)s characters.",
                max_password_length=MAX_PASSWORD_LENGTH,
            ),
        )


def hash_password(password: str) -> str:
    return _current.hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        checked = password_hash or _current.dummy_hash
        return _current.hasher.verify(checked, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _current.hasher.check_needs_rehash(password_hash)
