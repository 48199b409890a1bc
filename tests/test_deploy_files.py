"""The deployment files keep their promises: the compose file restarts every service and
publishes nothing beyond this machine but its HTTPS proxy, the installs go through the lock
file, the systemd units and the TLS proxies pass what Salon needs. Each file is also checked
by the tool that reads it (docker compose, systemd-analyze, caddy, nginx) when that tool is
installed; without it, that one check is skipped and the file's text is still checked."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.live import PROJECT_DIR, free_port, running_server, salon, salon_env

DEPLOY = PROJECT_DIR / "deploy"
LOOPBACK = ("127.0.0.1", "::1", "localhost")
RESTARTING = {"always", "unless-stopped", "on-failure"}


def _run(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, timeout=60, check=False, **options
    )


# --- docker-compose.yml ------------------------------------------------------------------


def _compose_file() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
    return loaded


def _host_address(port: str | dict[str, Any]) -> str | None:
    """The address a `ports` entry publishes on (None: every interface), in the short form
    (`127.0.0.1:8000:80`) and the long one that `docker compose config` writes."""
    if isinstance(port, dict):
        return port.get("host_ip")
    parts = str(port).rsplit(":", 2)
    return parts[0].strip("[]") if len(parts) == 3 else None


def _assert_compose_promises(services: dict[str, Any]) -> None:
    for name, service in services.items():
        assert "restart" in service, f"service {name} has no restart policy"
        long_running = service["restart"] in RESTARTING
        # Only the schema upgrade is a one-shot that must not run again by itself.
        assert long_running or name == "migrate", f"{name} restarts {service['restart']!r}"
        for port in service.get("ports", []):
            assert _host_address(port) in LOOPBACK, f"{name} publishes {port} on every interface"
    # The Salon processes are reached through nginx only, and their health is /api/health.
    assert "ports" not in services["salon"]
    assert "/api/health" in " ".join(services["salon"]["healthcheck"]["test"])
    # The HTTPS proxy listens on the host's network (80/443) and proxies to nginx's port.
    assert services["caddy"]["network_mode"] == "host"
    assert services["caddy"]["environment"]["SALON_UPSTREAMS"] == "127.0.0.1:8000"


def test_the_compose_file_restarts_every_service_and_publishes_on_the_loopback_only() -> None:
    _assert_compose_promises(_compose_file()["services"])


def test_the_promise_checks_catch_the_mistakes_they_are_for() -> None:
    services = _compose_file()["services"]
    without_restart = {
        **services,
        "db": {k: v for k, v in services["db"].items() if k != "restart"},
    }
    with pytest.raises(AssertionError, match="db has no restart policy"):
        _assert_compose_promises(without_restart)
    everywhere = {**services, "nginx": {**services["nginx"], "ports": ["8000:80"]}}
    with pytest.raises(AssertionError, match="on every interface"):
        _assert_compose_promises(everywhere)


def _compose_client() -> list[str] | None:
    """`docker compose` (the plugin) or `docker-compose` (Debian's), whichever answers."""
    if shutil.which("docker") and _run(["docker", "compose", "version"]).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


@pytest.fixture
def compose_project(tmp_path: Path) -> Path:
    """The compose file with a .env made from .env.example as the README says (a secret
    key and a database password filled in); no Docker engine is needed to read them."""
    shutil.copy(PROJECT_DIR / "docker-compose.yml", tmp_path)
    example = (PROJECT_DIR / ".env.example").read_text()
    filled = example.replace("SECRET_KEY=\n", f"SECRET_KEY={'k' * 48}\n").replace(
        "POSTGRES_PASSWORD=\n", "POSTGRES_PASSWORD=a-database-password\n"
    )
    assert filled != example
    (tmp_path / ".env").write_text(filled)
    return tmp_path


def test_docker_compose_config_accepts_the_file_and_keeps_its_promises(
    compose_project: Path,
) -> None:
    client = _compose_client()
    if client is None:
        pytest.skip("no docker compose client (Debian's docker-compose package)")
    result = _run([*client, "--profile", "tls", "config"], cwd=compose_project)
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)["services"]
    _assert_compose_promises(resolved)
    assert resolved["salon"]["environment"]["DATABASE_URL"].startswith(
        "postgresql://salon:a-database-password@db:5432/"
    )
    assert resolved["caddy"]["environment"]["SALON_DOMAIN"] == "cards.example.org"

    # Without the database password, compose refuses and says which setting is missing.
    env_file = compose_project / ".env"
    env_file.write_text(env_file.read_text().replace("a-database-password", ""))
    refused = _run([*client, "config"], cwd=compose_project)
    assert refused.returncode != 0
    assert "set POSTGRES_PASSWORD in .env" in refused.stderr


