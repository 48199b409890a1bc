"""The README's "Scripts and the API" example, run as written (bash + curl) against a real
`salon serve` with the demo club: it logs in, reads, grants chips once and logs out."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.live import PROJECT_DIR, running_server, salon, salon_env

MARKER = "<!-- api-login-example:"
LOGIN = re.compile(r"admin login:\s+admin / (\S+)")


def _example() -> str:
    readme = (PROJECT_DIR / "README.md").read_text(encoding="utf-8")
    after = readme[readme.index(MARKER) :]
    found = re.search(r"```sh\n(.*?)```", after, re.DOTALL)
    assert found, "the README's API example is missing"
    return found.group(1)


@pytest.mark.skipif(shutil.which("curl") is None, reason="the example uses curl")
def test_the_readme_api_example_works_as_written(tmp_path: Path) -> None:
    env = salon_env(tmp_path)
    assert salon("migrate", env=env).returncode == 0
    demo = salon("demo", env=env)
    found = LOGIN.search(demo.stdout)
    assert found, demo.stdout
    with running_server(env) as base:
        script_env = {**env, "BASE": base, "SALON_USER": "admin", "SALON_PASSWORD": found[1]}
        outputs = []
        for _ in range(2):
            run = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", _example()],
                env=script_env,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert run.returncode == 0, run.stderr
            outputs.append(run.stdout)
        assert '"username":"admin"' in outputs[0].replace(" ", "")
        assert '"replayed":false' in outputs[0].replace(" ", "")
        assert '"replayed":true' in outputs[1].replace(" ", "")
        # The grant moved 500 chips to member 2 once, and the script's login has ended.
        with httpx.Client(base_url=base) as client:
            token = client.get("/api/auth/csrf").json()["csrf_token"]
            client.post(
                "/api/auth/login",
                json={"username": "admin", "password": found[1]},
                headers={"X-CSRF-Token": token},
            ).raise_for_status()
            members = {m["id"]: m for m in client.get("/api/admin/members").json()}
            assert members[2]["balance"] == 1500
