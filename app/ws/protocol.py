"""The table WebSocket protocol: typed JSON messages, discriminated by `type`.

Client → server: `action` (with a client-chosen id, so a resent action applies once),
`chat`, `ping`, `resync`, `entropy` (a seated player's 32 random bytes for the next hand's
seed, docs/fair-shuffle.md), `suggest` (practice tables), `deal_now` (cut the gathering
countdown). Server → client: `snapshot` (the viewer's whole view and the table version),
`event` (versioned), `hand_log` (on every connection: the running hand's events this viewer
may see, to rebuild its log), `error` (a stable code and a sentence), `chat`, `pong`,
`suggestion`, `liveness` (first: how often the page pings, how long it waits).
Frames are parsed here, before anything reaches a table: an oversized, malformed or unknown
frame becomes a `ProtocolError` and never disturbs play.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.errors import SalonError
from app.i18n import _
from app.security.text import plain_text

MAX_FRAME_BYTES = 4096
MAX_CHAT_LENGTH = 300


class ProtocolError(Exception):
    """A frame refused before it reached the table; `code` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
CardName = Annotated[str, Field(min_length=2, max_length=2, pattern=r"^[2-9TJQKA][SHDC]$")]


class ActionIn(_ClientMessage):
    type: Literal["action"]
    id: ClientId
    action: Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[a-z_]+$")]
    card: CardName | None = None
    cards: Annotated[list[CardName], Field(max_length=6)] | None = None
    amount: Annotated[int, Field(ge=0, le=1_000_000_000)] | None = None
    # The table version the client acted on: an action taken on a stale view is refused.
    version: Annotated[int, Field(ge=0)] | None = None


class ChatIn(_ClientMessage):
    type: Literal["chat"]
    # One line of plain text, as it is stored and sent to the table (NFC).
    text: Annotated[
        str, Field(min_length=1, max_length=MAX_CHAT_LENGTH), plain_text(MAX_CHAT_LENGTH)
    ]


class PingIn(_ClientMessage):
    type: Literal["ping"]
    nonce: Annotated[int, Field(ge=0, le=2**53)] | None = None


class ResyncIn(_ClientMessage):
    type: Literal["resync"]
    version: Annotated[int, Field(ge=0)]


