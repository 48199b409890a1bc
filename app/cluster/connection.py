"""The Redis client a process serving a club with others uses.

Its retries are set here rather than left to the client library's defaults (which changed
between versions, and lately retry a failed command ten times over several seconds): one
immediate retry replaces a connection that Redis's restart left dead in the pool, and
otherwise a command fails at once, so that an outage is noticed and told (app/cluster/bus.py)
instead of holding up every request and every lease renewal for seconds.
"""

from __future__ import annotations

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

# A Redis that does not accept a connection within this time counts as away.
CONNECT_SECONDS = 2.0


def connect(url: str) -> Redis:
    return Redis.from_url(
        url, retry=Retry(NoBackoff(), retries=1), socket_connect_timeout=CONNECT_SECONDS
    )
