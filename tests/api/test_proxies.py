"""Behind a reverse proxy: forwarded headers are believed from the trusted proxies only, so
the session cookie is `Secure` when the browser came over HTTPS, and never on a forged word."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.db.session import Database
from app.main import create_app
from tests.helpers import PASSWORD, add_member, found_club

HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


async def _login_cookie_header(settings: Settings, client_address: str) -> str:
    app = create_app(settings)
    transport = httpx.ASGITransport(app=app, client=(client_address, 40000))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://club.test") as client:
            token = (await client.get("/api/auth/csrf", headers=HTTPS)).json()["csrf_token"]
            response = await client.post(
                "/api/auth/login",
                json={"username": "alice", "password": PASSWORD},
                headers={**HTTPS, "X-CSRF-Token": token},
            )
            assert response.status_code == 200, response.text
            return "; ".join(
                value
                for value in response.headers.get_list("set-cookie")
                if "salon_session" in value
            )
    finally:
        await app.state.db.dispose()


@pytest.mark.parametrize(
    ("trusted", "client_address", "secure"),
    [
        ("127.0.0.1", "127.0.0.1", True),
        ("10.0.0.0/8", "10.1.2.3", True),
        ("10.0.0.0/8", "192.0.2.9", False),
        ("", "127.0.0.1", False),
        ("*", "198.51.100.4", True),
    ],
)
async def test_the_cookie_is_secure_only_when_a_trusted_proxy_says_https(
    db: Database, settings: Settings, trusted: str, client_address: str, secure: bool
) -> None:
    await found_club(db)
    await add_member(db, "alice")
    settings = settings.model_copy(update={"trusted_proxies": trusted})
    cookie = await _login_cookie_header(settings, client_address)
    assert "salon_session=" in cookie
    assert ("secure" in cookie.lower().split("; ")) is secure, cookie


def test_trusted_proxies_must_be_addresses(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not an IP address or network"):
        Settings(data_dir=tmp_path, trusted_proxies="10.0.0.1, proxy.local")
    assert Settings(
        data_dir=tmp_path, trusted_proxies=" 10.0.0.1 , 172.18.0.0/16"
    ).trusted_proxy_list == [
        "10.0.0.1",
        "172.18.0.0/16",
    ]
