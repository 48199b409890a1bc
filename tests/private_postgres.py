"""A PostgreSQL server of a test's own, which the test may stop and start again.

`initdb` makes a throwaway cluster in a temporary folder; the server listens on a free port
of 127.0.0.1 (and a Unix socket in its own folder), with trust authentication and without
fsync (a test's data need not survive a power cut; a stop, even an immediate one, keeps it).
Run as root (CI's machines), the server runs as the `postgres` user, as PostgreSQL insists.
With `tls=True` it also offers TLS, with a self-signed certificate for 127.0.0.1 made by
`openssl` (`certificate`: the file a client trusts it by), and refuses connections over TCP
that do not use TLS — so a client that connects has used it.
Without PostgreSQL's programs the test skips on a developer's machine and fails under
`CI=true`, like every Postgres test.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.databases import postgres_required
from tests.live import free_port


def _programs() -> Path | None:
    """The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`): Debian keeps them
    out of the PATH, in a folder per major version (the newest is taken)."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


class PrivatePostgres:
    def __init__(self, *, tls: bool = False) -> None:
        programs = _programs()
        if programs is None:
            message = "PostgreSQL's server programs (initdb, pg_ctl) are not installed"
            if postgres_required():
                pytest.fail(message, pytrace=False)
            pytest.skip(message)
        self.programs = programs
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="salon-pg-"))
        self.data = self.folder / "data"
        self.tls = tls
        self.certificate = self.folder / "server.crt"
        self._as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of its `salon` database."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/salon"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.programs / program), *args]
        if self._as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{program}: {done.stdout}{done.stderr}"

    def _make_certificate(self) -> None:
        """A self-signed certificate naming 127.0.0.1, and its key (readable by the server
        only, as PostgreSQL insists)."""
        key = self.folder / "server.key"
        done = subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", str(key), "-out", str(self.certificate), "-days", "2",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, f"openssl: {done.stderr}"
        key.chmod(0o600)
        if self._as_root:
            shutil.chown(key, "postgres")

    def create(self) -> None:
        if self.tls:
            self._make_certificate()
        if self._as_root:
            shutil.chown(self.folder, "postgres")
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync",
            "-E", "UTF8",
        )  # fmt: skip
        if self.tls:
            rules = "local all all trust\nhostssl all all 127.0.0.1/32 trust\n"
            (self.data / "pg_hba.conf").write_text(rules)
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "salon")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        if self.tls:
            key = self.folder / "server.key"
            options += f" -c ssl=on -c ssl_cert_file={self.certificate} -c ssl_key_file={key}"
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server: `immediate` as a crash would (recovery on the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def private_postgres(*, tls: bool = False) -> Iterator[PrivatePostgres]:
    server = PrivatePostgres(tls=tls)
    try:
        server.create()
        yield server
    finally:
        server.destroy()
