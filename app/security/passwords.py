"""Password hashing with Argon2id (argon2-cffi's defaults follow RFC 9106)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.errors import InvalidInput

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 256

_hasher = PasswordHasher()
# Verifying against this when the username is unknown takes as long as a real check, so the
# response time does not tell an attacker which usernames exist.
_DUMMY_HASH = _hasher.hash("not a real password")


def check_strength(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidInput(
            "password_too_short", f"Passwords need at least {MIN_PASSWORD_LENGTH} characters."
        )
    if len(password) > MAX_PASSWORD_LENGTH:
        raise InvalidInput(
            "password_too_long", f"Passwords may have at most {MAX_PASSWORD_LENGTH} characters."
        )


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)
