"""Who may scrape /metrics, decided from the client's address and the Authorization header
(the live tests in test_metrics.py show the same through a real server and proxy)."""

from __future__ import annotations

import pytest

from app.monitoring.access import may_scrape, network_list

LOCAL = network_list("127.0.0.1,::1")
TOKEN = "scrape-token-0123456789abcdef"


@pytest.mark.parametrize("authorization", [None, "Bearer", "Bearer x", f"Bearer {TOKEN}"])
def test_without_a_token_set_no_token_is_accepted(authorization: str | None) -> None:
    assert not may_scrape("203.0.113.9", authorization, "", LOCAL)


@pytest.mark.parametrize("client", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_the_trusted_network_needs_no_token_but_a_wrong_one_is_refused(client: str) -> None:
    assert may_scrape(client, None, TOKEN, LOCAL)
    assert not may_scrape(client, "Bearer wrong-token-0123456789", TOKEN, LOCAL)


def test_the_token_lets_in_from_anywhere() -> None:
    assert may_scrape("203.0.113.9", f"Bearer {TOKEN}", TOKEN, LOCAL)
    assert may_scrape("203.0.113.9", f"bearer {TOKEN}", TOKEN, LOCAL)
    assert not may_scrape("203.0.113.9", TOKEN, TOKEN, LOCAL)
    assert not may_scrape(None, None, TOKEN, LOCAL)


def test_a_network_that_is_not_one_is_named() -> None:
    with pytest.raises(ValueError, match="SALON_METRICS_NETWORKS lists 'localhost'"):
        network_list("127.0.0.1, localhost")
