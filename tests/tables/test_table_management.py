"""Seats and table controls through the REST API, with the runtime live behind them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from websockets.exceptions import InvalidStatus

from app.config import Settings
from app.db.session import Database
from app.services import ledger
from app.services.audit import club_audit
from tests.tables.harness import Room, open_room

NAMES = ["ana", "bob", "cyd"]
TURN = 20


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Club night",
        "game": "bourre",
        "seat_count": 4,
        "buy_in_min": 20,
        "buy_in_max": 200,
        "turn_seconds": TURN,
        "rules": {"declare": "simultaneous"},
    }
    async with open_room(settings, db, table, NAMES, buy_in=100) as room:
        for player in room.players:
            await player.open(room.table_id)
            await player.wait_for(lambda p: p.snapshot is not None)
        yield room


async def balance(room: Room, n: int) -> int:
    body = (await room.players[n].http.get("/api/me")).json()
    return int(body["balance"])


async def start_hand(room: Room) -> None:
    await room.clock.advance(3)
    await room.players[0].wait_for(lambda p: p.hand is not None)


async def let_timer_finish(room: Room) -> dict[str, object]:
    """Nobody acts: the timer passes for everyone (simultaneous: nobody plays)."""
    watcher = room.players[0]
    for _ in range(10):
        if watcher.hand is None:
            break
        before = watcher.version
        await room.clock.advance(TURN)
        await watcher.wait_for(lambda p, v=before: p.version > v)
    result = watcher.view["last_result"]
    assert isinstance(result, dict)
    return result


async def test_standing_up_between_hands_returns_the_stack(room: Room) -> None:
    assert await balance(room, 0) == 900
    response = await room.players[0].post(f"/api/tables/{room.table_id}/stand")
    assert response.json() == {"left": True, "returned": 100}
    assert await balance(room, 0) == 1000
    lobby = (await room.players[1].http.get("/api/tables")).json()
    assert [s["username"] for s in lobby[0]["seats"]] == ["bob", "cyd"]


async def test_standing_up_during_a_hand_waits_for_its_end(room: Room, db: Database) -> None:
    await start_hand(room)
    response = await room.players[0].post(f"/api/tables/{room.table_id}/stand")
    assert response.json()["after_hand"] is True
    top_up = await room.players[0].post(
        f"/api/tables/{room.table_id}/top-up", {"amount": 10, "request_key": "top-000001"}
    )
    assert top_up.json()["error"]["code"] == "hand_in_progress"
    result = await let_timer_finish(room)
    stacks = result["stacks"]
    assert isinstance(stacks, dict)
    # Nobody plays, so the antes stay in the pot — unless an ace was turned, when the
    # dealer may not pass (rules/bourre.md §3) and takes the pot alone.
    assert result["carry"] == 3 or result["winner"] is not None
    assert await balance(room, 0) == 900 + stacks["ana"]  # the stack came back
    assert room.players[0].view["you"]["seat"] is None
    async with db.transaction() as session:
        assert (await club_audit(session)).ok


async def test_a_sitting_out_player_is_not_dealt_in(room: Room) -> None:
    await room.players[2].post(f"/api/tables/{room.table_id}/sit-out")
    await start_hand(room)
    hand = room.players[0].hand
    assert hand is not None
    assert [s["status"] for s in hand["seats"]][:3] == ["deciding", "deciding", "out"]
    await let_timer_finish(room)
    await room.players[2].post(f"/api/tables/{room.table_id}/sit-in")
    await start_hand(room)
    hand = room.players[0].hand
    assert hand is not None and hand["seats"][2]["status"] != "out"


async def test_pause_close_and_the_pot_goes_back(room: Room, db: Database) -> None:
    member = room.players[0]
    refused = await member.post(f"/api/tables/{room.table_id}/pause")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "admin_only"
    assert (await room.owner.post(f"/api/tables/{room.table_id}/pause")).json() == {
        "status": "paused"
    }
    await room.clock.advance(10)
    assert member.view["hand"] is None and member.view["next_hand_in"] is None
    assert (await room.owner.post(f"/api/tables/{room.table_id}/resume")).json() == {
        "status": "open"
    }
    await start_hand(room)
    closing = await room.owner.post(f"/api/tables/{room.table_id}/close")
    assert closing.json() == {"status": "closing"}
    result = await let_timer_finish(room)
    await member.wait_for(lambda p: p.view["table"]["status"] == "closed")
    balances = [await balance(room, n) for n in range(3)]
    assert sum(balances) == 3000  # every stack and the whole pot went back
    if result["carry"] == 3:  # nobody played: each gets back the ante they put in
        assert balances == [1000, 1000, 1000]
    async with db.transaction() as session:
        assert await ledger.balance_of(session, f"pot:{room.table_id}") == 0
        assert (await club_audit(session)).ok
    assert (await member.http.get("/api/tables")).json() == []
    again = await member.post(
        f"/api/tables/{room.table_id}/seat", {"buy_in": 50, "request_key": "late-00001"}
    )
    assert again.json()["error"]["code"] == "table_closed"


async def test_seat_and_buy_in_rules(room: Room) -> None:
    owner = room.owner
    bad = [
        ({"seat": 1, "buy_in": 50, "request_key": "seat-taken1"}, "seat_taken"),
        ({"seat": 3, "buy_in": 500, "request_key": "too-much-01"}, "buy_in_out_of_range"),
        ({"seat": 3, "buy_in": 5, "request_key": "too-little1"}, "buy_in_out_of_range"),
    ]
    for body, code in bad:
        response = await owner.post(f"/api/tables/{room.table_id}/seat", body)
        assert response.json()["error"]["code"] == code, body
    again = await room.players[0].post(
        f"/api/tables/{room.table_id}/seat", {"buy_in": 50, "request_key": "twice-0001"}
    )
    assert again.json()["error"]["code"] == "already_seated"
    broke = await owner.post(
        f"/api/tables/{room.table_id}/seat", {"seat": 3, "buy_in": 20, "request_key": "broke-0001"}
    )
    assert broke.json()["error"]["code"] == "insufficient_funds"  # the owner has no chips


async def test_who_may_open_tables_and_see_private_ones(room: Room) -> None:
    member = room.players[0]
    body = {"name": "Mine", "game": "bourre", "seat_count": 3, "buy_in_min": 10, "buy_in_max": 50}
    refused = await member.post("/api/tables", body)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "admin_only"
    private = await room.owner.post("/api/tables", {**body, "private": True})
    code = private.json()["invite_code"]
    assert code
    table_id = private.json()["id"]
    assert table_id not in [t["id"] for t in (await member.http.get("/api/tables")).json()]
    hidden = await member.http.get(f"/api/tables/{table_id}")
    assert hidden.status_code == 404
    invited = await member.http.get(f"/api/tables/{table_id}", params={"invite": code})
    assert invited.status_code == 200 and invited.json()["invite_code"] is None
    seated = await member.post(
        f"/api/tables/{table_id}/seat",
        {"buy_in": 30, "request_key": "invited-001", "invite_code": code},
    )
    assert seated.status_code == 200
    assert table_id in [t["id"] for t in (await member.http.get("/api/tables")).json()]
    bad_rules = await room.owner.post("/api/tables", {**body, "rules": {"must_trump": "sometimes"}})
    assert bad_rules.json()["error"]["code"] == "invalid_rules"
    # A value of the wrong kind is refused on its option, in the engine's words.
    float_ante = await room.owner.post("/api/tables", {**body, "rules": {"ante": 1.5}})
    assert float_ante.json()["error"]["code"] == "invalid_rules"
    assert float_ante.json()["error"]["details"]["rule"] == "ante"
    # The invalid pairs of bourre.md §4, §5, from the rules or from a preset and a change.
    for pair in (
        {"rules": {"declare": "simultaneous", "draw_with_declare": True}},
        {"preset": "simultaneous_declaration", "rules": {"draw_with_declare": True}},
        {"preset": "friendly", "rules": {"must_trump": "always"}},
    ):
        refused = await room.owner.post("/api/tables", {**body, **pair})
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "invalid_rules" and "cannot be combined with" in error["message"]
    indiana = await room.owner.post("/api/tables", {**body, "preset": "indiana_four_card"})
    assert indiana.status_code == 201 and indiana.json()["rules"]["hand_size"] == 4


async def test_a_private_table_page_and_socket_need_the_invite(room: Room) -> None:
    """A member who neither plays at a private table nor holds its invite code cannot open
    its page or its WebSocket (it looks like no table at all); the invite link opens both."""
    body = {"name": "Back room", "game": "bourre", "seat_count": 3, "buy_in_min": 10,
            "buy_in_max": 50, "private": True}  # fmt: skip
    made = await room.owner.post("/api/tables", body)
    table_id, code = made.json()["id"], made.json()["invite_code"]
    stranger = room.players[1]
    page = await stranger.http.get(f"/tables/{table_id}", headers={"Accept": "text/html"})
    assert page.status_code == 404 and "Back room" not in page.text
    with pytest.raises(InvalidStatus) as refused:
        await stranger.open(table_id)
    assert refused.value.response.status_code == 403
    wrong = await stranger.http.get(f"/tables/{table_id}", params={"invite": "not-the-code"})
    assert wrong.status_code == 404
    invited = await stranger.http.get(f"/tables/{table_id}", params={"invite": code})
    assert invited.status_code == 200 and "Back room" in invited.text
    await stranger.open(table_id, invite=code)
    await stranger.wait_for(lambda p: p.view["table"]["id"] == table_id)
    assert stranger.view["you"] == {"seat": None}
    # The owner (an admin) needs no code.
    await room.owner.open(table_id)
    await room.owner.wait_for(lambda p: p.snapshot is not None)
