"""The treasurer's pages and exports after a club night with house bots and a practice
table (tests/club_night_scene.py): bots and practice only on their own lines."""

from __future__ import annotations

import csv
import io

from fastapi import FastAPI

from app.db.session import Database
from tests.api.test_treasury_pages import client_of
from tests.club_night_scene import club_night


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _between(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


async def test_the_sessions_page_keeps_the_house_bots_apart(app: FastAPI, db: Database) -> None:
    await club_night(db)
    admin = await client_of(app, "owner")
    page = (await admin.get("/admin/sessions")).text
    members = _between(page, 'data-testid="sittings"', "</table>")
    assert "(bot)" not in members and "Alice" in members
    bots = _between(page, 'data-testid="bot-sittings"', "</table>")
    assert "Lent by the bank" in bots and bots.count("(bot)") == 2
    transfers = _between(page, 'data-testid="transfers"', "</ul>")
    assert "(bot)" not in transfers and "Table pots" not in transfers
    nets = _between(page, 'data-testid="member-nets"', "</table>")
    assert "(bot)" not in nets
    house_bots = _between(page, 'data-testid="house-bots-line"', "</tr>")
    assert ">-20<" in house_bots
    assert "The house owes the members" in _between(page, 'data-testid="house"', "</table>")

    rows = _csv((await admin.get("/api/admin/treasury/sessions.csv")).text)
    assert {r["member"] for r in rows} == {"Alice", "Bob", "Cyd"}
    assert {r["party"] for r in rows} == {"member"}
    bot_rows = _csv(
        (await admin.get("/api/admin/treasury/sessions.csv", params={"party": "bots"})).text
    )
    assert len(bot_rows) == 2 and {r["party"] for r in bot_rows} == {"house bot"}
    assert sorted(int(r["bought_in"]) for r in bot_rows) == [400, 400]

    settlement = (await admin.get("/api/admin/treasury/settlement")).json()
    assert {n["name"]: n["net"] for n in settlement["nets"]} == {
        "Alice": 10,
        "Bob": 20,
        "Cyd": -20,
    }
    assert settlement["house"] | {"name": ""} == {
        "name": "",
        "bots_net": -20,
        "in_pots": 10,
        "net": -10,
    }
    await admin.aclose()
