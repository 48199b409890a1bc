"""A small club evening for the treasurer's tests: two members sit at 'Cajun Bourré', a
hand moves chips through the pot, one tops up, both stand up; a third is still seated."""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models import Hand, User
from app.db.session import Database
from app.db.types import utcnow
from app.services import ledger
from app.services import tables as table_service
from tests.helpers import add_member, found_club

TABLE_NAME = "Cajun Bourré"


@dataclass(frozen=True, slots=True)
class Scene:
    owner: int
    alice: int
    bob: int
    cyd: int
    table_id: int
    hand_id: int


async def settle(db: Database, table_id: int, hand_id: int, *moves: tuple[str, str, int]) -> None:
    """A hand's settlement as services.hands posts it: stacks to the pot, the pot to stacks."""
    async with db.transaction() as session:
        await ledger.post(
            session,
            idempotency_key=f"hand:{hand_id}:settle",
            kind="settlement",
            reason=f"Hand 1 at table {table_id}",
            actor_id=None,
            movements=[ledger.Movement(*m) for m in moves],
        )


async def evening(db: Database) -> Scene:
    owner = await found_club(db)
    alice = await add_member(db, "alice", chips=500)
    bob = await add_member(db, "bob", chips=500)
    cyd = await add_member(db, "cyd", chips=500)
    async with db.transaction() as session:
        admin = await session.get(User, owner)
        assert admin is not None
        table = await table_service.create_table(
            session,
            admin,
            table_service.TableSpec(
                name=TABLE_NAME,
                game="bourre",
                rules={},
                seat_count=4,
                buy_in_min=20,
                buy_in_max=400,
            ),
        )
        table_id = table.id
        for member, seat in ((alice, 0), (bob, 1), (cyd, 2)):
            user = await session.get(User, member)
            assert user is not None
            await table_service.take_seat(session, table, user, seat, 100, f"sit-{member}")
        hand = Hand(
            table_id=table_id,
            number=1,
            seed="0" * 64,
            commitment="0" * 64,
            header={"game": "bourre"},
            players={},
            running=False,
            ended_at=utcnow(),
            pot=30,
        )
        session.add(hand)
        await session.flush()
        hand_id = hand.id
    stack = table_service.seat_key
    pot = table_service.pot_key(table_id)
    # Alice loses 30 into the pot; the pot pays Bob 20 and keeps 10 for the next hand.
    await settle(
        db, table_id, hand_id, (stack(table_id, alice), pot, 30), (pot, stack(table_id, bob), 20)
    )
    async with db.transaction() as session:
        table = await table_service.get_table(session, table_id)
        bob_user = await session.get(User, bob)
        assert bob_user is not None
        await table_service.top_up(session, table, bob_user, 50, "more")
        await table_service.stand_up(session, table, alice)
        await table_service.stand_up(session, table, bob)
    return Scene(owner, alice, bob, cyd, table_id, hand_id)