def test_the_compose_healthcheck_passes_against_a_live_salon_only(tmp_path: Path) -> None:
    """The salon service's healthcheck, run as written (its port moved to the test
    server's), succeeds against a serving Salon and fails where nothing answers."""
    command = _compose_file()["services"]["salon"]["healthcheck"]["test"]
    assert command[:2] == ["CMD", "python"]
    probe = [sys.executable, *command[2:]]
    env = salon_env(tmp_path)
    assert salon("migrate", env=env).returncode == 0
    with running_server(env) as base:
        port = base.rsplit(":", 1)[1]
        healthy = _run([arg.replace(":8000/", f":{port}/") for arg in probe])
        assert healthy.returncode == 0, healthy.stderr
    nobody = _run([arg.replace(":8000/", f":{free_port()}/") for arg in probe])
    assert nobody.returncode != 0


# --- The lock file -------------------------------------------------------------------------

LOCK = PROJECT_DIR / "constraints.txt"


def _locked() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text().splitlines():
        requirement = line.split("#", 1)[0].strip()
        if requirement:
            name, _, pinned = requirement.split(";", 1)[0].strip().partition("==")
            assert pinned, f"constraints.txt: {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = pinned.strip()
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["project"]
    extras = [text for extra in project["optional-dependencies"].values() for text in extra]
    return [Requirement(text) for text in [*project["dependencies"], *extras]]


def test_the_lock_pins_every_declared_library_within_its_bounds() -> None:
    """Whoever adds a library to pyproject.toml refreshes the lock (`make lock`)."""
    pins = _locked()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in constraints.txt: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name}=={pins[name]}, outside {requirement}: run `make lock`"
        )


def test_this_environment_was_installed_from_the_lock() -> None:
    """The Makefile (and so CI) installs through the lock: what is installed is what is
    pinned (libraries for other platforms are not installed at all)."""
    drifted = []
    for name, pinned in _locked().items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue
        if installed != pinned:
            drifted.append(f"{name} {installed} (locked {pinned})")
    assert not drifted, f"installed apart from constraints.txt, run make: {drifted}"


def test_every_install_goes_through_the_lock() -> None:
    makefile = (PROJECT_DIR / "Makefile").read_text()
    assert "CONSTRAINTS := constraints.txt" in makefile
    installs = [line for line in makefile.splitlines() if re.search(r" -e ['.]", line)]
    assert len(installs) == 2 and all("$(PIP_INSTALL)" in line for line in installs), installs
    assert "PIP_INSTALL := $(BIN)/pip install --constraint $(CONSTRAINTS)" in makefile
    assert re.search(r"^lock:", makefile, re.MULTILINE)
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    assert "COPY pyproject.toml constraints.txt" in dockerfile
    assert "pip install --no-cache-dir --constraint constraints.txt -e ." in dockerfile
    assert "make test" in (PROJECT_DIR / ".ci" / "run").read_text()


# --- systemd -------------------------------------------------------------------------------


def _unit(name: str) -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in (DEPLOY / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        else:
            key, _, value = line.partition("=")
            current.setdefault(key, []).append(value)
    return sections


@pytest.mark.parametrize("name", ["salon@.service", "salon-migrate.service"])
def test_the_units_run_salon_as_its_own_user_hardened(name: str) -> None:
    service = _unit(name)["Service"]
    assert service["User"] == ["salon"]
    assert service["EnvironmentFile"] == ["/etc/salon/salon.env"]
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "StateDirectory": "salon",
    }.items():
        assert service[key] == [value], key
    # The one place it writes, under ProtectSystem=strict, is its data directory.
    assert "SALON_DATA_DIR=/var/lib/salon" in service["Environment"][0].split()
    assert service["ReadWritePaths"] == ["/var/lib/salon"]


def test_one_unit_per_port_after_the_schema_upgrade() -> None:
    unit = _unit("salon@.service")
    command = shlex.split(unit["Service"]["ExecStart"][0])
    assert command[0].endswith("/bin/salon") and command[1] == "serve"
    assert command[command.index("--port") + 1] == "%i"
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert unit["Service"]["Restart"] == ["on-failure"]
    # A setup mistake (status 2) is said once, not repeated every two seconds.
    assert unit["Service"]["RestartPreventExitStatus"] == ["2"]
    # Long enough for the tables to hand over at SIGTERM (app/cluster/node.py).
    assert 20 <= int(unit["Service"]["TimeoutStopSec"][0]) <= 120
    assert "salon-migrate.service" in unit["Unit"]["Requires"][0].split()
    assert "salon-migrate.service" in unit["Unit"]["After"][0].split()
    migrate = _unit("salon-migrate.service")["Service"]
    assert migrate["Type"] == ["oneshot"] and migrate["RemainAfterExit"] == ["yes"]
    assert shlex.split(migrate["ExecStart"][0])[1:] == ["migrate"]


def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("no systemd-analyze")
    # The units name /opt/salon's venv; here they run this checkout's `salon` instead.
    here = str(Path(sys.executable).parent / "salon")
    for name in ("salon-migrate.service", "salon@.service"):
        text = (DEPLOY / name).read_text().replace("/opt/salon/.venv/bin/salon", here)
        (tmp_path / name).write_text(text)
    shutil.copy(tmp_path / "salon@.service", tmp_path / "salon@8001.service")
    units = [str(tmp_path / "salon@8001.service"), str(tmp_path / "salon-migrate.service")]
    verified = _run(["systemd-analyze", "verify", "--man=no", *units])
    # systemd-analyze exits 0 on a setting it ignores; what it says about the files counts.
    said = [line for line in verified.stderr.splitlines() if str(tmp_path) in line]
    assert verified.returncode == 0 and not said, verified.stderr


