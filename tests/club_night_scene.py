"""A club night for the treasurer's tests, moving chips through the services play uses.

At the club table 'Cajun Bourré' Alice, Bob and Cyd play with two house bots (their
buy-ins lent by the bank); three hands are settled as a table settles them. Then a bot
leaves (its stack back to the bank), Alice stands up, and Bob, Cyd and the other bot stay.
Meanwhile Cyd plays a hand at her practice table, with play money, against a bot.

The hands, as each stack changes (the pot ends where the hand left it):
1. Alice -50, Bob -30, Désiré (bot) +80.
2. Basile (bot) -100, Cyd -20, Alice +70, Bob +50.
3. Alice -10 into the pot, carried to a later hand.
Practice: Cyd +70, her bot -70.
So the members' nets: Alice +10, Bob +20, Cyd -20; the bots' -20; 10 left in the pot.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models import GameTable, User
from app.db.session import Database
from app.services import bots, ledger
from app.services import hands as hand_service
from app.services import tables as table_service
from tests.helpers import add_member, found_club

CLUB_TABLE = "Cajun Bourré"
PRACTICE_TABLE = "Cyd's practice"
SEATS = 5


@dataclass(frozen=True, slots=True)
class Night:
    owner: int
    alice: int
    bob: int
    cyd: int
    bot_won: int
    bot_lost: int
    practice_bot: int
    table_id: int
    practice_id: int

    @property
    def members(self) -> dict[int, str]:
        return {self.alice: "Alice", self.bob: "Bob", self.cyd: "Cyd"}


async def play_hand(
    db: Database, table_id: int, number: int, changes: dict[int, int], pot_change: int = 0
) -> int:
    """Deal and settle one Bourré hand in which each seat's stack changes by `changes`
    (seat → chips), as a live table stores and settles it; returns the hand's id."""
    async with db.transaction() as session:
        table = await table_service.get_table(session, table_id)
        seated = {s.seat_no: s for s in await table_service.seats_of(session, table_id)}
        pot_before = await ledger.balance_of(session, table_service.pot_key(table_id))
        before = [seated[n].stack if n in seated else 0 for n in range(table.seat_count)]
        after = [stack + changes.get(n, 0) for n, stack in enumerate(before)]
        players = {n: seated[n].user_id for n in changes}
        names = [f"p{n}" for n in range(table.seat_count)]
        hand_id = await hand_service.begin_hand(
            session,
            table_id=table_id,
            number=number,
            seed_hex="0" * 64,
            commitment="0" * 64,
            header={"game": "bourre", "pot": pot_before},
            players={names[n]: user for n, user in players.items()},
            version=number * 10,
        )
        winner = max(changes, key=lambda n: changes[n])
        report = {
            "number": number,
            "stacks": dict(zip(names, after, strict=True)),
            "pot": sum(-c for c in changes.values() if c < 0),
            "winner": names[winner] if changes[winner] > 0 else None,
            "bourre": [],
            "players": [names[n] for n in changes],
        }
        await hand_service.settle_hand(
            session,
            hand_service.Settlement(
                table_id=table_id,
                hand_id=hand_id,
                players=players,
                stacks_before=before,
                stacks_after=after,
                pot_before=pot_before,
                pot_after=pot_before + pot_change,
                entry={},
                result=report,
                next_state={},
                version=number * 10 + 1,
                game="bourre",
                rules=table.rules,
                dealt_in=frozenset(changes),
            ),
        )
    return hand_id


async def _table(db: Database, owner: int, name: str, *, practice: bool) -> int:
    async with db.transaction() as session:
        opener = await session.get(User, owner)
        assert opener is not None
        table = await table_service.create_table(
            session,
            opener,
            table_service.TableSpec(
                name=name,
                game="bourre",
                rules={},
                seat_count=SEATS,
                buy_in_min=20,
                buy_in_max=400,
                practice=practice,
            ),
        )
        return table.id


async def _sit(db: Database, table_id: int, member: int, seat: int, chips: int) -> None:
    async with db.transaction() as session:
        table = await session.get(GameTable, table_id)
        user = await session.get(User, member)
        assert table is not None and user is not None
        await table_service.take_seat(session, table, user, seat, chips, f"sit-{member}-{seat}")


async def _bot(db: Database, table_id: int, seat: int) -> int:
    async with db.transaction() as session:
        table = await session.get(GameTable, table_id)
        assert table is not None
        seated = await bots.seat_bot(
            session, table, "club", request_key=f"bot-{table_id}-{seat}", seat_no=seat
        )
        return seated.user_id


async def club_night(db: Database) -> Night:
    owner = await found_club(db)
    alice = await add_member(db, "alice", chips=1000)
    bob = await add_member(db, "bob", chips=1000)
    cyd = await add_member(db, "cyd", chips=1000)
    table_id = await _table(db, owner, CLUB_TABLE, practice=False)
    for member, seat in ((alice, 0), (bob, 1), (cyd, 2)):
        await _sit(db, table_id, member, seat, 200)
    bot_won = await _bot(db, table_id, 3)
    bot_lost = await _bot(db, table_id, 4)
    await play_hand(db, table_id, 1, {0: -50, 1: -30, 3: 80})
    await play_hand(db, table_id, 2, {4: -100, 2: -20, 0: 70, 1: 50})
    await play_hand(db, table_id, 3, {0: -10}, pot_change=10)
    async with db.transaction() as session:
        table = await table_service.get_table(session, table_id)
        await table_service.stand_up(session, table, bot_won)
        await table_service.stand_up(session, table, alice)

    practice_id = await _table(db, cyd, PRACTICE_TABLE, practice=True)
    await _sit(db, practice_id, cyd, 0, 300)
    practice_bot = await _bot(db, practice_id, 1)
    await play_hand(db, practice_id, 1, {0: 70, 1: -70})
    return Night(owner, alice, bob, cyd, bot_won, bot_lost, practice_bot, table_id, practice_id)
