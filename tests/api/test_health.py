import httpx

from app.db.session import Database


async def test_health_reports_the_database_kind(client: httpx.AsyncClient, db: Database) -> None:
    response = await client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": db.kind}
    assert db.kind in ("sqlite", "postgresql")


async def test_openapi_is_served(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    assert "/api/admin/chips/grant" in schema["paths"]
    assert (await client.get("/docs")).status_code == 200


async def test_unknown_route_gives_a_coded_error(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
