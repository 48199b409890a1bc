"""Generated requests (Schemathesis, from the app's own OpenAPI) against a real server on
each database, logged in as the club's owner: nothing may produce a server error.

The schema documents every HTTP route, the pages and their forms too (a test below checks
it against the router table); the table socket is checked by tests/api/test_ids.py and
tests/ws. Examples are derandomized, so a run is the same on every machine.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import requests
import schemathesis
from fastapi.routing import APIRoute, iter_route_contexts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error, response_schema_conformance

from app.config import Settings
from app.main import create_app
from tests.databases import create_postgres_database, drop_postgres_database
from tests.live import running_server, salon, salon_env

EXAMPLES_PER_OPERATION = 25
# Logging out would end the session the rest of the run relies on.
LOGOUTS = ("/api/auth/logout", "/logout")
# Signing up or logging in replaces the cookie of the session that does it.
SIGN_INS = ("/api/auth/", "/login", "/register")


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def live_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    data_dir = tmp_path_factory.mktemp("live")
    database_url = create_postgres_database() if request.param == "postgres" else None
    try:
        env = salon_env(data_dir, database_url)
        assert salon("migrate", env=env).returncode == 0
        demo = salon("demo", env=env)
        found = re.search(r"admin login:\s+admin / (\S+)", demo.stdout)
        assert found, demo.stdout + demo.stderr
        with running_server(env) as base:
            yield base, found.group(1)
    finally:
        if database_url:
            drop_postgres_database(database_url)


@pytest.fixture(scope="module")
def api_schema(live_server: tuple[str, str]) -> schemathesis.BaseSchema:
    base, _ = live_server
    return schemathesis.openapi.from_url(f"{base}/openapi.json").exclude(path=list(LOGOUTS))


def anonymous_session(base: str) -> requests.Session:
    session = requests.Session()
    session.headers["X-CSRF-Token"] = session.get(f"{base}/api/auth/csrf", timeout=10).json()[
        "csrf_token"
    ]
    return session


@pytest.fixture(scope="module")
def owner_session(live_server: tuple[str, str]) -> requests.Session:
    base, password = live_server
    session = requests.Session()
    token = session.get(f"{base}/api/auth/csrf", timeout=10).json()["csrf_token"]
    response = session.post(
        f"{base}/api/auth/login",
        json={"username": "admin", "password": password},
        headers={"X-CSRF-Token": token},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    session.headers["X-CSRF-Token"] = session.cookies["salon_csrf"]
    return session


def exercise(operation: schemathesis.APIOperation, base: str, session: requests.Session) -> None:
    """Send generated requests for one operation; raises on the first failing check."""

    # Valid requests, and requests that break the schema (ids past 2**31 - 1, text where
    # a number belongs...): neither may cause a server error.
    cases = st.one_of(operation.as_strategy(), operation.as_strategy(GenerationMode.NEGATIVE))

    @given(case=cases)
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: schemathesis.Case) -> None:
        case.call_and_validate(
            base_url=base,
            session=session,
            checks=[not_a_server_error, response_schema_conformance],
        )

    run()


def test_no_generated_request_causes_a_server_error(
    api_schema: schemathesis.BaseSchema,
    owner_session: requests.Session,
    live_server: tuple[str, str],
) -> None:
    base, _ = live_server
    failures: list[str] = []
    operations = 0
    for result in api_schema.get_all_operations():
        operation = result.ok()
        operations += 1
        sign_in = operation.path.startswith(SIGN_INS)
        session = anonymous_session(base) if sign_in else owner_session
        try:
            exercise(operation, base, session)
        except Exception as error:  # collect every operation's failure, then report them all
            failures.append(f"{operation.label}: {error}")
    assert operations >= 20
    assert not failures, "\n\n".join(failures)


def test_the_owner_session_survived(
    owner_session: requests.Session, live_server: tuple[str, str]
) -> None:
    """Guards the run above: had the session died early, it would have tested only 401s."""
    base, _ = live_server
    assert owner_session.get(f"{base}/api/me", timeout=10).json()["role"] == "owner"


def test_the_schema_documents_every_route(
    api_schema: schemathesis.BaseSchema, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every HTTP route in the router table, the pages' forms included, is in the run."""
    app = create_app(Settings(env="test", data_dir=tmp_path_factory.mktemp("routes")))
    routes = {
        (method, route.path_format)
        for route in iter_route_contexts(app.routes)
        if isinstance(route.original_route, APIRoute)
        for method in route.methods or ()
        if route.path_format not in LOGOUTS
    }
    documented = {(op.ok().method.upper(), op.ok().path) for op in api_schema.get_all_operations()}
    assert routes - documented == set()
