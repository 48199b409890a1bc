"""The treasurer's pages and exports after a club night with house bots and a practice
table (tests/club_night_scene.py): bots and practice only on their own lines."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import sys

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


async def test_the_dashboard_says_once_what_members_hold_as_the_audit_does(
    app: FastAPI, db: Database, database_url: str
) -> None:
    await club_night(db)
    admin = await client_of(app, "owner")
    page = (await admin.get("/admin")).text
    audit = (await admin.get("/api/admin/audit")).json()
    await admin.aclose()
    # One statement of what members hold, with its parts beside it.
    assert page.count("held by members") == 1
    figure = {
        name: int(_between(page, f'data-testid="{name}">', "<"))
        for name in ("held-by-members", "members-balances", "members-stacks", "bot-stacks", "pots")
    }
    assert figure == {
        "held-by-members": 3010,
        "members-balances": 2610,
        "members-stacks": 400,
        "bot-stacks": 300,
        "pots": 10,
    }
    assert figure["held-by-members"] == figure["members-balances"] + figure["members-stacks"]
    assert int(_between(page, 'data-testid="circulation-total">', "<")) == 3320
    assert audit["chips_in_circulation"] == 3320
    assert audit["circulation"]["held_by_members"] == 3010
    assert audit["circulation"]["bot_stacks"] == 300
    # Hands today: the club's three, the practice hand said apart.
    assert _between(page, 'data-testid="hands-today">', "<") == "3"
    assert "1 at practice tables" in _between(page, 'data-testid="practice-hands-today">', "<")
    recent = _between(page, 'data-testid="recent-ledger"', "</table>")
    assert "play-money" not in recent and "Play money" not in recent

    audit_run = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "app.cli",
        "audit",
        env={**os.environ, "DATABASE_URL": database_url},
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await audit_run.communicate()
    said = out.decode()
    assert audit_run.returncode == 0, said
    assert "chips in circulation: 3320" in said
    assert "held by members: 3010 (balances 2610 + stacks 400)" in said
    assert "house bots' stacks: 300" in said


async def test_my_hands_and_their_exports_leave_practice_apart(app: FastAPI, db: Database) -> None:
    night = await club_night(db)
    cyd = await client_of(app, "cyd")
    stats = (await cyd.get("/api/hands/stats")).json()
    practice_stats = (await cyd.get("/api/hands/stats", params={"practice": "true"})).json()
    mine = _csv((await cyd.get("/api/hands/mine.csv")).text)
    mine_practice = _csv((await cyd.get("/api/hands/mine.csv?practice=true")).text)
    listed = (await cyd.get("/api/hands")).json()["hands"]
    await cyd.aclose()
    assert stats["by_game"]["bourre"]["hands"] == 1 and stats["by_game"]["bourre"]["net"] == -20
    assert practice_stats["by_game"]["bourre"]["net"] == 70
    assert [(r["table_id"], r["net"], r["practice"]) for r in mine] == [
        (str(night.table_id), "-20", "False")
    ]
    assert [(r["table_id"], r["net"], r["practice"]) for r in mine_practice] == [
        (str(night.practice_id), "70", "True")
    ]
    assert {h["table_id"] for h in listed} == {night.table_id}

    admin = await client_of(app, "owner")
    exported = _csv((await admin.get("/api/admin/hands/export?format=csv")).text)
    practice = _csv((await admin.get("/api/admin/hands/export?format=csv&practice=true")).text)
    ledger_csv = _csv((await admin.get("/api/admin/treasury/ledger.csv")).text)
    play_csv = _csv((await admin.get("/api/admin/treasury/ledger.csv?practice=true")).text)
    play_page = (await admin.get("/admin/ledger?chips=practice")).text
    raw = _csv((await admin.get("/api/admin/ledger.csv")).text)
    raw_play = _csv((await admin.get("/api/admin/ledger.csv?practice=true")).text)
    await admin.aclose()

    def play_money(key: str) -> bool:
        return key in ("play:bank", f"pot:{night.practice_id}") or key.startswith(
            f"seat:{night.practice_id}:"
        )

    assert raw and not any(play_money(r["from_account"]) for r in raw)
    assert raw_play and all(
        play_money(r["from_account"]) and play_money(r["to_account"]) for r in raw_play
    )
    assert {r["table_id"] for r in exported} == {str(night.table_id)}
    assert {r["table_id"] for r in practice} == {str(night.practice_id)}
    assert {r["practice"] for r in practice} == {"True"}
    assert not any(r["from_account"].startswith("play:") for r in ledger_csv)
    assert play_csv and all(r["table"] == "Cyd's practice" for r in play_csv)
    assert "Practice tables: play money" in play_page
