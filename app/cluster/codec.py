"""Table commands and their answers as JSON, to reach a table owned by another process.

Only the command types below travel; anything else is refused on both sides. A connection
inside a command (the socket a message came from) travels as a reference the sending
process gives it, and comes out on the owner's side as whatever stands for that socket
there (`connection_for`). Errors keep their code, sentence, status and details.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import Any

from app.errors import SalonError
from app.i18n import _
from app.i18n.negotiation import choose
from app.services.tables import Reply, TableEdit
from app.tables.commands import Act, Command, Connection, Stop
from app.tables.table import ActionRequest

# Every command a table takes travels, but the one that stops its actor: a process stops
# only its own tables.
COMMANDS: dict[str, type[Command]] = {
    kind.__name__: kind for kind in Command.__subclasses__() if kind is not Stop
}
# Values that are neither JSON nor a connection, each under a tag of its own.
_VALUES: dict[str, type[Any]] = {"$action": ActionRequest, "$edit": TableEdit, "$reply": Reply}


class UnknownCommand(SalonError):
    def __init__(self, kind: str) -> None:
        super().__init__("unknown_command", _("A table cannot be asked '%(kind)s'.", kind=kind))


class RemoteError(SalonError):
    """A table's refusal, as the owning process gave it."""

    def __init__(self, code: str, message: str, status: int, details: dict[str, Any]) -> None:
        super().__init__(code, message, **details)
        self.status_code = status


def encode_command(command: Command, reference: Callable[[Connection], str]) -> dict[str, Any]:
    kind = type(command).__name__
    if COMMANDS.get(kind) is not type(command):
        raise UnknownCommand(kind)
    fields = {
        f.name: _encode(getattr(command, f.name), reference)
        for f in dataclasses.fields(command)
        if f.init
    }
    if isinstance(command, Act):
        fields["received"] = None  # another process's clock: not comparable here
    # The asker's language travels with the command: the owner answers in it.
    return {"kind": kind, "fields": fields, "language": command.language}


def decode_command(
    data: dict[str, Any], connection_for: Callable[[dict[str, Any]], Connection]
) -> Command:
    kind = COMMANDS.get(str(data.get("kind")))
    if kind is None:
        raise UnknownCommand(str(data.get("kind")))
    fields = {name: _decode(value, connection_for) for name, value in data["fields"].items()}
    command = kind(**fields)
    command.language = choose(str(data.get("language") or ""), None)
    return command


def encode_answer(value: Any) -> Any:
    return _encode(value, _no_connection)


def decode_answer(value: Any) -> Any:
    return _decode(value, _no_reference)


def encode_error(error: BaseException) -> dict[str, Any]:
    if isinstance(error, SalonError):
        return {
            "code": error.code,
            "message": error.message,
            "status": error.status_code,
            "details": error.details,
        }
    return {
        "code": "internal_error",
        "message": _("The table could not do that; try again."),
        "status": 500,
        "details": {},
    }


def decode_error(data: dict[str, Any]) -> RemoteError:
    return RemoteError(
        str(data["code"]), str(data["message"]), int(data["status"]), dict(data["details"])
    )


def _encode(value: Any, reference: Callable[[Connection], str]) -> Any:
    if isinstance(value, Connection):
        return {
            "$connection": {
                "ref": reference(value),
                "user_id": value.user_id,
                "username": value.username,
            }
        }
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, bytes):
        return {"$bytes": value.hex()}
    for tag, kind in _VALUES.items():
        if isinstance(value, kind):
            return {
                tag: {
                    f.name: _encode(getattr(value, f.name), reference)
                    for f in dataclasses.fields(value)
                }
            }
    if isinstance(value, dict):
        return {"$dict": [[_encode(k, reference), _encode(v, reference)] for k, v in value.items()]}
    if isinstance(value, list | tuple):
        return [_encode(item, reference) for item in value]
    return value


def _decode(value: Any, connection_for: Callable[[dict[str, Any]], Connection]) -> Any:
    if isinstance(value, list):
        return [_decode(item, connection_for) for item in value]
    if not isinstance(value, dict) or len(value) != 1:
        return value
    ((tag, inner),) = value.items()
    if tag == "$connection":
        return connection_for(inner)
    if tag == "$datetime":
        return datetime.fromisoformat(inner)
    if tag == "$bytes":
        return bytes.fromhex(inner)
    if tag == "$dict":
        return {_decode(k, connection_for): _decode(v, connection_for) for k, v in inner}
    kind = _VALUES.get(tag)
    if kind is None:
        return value
    fields = {name: _decode(v, connection_for) for name, v in inner.items()}
    if kind is ActionRequest and fields.get("cards") is not None:
        fields["cards"] = tuple(fields["cards"])
    return kind(**fields)


def _no_connection(connection: Connection) -> str:
    raise TypeError("an answer never carries a connection")


def _no_reference(data: dict[str, Any]) -> Connection:
    raise TypeError("an answer never carries a connection")
