"""One idempotency behaviour for every route that takes a client's key.

A retry with the same key and the same content answers exactly as the first time (same
status, same body, kept in the database with what the request did) and changes nothing,
whatever happened since; the answer then carries `Idempotent-Replayed: true`. The stored
answer is looked up before any check of the state (app.services.admin_chips, and
app.tables.replays for every table command), so a hand dealt, a seat taken, a balance spent
or a table closed since never turns a request that succeeded into a refusal. The same key
with other content is refused: 409 `idempotency_conflict`. Routes: `POST /api/admin/chips/
grant` and `/deduct` (`idempotency_key`), `POST /api/tables/{id}/seat`, `/top-up` and
`/bots` (`request_key`); the admin pages' chip form (`chip_key`) and bot form (`bot_key`).
"""

from __future__ import annotations

from fastapi import Response

REPLAYED_HEADER = "Idempotent-Replayed"


def mark(response: Response, replayed: bool) -> None:
    """Tell the client whether this answer was given before (a retry) or just now."""
    response.headers[REPLAYED_HEADER] = "true" if replayed else "false"
