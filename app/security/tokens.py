"""Secrets come from the OS CSPRNG (`secrets`); only digests of bearer tokens are stored."""

from __future__ import annotations

import hashlib
import secrets


def new_token(nbytes: int = 32) -> str:
    return secrets.token_urlsafe(nbytes)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same(a: str, b: str) -> bool:
    return secrets.compare_digest(a.encode(), b.encode())
