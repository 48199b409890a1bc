"""Requests made with a client's idempotency key answer the same way every time.

A member who sits down or tops up sends a `request_key`. The first request with a key is
carried out and its answer kept (in the same transaction as what it did); a retry with the
same key and the same content gets exactly that answer again and changes nothing, whatever
has happened since (a later stand-up included); the same key with other content is refused.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import RequestReply
from app.errors import Conflict


def _fingerprint(content: Mapping[str, Any]) -> str:
    return hashlib.sha256(orjson.dumps(dict(content), option=orjson.OPT_SORT_KEYS)).hexdigest()


async def earlier(
    session: AsyncSession, key: str, content: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The answer already given under `key`, or None if the key is new."""
    reply = await session.scalar(select(RequestReply).where(RequestReply.key == key))
    if reply is None:
        return None
    if reply.fingerprint != _fingerprint(content):
        raise Conflict(
            "idempotency_conflict",
            "This request key was already used for a different request: use a new key.",
        )
    return dict(reply.answer)


async def remember(
    session: AsyncSession, key: str, content: Mapping[str, Any], answer: Mapping[str, Any]
) -> None:
    session.add(RequestReply(key=key, fingerprint=_fingerprint(content), answer=dict(answer)))
    await session.flush()
