"""A login that ends closes its table sockets at once: logout (REST and the web form), a
ban (REST and the admin page), a password change (the other logins), and expiry. The socket
is told `session_ended` and closed with 4001; the table then treats its member as offline:
the others see it, and the turn timer plays for them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from websockets.exceptions import InvalidStatus

from app.config import Settings
from app.db.models import AuthSession, HandAction, User
from app.db.session import Database
from app.db.types import utcnow
from app.ws.logins import CLOSE_SESSION_ENDED
from tests.helpers import PASSWORD, csrf_headers
from tests.tables.harness import Player, Room, open_room, watch

NAMES = ["ana", "bob", "cyd"]
TURN = 20


@pytest.fixture
async def room(settings: Settings, db: Database) -> AsyncIterator[Room]:
    table = {
        "name": "Logins",
        "game": "bourre",
        "seat_count": 3,
        "buy_in_min": 20,
        "buy_in_max": 200,
        "turn_seconds": TURN,
    }
    async with open_room(settings, db, table, NAMES, buy_in=100) as room:
        await watch(room)
        yield room


async def ended(player: Player) -> None:
    """The socket was told its login ended, and closed with 4001."""
    await player.wait_for(lambda p: any(e["code"] == "session_ended" for e in p.errors()))
    assert player.ws is not None
    await player.ws.wait_closed()
    assert player.ws.close_code == CLOSE_SESSION_ENDED


def seat_online(player: Player, username: str) -> bool:
    return next(s["connected"] for s in player.view["seats"] if s["username"] == username)


async def still_open(player: Player) -> None:
    before = sum(f["type"] == "pong" for f in player.frames)
    await player.send({"type": "ping"})
    await player.wait_for(lambda p: sum(f["type"] == "pong" for f in p.frames) > before)


async def second_login(room: Room, username: str) -> Player:
    other = Player(room.host, username)
    await other.login()
    await other.open(room.table_id)
    await other.wait_for(lambda p: p.snapshot is not None)
    return other


async def member_id(player: Player) -> int:
    return int((await player.http.get("/api/me")).json()["id"])


async def test_a_ban_closes_the_members_sockets_and_the_timer_plays_for_them(
    room: Room, db: Database
) -> None:
    await room.clock.advance(3)
    watcher = room.players[0]
    await watcher.wait_for(lambda p: p.hand is not None)
    seat = watcher.hand["to_act"][0]  # type: ignore[index]
    banned, others = room.players[seat], [p for p in room.players if p is not room.players[seat]]
    for other in others:  # ban the one to act: their turn must not wait on a dead socket
        await other.wait_for(lambda p: p.hand is not None)
    answer = await room.owner.post(f"/api/admin/members/{await member_id(banned)}/ban")
    assert answer.status_code == 200, answer.text
    await ended(banned)
    for other in others:
        await other.wait_for(lambda p: not seat_online(p, banned.username))
    # Nothing more from them: a new socket is refused at the handshake.
    with pytest.raises(InvalidStatus):
        await banned.open(room.table_id)
    async with db.transaction() as session:
        stored = await session.scalar(select(func.count()).select_from(HandAction))
    # Their turn runs out on the timer (offline players are not waited for).
    version = others[0].version
    await room.clock.advance(TURN)
    await others[0].wait_for(lambda p: p.version > version)
    hand = others[0].hand
    assert hand is not None and seat not in hand["to_act"]
    async with db.transaction() as session:
        timed_out = await session.scalar(
            select(func.count()).select_from(HandAction).where(HandAction.user_id.is_(None))
        )
        assert await session.scalar(select(func.count()).select_from(HandAction)) == stored + 1
    assert timed_out == 1


async def test_the_admin_pages_ban_closes_the_sockets_too(room: Room) -> None:
    banned = room.players[1]
    owner = room.owner.http
    token = (await owner.get("/api/auth/csrf")).json()["csrf_token"]
    page = await owner.post(
        f"/admin/members/{await member_id(banned)}/ban", data={"csrf_token": token}
    )
    assert page.status_code == 200, page.text
    await ended(banned)
    await room.players[0].wait_for(lambda p: not seat_online(p, banned.username))


async def test_logout_closes_that_logins_sockets_and_no_other(room: Room) -> None:
    ana = room.players[0]
    phone = await second_login(room, "ana")
    try:
        answer = await ana.post("/api/auth/logout")
        assert answer.status_code == 204
        await ended(ana)
        await still_open(phone)
        # Still online through the other login: nobody was told otherwise.
        assert seat_online(room.players[1], "ana")
        answer = await phone.http.post(
            "/logout", data={"csrf_token": phone.http.cookies["salon_csrf"]}
        )
        assert answer.status_code in (200, 303), answer.text
        await ended(phone)
        await room.players[1].wait_for(lambda p: not seat_online(p, "ana"))
    finally:
        await phone.close()
        await phone.http.aclose()


async def test_a_password_change_closes_the_other_logins_sockets(room: Room) -> None:
    ana = room.players[0]
    phone = await second_login(room, "ana")
    try:
        answer = await phone.http.post(
            "/api/auth/password",
            json={"current_password": PASSWORD, "new_password": "an0ther-l0ng-passphrase"},
            headers=csrf_headers(phone.http),
        )
        assert answer.status_code == 204, answer.text
        await ended(ana)
        await still_open(phone)
    finally:
        await phone.close()
        await phone.http.aclose()


async def test_a_socket_ends_when_its_login_expires(room: Room, db: Database) -> None:
    ana = room.players[0]
    await ana.close()
    async with db.transaction() as session:  # ana logged in long ago: an hour is left
        user_id = await session.scalar(select(User.id).where(User.username == "ana"))
        await session.execute(
            update(AuthSession)
            .where(AuthSession.user_id == user_id)
            .values(expires_at=utcnow() + timedelta(hours=1))
        )
    await ana.open(room.table_id)
    await ana.wait_for(lambda p: p.snapshot is not None)
    await room.clock.advance(3600 - 60)
    await still_open(ana)
    await room.clock.advance(120)
    await ended(ana)
    await room.players[1].wait_for(lambda p: not seat_online(p, "ana"))