# --- The HTTPS proxies ---------------------------------------------------------------------


def test_the_caddyfile_proxies_to_salon_with_hsts() -> None:
    text = (DEPLOY / "Caddyfile").read_text()
    assert re.search(r"^\{\$SALON_DOMAIN[:}]", text, re.MULTILINE)
    assert "reverse_proxy {$SALON_UPSTREAMS:127.0.0.1:8000}" in text
    assert 'Strict-Transport-Security "max-age=31536000"' in text


@pytest.fixture
def caddy_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    if shutil.which("caddy") is None:
        pytest.skip("no caddy (Debian's caddy package)")
    # Caddy keeps its state under HOME / XDG_*: a scratch place, not the user's.
    yield {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "SALON_DOMAIN": "cards.example.org",
        "SALON_UPSTREAMS": "127.0.0.1:8001 127.0.0.1:8002",
    }


def test_caddy_reads_the_caddyfile_as_https_for_the_domain_to_each_process(
    caddy_env: dict[str, str],
) -> None:
    caddyfile = str(DEPLOY / "Caddyfile")
    adapted = _run(
        ["caddy", "adapt", "--config", caddyfile, "--adapter", "caddyfile"], env=caddy_env
    )
    assert adapted.returncode == 0, adapted.stderr
    (server,) = json.loads(adapted.stdout)["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]
    (route,) = server["routes"]
    assert route["match"] == [{"host": ["cards.example.org"]}]
    handlers = json.dumps(route["handle"])
    assert '"upstreams": [{"dial": "127.0.0.1:8001"}, {"dial": "127.0.0.1:8002"}]' in handlers
    validated = _run(
        ["caddy", "validate", "--config", caddyfile, "--adapter", "caddyfile"], env=caddy_env
    )
    assert validated.returncode == 0, validated.stderr


def _locations(text: str) -> dict[str, str]:
    return dict(re.findall(r"location\s+(\S+)\s*\{([^}]*)\}", text))


def test_the_nginx_tls_example_passes_the_headers_salon_believes() -> None:
    text = (DEPLOY / "nginx-tls.conf").read_text()
    assert "listen 443 ssl" in text and "return 301 https://" in text
    upstream = re.search(r"upstream salon \{([^}]*)\}", text)
    assert upstream and re.findall(r"server (\S+)", upstream.group(1)) == [
        "127.0.0.1:8001",
        "127.0.0.1:8002",
    ]
    proxied = {path: body for path, body in _locations(text).items() if "proxy_pass" in body}
    assert set(proxied) == {"/ws/", "/"}
    # A location that sets one header drops the server's: each states all of them.
    for path, body in proxied.items():
        for header in ("Host $http_host", "X-Forwarded-For $proxy_add_x_forwarded_for"):
            assert f"proxy_set_header {header};" in body, (path, header)
        assert "proxy_set_header X-Forwarded-Proto $scheme;" in body, path
    assert "proxy_set_header Upgrade $http_upgrade;" in proxied["/ws/"]


def _nginx_test(tmp_path: Path, included: str) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on a main file that includes `included`, with scratch paths for what
    nginx writes (it neither listens nor connects when it only tests)."""
    main = tmp_path / "nginx-main.conf"
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {tmp_path}/body;\n"
        f"  proxy_temp_path {tmp_path}/proxy;\n  include {included};\n}}\n"
    )
    return _run(
        [_nginx(), "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(main)]
    )


@pytest.fixture
def nginx_present() -> None:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.skip("no nginx (Debian's nginx package)")
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make the test certificate")
    if os.geteuid() != 0:
        pytest.skip("nginx -t reaches its compiled-in paths (/var/lib/nginx) as root only")


def _nginx() -> str:
    return shutil.which("nginx") or "/usr/sbin/nginx"


def test_nginx_accepts_the_tls_example(tmp_path: Path, nginx_present: None) -> None:
    # A self-signed certificate where the example names Let's Encrypt's.
    certificate, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    made = _run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=cards.example.org", "-keyout", str(key), "-out", str(certificate)]
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    text = (DEPLOY / "nginx-tls.conf").read_text()
    live = "/etc/letsencrypt/live/cards.example.org"
    assert f"{live}/fullchain.pem" in text and f"{live}/privkey.pem" in text
    (tmp_path / "salon.conf").write_text(text.replace(live, str(tmp_path)))
    checked = _nginx_test(tmp_path, str(tmp_path / "salon.conf"))
    assert checked.returncode == 0, checked.stderr


def test_nginx_accepts_the_compose_files_nginx_conf(tmp_path: Path, nginx_present: None) -> None:
    checked = _run(
        [_nginx(), "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
         "-g", f"pid {tmp_path}/nginx.pid;", "-c", str(DEPLOY / "nginx.conf")]
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
