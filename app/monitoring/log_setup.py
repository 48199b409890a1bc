"""How every `salon` command logs: one handler on stderr, configured once (dictConfig),
for Salon's loggers and Uvicorn's alike.

Each line has its time (ISO 8601, UTC, milliseconds), level and logger, and the id of the
request it was written for (app/monitoring/request_ids.py). `text` (the default) is for
people; `json` is one object a line for log shippers, with the access lines' fields
(client, method, path, status, duration_ms) as fields of their own.
"""

from __future__ import annotations

import logging
import logging.config
from datetime import UTC, datetime
from typing import Any, Literal

import orjson

from app.monitoring.request_ids import current_request_id

LogFormat = Literal["text", "json"]

# Fields an access line carries (app/monitoring/request_log.py).
ACCESS_FIELDS = ("client", "method", "path", "status", "duration_ms")


def utc_time(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class WithRequestId(logging.Filter):
    """Stamps each line with the request being served when it was logged."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get()
        return True


class TextFormatter(logging.Formatter):
    """`2026-05-04T18:02:11.532Z WARNING app.cluster.node: … [request 3f09c2d1]`"""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{utc_time(record)} {record.levelname} {record.name}: {record.getMessage()}"
        request_id = getattr(record, "request_id", None)
        if request_id:
            line += f" [request {request_id}]"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, then what applies."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": utc_time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None)
        if request_id:
            entry["request_id"] = request_id
        for field in ACCESS_FIELDS:
            value = getattr(record, field, None)
            if value is not None:
                entry[field] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(entry, default=str).decode()


def logging_config(log_format: LogFormat) -> dict[str, Any]:
    """The dictConfig of every command: warnings of every part; which tables move between
    processes (app.cluster); each request (app.access) and Uvicorn's start and stop."""
    formatter = JsonFormatter if log_format == "json" else TextFormatter

    def shown(level: str) -> dict[str, Any]:
        return {"level": level, "handlers": [], "propagate": True}

    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": WithRequestId}},
        "formatters": {"salon": {"()": formatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "salon",
                "filters": ["request_id"],
            }
        },
        "root": {"level": "WARNING", "handlers": ["stderr"]},
        "loggers": {
            "app.cluster": shown("INFO"),
            "app.access": shown("INFO"),
            "uvicorn": shown("INFO"),
            "uvicorn.error": shown("INFO"),
            # Replaced by app.access, which knows the request id and the real client.
            "uvicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
        },
    }


def configure_logging(log_format: LogFormat) -> None:
    logging.config.dictConfig(logging_config(log_format))
