"""DATABASE_URL with TLS as hosted PostgreSQL providers write it (`?sslmode=…`) or as asyncpg
does (`?ssl=…`): every command connects with it — `salon migrate` (Alembic), `salon audit`,
`salon serve` — against a real server offering TLS with a self-signed certificate, which
refuses plain connections."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import running_server, salon, salon_env
from tests.private_postgres import PrivatePostgres, private_postgres


@pytest.fixture(scope="module")
def tls_server() -> Iterator[PrivatePostgres]:
    with private_postgres(tls=True) as server:
        yield server


def _url(server: PrivatePostgres, query: str) -> str:
    return f"postgresql://postgres@127.0.0.1:{server.port}/salon?{query}"


def _succeeds(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, (result.stdout, result.stderr)


def test_sslmode_disable_on_the_local_server(tmp_path: Path) -> None:
    scratch = create_postgres_database()
    try:
        url = scratch.replace("postgresql+asyncpg://", "postgresql://", 1) + "?sslmode=disable"
        env = salon_env(tmp_path, url)
        _succeeds(salon("migrate", env=env))
        audit = salon("audit", env=env)
        _succeeds(audit)
        assert "ledger OK" in audit.stdout
    finally:
        drop_postgres_database(scratch)


def test_migrate_audit_and_serve_over_tls(tls_server: PrivatePostgres, tmp_path: Path) -> None:
    trusted = f"sslrootcert={tls_server.certificate}"
    env = salon_env(tmp_path, _url(tls_server, "sslmode=require"))
    _succeeds(salon("migrate", env=env))
    for query in ("sslmode=require", f"sslmode=verify-full&{trusted}", "ssl=require"):
        env = salon_env(tmp_path, _url(tls_server, query))
        audit = salon("audit", env=env)
        _succeeds(audit)
        assert "ledger OK" in audit.stdout
    with running_server(salon_env(tmp_path, _url(tls_server, "sslmode=require"))) as base:
        assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200


def test_a_certificate_from_another_authority_is_one_sentence(
    tls_server: PrivatePostgres, tmp_path: Path
) -> None:
    stranger = tmp_path / "other-ca.crt"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(tmp_path / "other-ca.key"), "-out", str(stranger),
         "-days", "2", "-subj", "/CN=Another authority"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    env = salon_env(tmp_path, _url(tls_server, f"sslmode=verify-full&sslrootcert={stranger}"))
    for command in ("migrate", "audit"):
        result = salon(command, env=env)
        assert result.returncode == 2, (result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
        assert f"127.0.0.1:{tls_server.port} presented a certificate" in lines[0]
        assert "sslrootcert=" in lines[0]


def test_a_tls_mode_that_does_not_exist_names_the_setting(tmp_path: Path) -> None:
    env = salon_env(tmp_path, "postgres://postgres@db.example.org/salon?sslmode=required")
    result = salon("migrate", env=env)
    assert result.returncode == 2, result.stderr
    assert "DATABASE_URL's sslmode=required is not a TLS mode" in result.stderr
    assert "verify-full" in result.stderr


def test_a_certificate_file_that_is_missing_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "provider-ca.pem"
    url = f"postgres://postgres@db.example.org/salon?sslmode=verify-full&sslrootcert={missing}"
    result = salon("migrate", env=salon_env(tmp_path, url))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"DATABASE_URL's sslrootcert={missing} is not a file" in result.stderr