class EntropyIn(_ClientMessage):
    """A seated player's contribution to the next hand's seed: 32 bytes from the browser's
    cryptographic generator, as 64 lowercase hex digits (one spelling per value, so the
    stored and published form is exactly what was sent)."""

    type: Literal["entropy"]
    value: Annotated[str, Field(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")]


class DealNowIn(_ClientMessage):
    """A seated player would rather deal now than wait out the gathering countdown."""

    type: Literal["deal_now"]


class SuggestIn(_ClientMessage):
    """At a practice table: what would the club-level bot play here, and why?"""

    type: Literal["suggest"]


AnyClientMessage = ActionIn | ChatIn | PingIn | ResyncIn | EntropyIn | SuggestIn | DealNowIn
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_client_adapter: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def parse_client_frame(frame: str | bytes) -> AnyClientMessage:
    """Parse one frame from a client, or raise `ProtocolError`."""
    raw = frame.encode() if isinstance(frame, str) else frame
    if len(raw) > MAX_FRAME_BYTES:
        raise ProtocolError(
            "frame_too_large", _("Messages may not exceed %(limit)d bytes.", limit=MAX_FRAME_BYTES)
        )
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ProtocolError("malformed_json", _("That message is not valid JSON.")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("invalid_message", _("A message is a JSON object with a 'type'."))
    try:
        message = _client_adapter.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ProtocolError(
            "invalid_message",
            _(
                "Invalid message: %(field)s: %(problem)s",
                field=where,
                problem=first.get("msg", "invalid"),
            ),
        ) from None
    return message


class _ServerMessage(BaseModel):
    model_config = ConfigDict(frozen=True)

    def frame(self) -> bytes:
        # Engine payloads key some maps by seat number: JSON writes those keys as strings.
        return orjson.dumps(self.model_dump(exclude_none=True), option=orjson.OPT_NON_STR_KEYS)


class SnapshotOut(_ServerMessage):
    type: Literal["snapshot"] = "snapshot"
    version: int
    view: dict[str, Any]


class EventOut(_ServerMessage):
    type: Literal["event"] = "event"
    version: int
    kind: str
    data: dict[str, Any]


# The two frames every action sends to every seat, built straight from their fields: the
# same bytes as `SnapshotOut(...).frame()` and `EventOut(...).frame()`, without pydantic
# first copying the whole view.


def snapshot_frame(version: int, view: dict[str, Any]) -> bytes:
    return orjson.dumps(
        {"type": "snapshot", "version": version, "view": view}, option=orjson.OPT_NON_STR_KEYS
    )


def event_frame(version: int, kind: str, data: dict[str, Any]) -> bytes:
    return orjson.dumps(
        {"type": "event", "version": version, "kind": kind, "data": data},
        option=orjson.OPT_NON_STR_KEYS,
    )


def public_part(public: Mapping[str, Any]) -> bytes:
    """The viewer-independent part of a view, encoded once per broadcast: every seat's
    snapshot is then this and its own small part (`spliced_snapshot_frame`)."""
    return orjson.dumps(public, option=orjson.OPT_NON_STR_KEYS)


def spliced_snapshot_frame(version: int, public: bytes, private: Mapping[str, Any]) -> bytes:
    """The snapshot frame of a view made of `public` (a JSON object from `public_part`) and
    the viewer's own members (`private`): the same JSON as `snapshot_frame` of the merged
    view, without encoding the public part again for every seat. The two parts never share
    a key."""
    own = orjson.dumps(private, option=orjson.OPT_NON_STR_KEYS)
    if public == b"{}":
        view = own
    elif own == b"{}":
        view = public
    else:
        view = public[:-1] + b"," + own[1:]
    return b'{"type":"snapshot","version":%d,"view":%b}' % (version, view)


def event_frame_of(version: int, kind: str, data: Mapping[str, Any]) -> bytes:
    """`event_frame` for the table's event log, which hands over read-only mappings."""
    return event_frame(version, kind, dict(data))


def hand_log_frame(log: Mapping[str, Any]) -> bytes:
    """The running hand's events a viewer may see (`TableCore.hand_log`), sent on every
    (re)connection: `{"type": "hand_log", "hand": number or null, "events": [...]}`."""
    return orjson.dumps({"type": "hand_log", **log}, option=orjson.OPT_NON_STR_KEYS)


def storage_frame(available: bool) -> bytes:
    """Whether the table's database answers: `{"type": "storage", "available": false}` when
    a write or a read failed and play is paused (actions are refused meanwhile), `true` when
    the table was read back and play resumes (fresh snapshots follow)."""
    return orjson.dumps({"type": "storage", "available": available})


def chat_frame(message_id: int, user: str, text: str, at: datetime, removed: bool) -> bytes:
    """A chat line's frame (a removed line's text is the caller's placeholder)."""
    return ChatOut(
        id=message_id, user=user, text=text, at=at.isoformat(), removed=True if removed else None
    ).frame()


class ErrorOut(_ServerMessage):
    type: Literal["error"] = "error"
    code: str
    message: str
    # The client id of the action this answers, when it answers one.
    ref: str | None = None
    details: dict[str, Any] | None = None


def error_out(error: Exception, ref: str | None = None) -> bytes:
    """The error frame for a refusal (its stable code), or a generic one for a bug."""
    if isinstance(error, SalonError):
        return ErrorOut(
            code=error.code, message=error.message, ref=ref, details=error.details or None
        ).frame()
    return ErrorOut(code="server_error", message=_("Something went wrong."), ref=ref).frame()


class ChatOut(_ServerMessage):
    """A chat line. `removed`: an admin removed it; the page replaces the line with the
    same id (or shows it so, if it had not seen it), and `text` says it was removed."""

    type: Literal["chat"] = "chat"
    id: int
    user: str
    text: str
    at: str
    removed: Literal[True] | None = None


class SuggestionOut(_ServerMessage):
    """The answer to `suggest`: an action as the client would send it, and one sentence."""

    type: Literal["suggestion"] = "suggestion"
    action: dict[str, Any]
    reason: str


class PongOut(_ServerMessage):
    type: Literal["pong"] = "pong"
    nonce: int | None = None


class LivenessOut(_ServerMessage):
    """A socket's first frame: how often the page pings, and how long after a ping it waits
    for any frame before it takes the connection for lost and reconnects."""

    type: Literal["liveness"] = "liveness"
    ping_seconds: float
    timeout_seconds: float
