"""GET /metrics: this process's figures in the Prometheus text format (docs/monitoring.md).

Anyone who may not scrape gets the same 404 as for a page that does not exist: nothing of
the club's figures, nor a hint of which of the two keys was missing.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import PlainTextResponse
from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder
from prometheus_client.process_collector import ProcessCollector
from starlette.exceptions import HTTPException

from app.config import Settings
from app.monitoring.access import may_scrape, network_list
from app.monitoring.collector import SalonCollector
from app.monitoring.loop_lag import LoopLag
from app.tables.manager import TableManager
from app.ws.logins import LoginSockets

router = APIRouter(tags=["monitoring"])


def metrics_registry(
    tables: TableManager, logins: LoginSockets, loop_lag: LoopLag
) -> CollectorRegistry:
    """The app's own registry (not prometheus-client's global one: several apps may live in
    one process, as in the tests): Salon's figures and the process's (CPU, memory, files)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(SalonCollector(tables, logins, loop_lag))
    ProcessCollector(registry=registry)
    return registry


def install_metrics(app: FastAPI, settings: Settings, registry: CollectorRegistry) -> None:
    app.state.metrics_registry = registry
    app.state.metrics_networks = network_list(settings.metrics_networks)
    app.include_router(router)


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={
        200: {"description": "This process's figures (docs/monitoring.md)"},
        404: {"description": "Neither the metrics token nor a trusted network"},
    },
)
async def metrics(request: Request) -> Response:
    """For the club's operators (Prometheus): this process's figures in the Prometheus
    text format, with the bearer token SALON_METRICS_TOKEN or from SALON_METRICS_NETWORKS."""
    settings: Settings = request.app.state.settings
    allowed = may_scrape(
        request.client.host if request.client else None,
        request.headers.get("authorization"),
        settings.metrics_token,
        request.app.state.metrics_networks,
    )
    if not allowed:
        raise HTTPException(404, "Not Found")
    # The text format, or OpenMetrics for a scraper that asks for it.
    encode, content_type = choose_encoder(request.headers.get("accept", ""))
    return Response(encode(request.app.state.metrics_registry), media_type=content_type)
