"""Requests made with a client's idempotency key answer the same way every time.

A member who sits down or tops up sends a `request_key`. The first request with a key is
carried out and its answer kept (in the same transaction as what it did); a retry with the
same key and the same content gets exactly that answer again and changes nothing, whatever
has happened since (a later stand-up included); the same key with other content is refused.
Each keyed request is named by one `Keyed` (its key and content), built by the service that
carries it out, so that whoever looks for the stored answer first (app.tables.replays)
looks under the very key the service stores it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import RequestReply
from app.errors import Conflict
from app.i18n import _


@dataclass(frozen=True, slots=True)
class Keyed:
    """A request made with a client's key: where its answer is kept, and what was asked."""

    key: str
    content: Mapping[str, Any]


def _fingerprint(content: Mapping[str, Any]) -> str:
    return hashlib.sha256(orjson.dumps(dict(content), option=orjson.OPT_SORT_KEYS)).hexdigest()


async def earlier(session: AsyncSession, request: Keyed) -> dict[str, Any] | None:
    """The answer already given to `request`'s key, or None if the key is new."""
    reply = await session.scalar(select(RequestReply).where(RequestReply.key == request.key))
    if reply is None:
        return None
    if reply.fingerprint != _fingerprint(request.content):
        raise Conflict(
            "idempotency_conflict",
            _("This request key was already used for a different request: use a new key."),
        )
    return dict(reply.answer)


async def remember(session: AsyncSession, request: Keyed, answer: Mapping[str, Any]) -> None:
    fingerprint = _fingerprint(request.content)
    session.add(RequestReply(key=request.key, fingerprint=fingerprint, answer=dict(answer)))
    await session.flush()
