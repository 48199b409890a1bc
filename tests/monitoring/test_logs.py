"""The log of a real `salon serve`: every line with its time (ISO 8601, UTC), level and
logger; with SALON_LOG_FORMAT=json, one JSON object a line. Each request's id — the one a
proxy sent when it is well formed, a new one otherwise — is in its response's X-Request-ID,
in its lines (the access line with the browser's address behind the trusted proxy, the
traceback of an unexpected error) and on its error page or body, for a member to quote."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx

from tests.live import running_server, salon, salon_env

TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
TEXT_LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: "
)
PAGE_REFERENCE = re.compile(r"<code data-request-id>([^<]+)</code>")
HEX_ID = re.compile(r"^[0-9a-f]{16}$")


def migrated_env(folder: Path, **extra: str) -> dict[str, str]:
    env = salon_env(folder, **extra)
    assert salon("migrate", env=env).returncode == 0
    return env


def access_line(lines: list[dict[str, Any]], request_id: str) -> dict[str, Any]:
    found = [e for e in lines if e["logger"] == "app.access" and e.get("request_id") == request_id]
    assert len(found) == 1, (request_id, lines)
    return found[0]


def test_json_lines_carry_each_request_id_to_headers_pages_and_errors(tmp_path: Path) -> None:
    env = migrated_env(tmp_path, SALON_LOG_FORMAT="json")
    stderr = tmp_path / "stderr.log"
    with running_server(env, stderr_to=stderr) as base, httpx.Client(base_url=base) as client:
        # Through the trusted proxy (127.0.0.1): the browser's address, the proxy's id.
        proxied = client.get(
            "/api/health", headers={"X-Forwarded-For": "198.51.100.7", "X-Request-ID": "edge-42"}
        )
        assert proxied.status_code == 200
        assert proxied.headers["X-Request-ID"] == "edge-42"
        # An id that is not plain and short is replaced by a new one.
        replaced = client.get("/api/health", headers={"X-Request-ID": "no spaces, please"})
        assert HEX_ID.match(replaced.headers["X-Request-ID"])
        # A page that does not exist: its page shows the id.
        missing = client.get("/no-such-page", headers={"Accept": "text/html"})
        assert missing.status_code == 404
        missing_id = missing.headers["X-Request-ID"]
        assert PAGE_REFERENCE.findall(missing.text) == [missing_id]

        # A real unexpected error: the club's table disappears under the running server.
        with sqlite3.connect(tmp_path / "salon.db") as database:
            database.execute("ALTER TABLE club RENAME TO club_gone")
        failed = client.get("/api/club")
        assert failed.status_code == 500
        failed_id = failed.headers["X-Request-ID"]
        assert failed.json()["error"] == {
            "code": "internal_error",
            "message": "Something went wrong on our side. If it happens again, tell an admin.",
            "request_id": failed_id,
        }
        # (Uvicorn closes a connection after an unhandled error: a new one.)
        failed_page = httpx.get(f"{base}/login", headers={"Accept": "text/html"})
        assert failed_page.status_code == 500
        assert PAGE_REFERENCE.findall(failed_page.text) == [failed_page.headers["X-Request-ID"]]

    lines = [json.loads(line) for line in stderr.read_text().splitlines()]
    assert lines
    for entry in lines:
        assert {"time", "level", "logger", "message"} <= entry.keys(), entry
        assert TIME.match(entry["time"]), entry
    # Uvicorn's own lines come out the same way.
    assert any(e["logger"].startswith("uvicorn") for e in lines)

    proxied_line = access_line(lines, "edge-42")
    assert proxied_line["client"] == "198.51.100.7"
    assert (proxied_line["method"], proxied_line["path"], proxied_line["status"]) == (
        "GET",
        "/api/health",
        200,
    )
    assert proxied_line["duration_ms"] >= 0
    assert access_line(lines, replaced.headers["X-Request-ID"])["client"] == "127.0.0.1"
    assert access_line(lines, missing_id)["status"] == 404
    assert access_line(lines, failed_id)["status"] == 500
    # The traceback is logged under the id the member was shown.
    tracebacks = [e for e in lines if e.get("request_id") == failed_id and "exception" in e]
    assert tracebacks and tracebacks[0]["level"] == "ERROR"
    assert "club" in tracebacks[0]["exception"]


def test_text_lines_start_with_the_time_and_the_level(tmp_path: Path) -> None:
    env = migrated_env(tmp_path)
    stderr = tmp_path / "stderr.log"
    with running_server(env, stderr_to=stderr) as base:
        answer = httpx.get(f"{base}/api/health")
        assert answer.status_code == 200
    lines = stderr.read_text().splitlines()
    assert lines
    for line in lines:
        assert TEXT_LINE.match(line), line
    request_id = answer.headers["X-Request-ID"]
    access = [line for line in lines if f"[request {request_id}]" in line]
    assert len(access) == 1
    assert ' INFO app.access: 127.0.0.1 "GET /api/health" 200 ' in access[0]
