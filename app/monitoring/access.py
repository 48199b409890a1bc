"""Who may read /metrics: an operator's Prometheus, not the club's members or the internet.

A scrape is let in with the bearer token (SALON_METRICS_TOKEN, compared in constant time),
or from an address in SALON_METRICS_NETWORKS. The address is the request's client as the app
sees it: behind a reverse proxy listed in SALON_TRUSTED_PROXIES, the browser's address that
proxy forwarded; from any other peer, the peer itself (its X-Forwarded-For is not believed).
A token that is given must be right: a wrong one is refused even from a trusted network
(a misconfigured scraper should fail, not pass by luck of where it runs).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def network_list(value: str) -> list[Network]:
    """Comma-separated addresses or networks (ValueError naming the first that is not)."""
    networks = []
    for entry in (part.strip() for part in value.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"SALON_METRICS_NETWORKS lists {entry!r}, which is not an IP address or "
                "network: give the addresses Prometheus scrapes from, comma-separated, e.g. "
                "127.0.0.1,::1,10.0.0.0/8 (empty: only the token is accepted)"
            ) from None
    return networks


def may_scrape(
    client: str | None, authorization: str | None, token: str, networks: Sequence[Network]
) -> bool:
    if authorization is not None:
        scheme, _, given = authorization.partition(" ")
        return (
            bool(token)
            and scheme.lower() == "bearer"
            and hmac.compare_digest(given.strip().encode(), token.encode())
        )
    return _in_networks(client, networks)


def _in_networks(client: str | None, networks: Sequence[Network]) -> bool:
    if client is None:
        return False
    try:
        address = ipaddress.ip_address(client)
    except ValueError:  # not an address (a Unix socket's peer): not a trusted network
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)
