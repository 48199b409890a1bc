"""Hands as the runtime stores them: started, each accepted action written ahead, settled.

Write-ahead: the runtime stores an action (with the table version it produced) and commits
before anyone hears of it, so a server killed at any moment restarts into the same hand by
replaying the stored actions from the stored seed. Settlement is one transaction: the
hand's history entry and result, the chip movements between stacks and pot, and what the
engine carries to the next hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    ChatMessage,
    Club,
    GameTable,
    Hand,
    HandAction,
    HandSeat,
    SeedReveal,
    TableSeat,
    User,
)
from app.db.types import utcnow
from app.services import ledger
from app.services.hand_results import pot_of, seat_results
from app.services.tables import pot_key, seat_key, stand_up
from app.tables.values import SeatsAfterHand


async def begin_hand(
    session: AsyncSession,
    *,
    table_id: int,
    number: int,
    seed_hex: str,
    commitment: str,
    header: dict[str, Any],
    players: dict[str, Any],
    version: int,
    server_seed_hex: str | None = None,
    contributions: dict[str, str] | None = None,
) -> int:
    """Store a hand as it is dealt; returns its id. `seed_hex` is the seed it is dealt and
    replayed from; `commitment` the SHA-256 of `server_seed_hex`, which was shown before the
    deal, and `contributions` the seated players' values mixed into the seed
    (docs/fair-shuffle.md). Plain statements: a live table deals after every hand."""
    connection = await session.connection()
    stored = await connection.execute(
        _INSERT_HAND,
        {
            "of_table": table_id,
            "table_id": table_id,
            "number": number,
            "seed": seed_hex,
            "commitment": commitment,
            "server_seed": server_seed_hex,
            "contributions": contributions,
            "header": header,
            "players": players,
        },
    )
    hand_id: int = stored.scalar_one()
    await _set_version(session, table_id, version)
    return hand_id


async def _set_version(session: AsyncSession, table_id: int, version: int) -> None:
    connection = await session.connection()
    await connection.execute(_SET_VERSION, {"table": table_id, "new_version": version})


# The statements run at every deal and settlement, built once: a statement built anew is
# traversed again for the compiled-statement cache each time it runs.
_INSERT_HAND = (
    insert(Hand)
    .values(
        # The table's current session, read in the same statement.
        session=select(GameTable.session)
        .where(GameTable.id == bindparam("of_table"))
        .scalar_subquery()
    )
    .returning(Hand.id)
)
_SET_VERSION = (
    update(GameTable)
    .where(GameTable.id == bindparam("table"))
    .values(version=bindparam("new_version"))
)
# Closing a hand reads the club's reveal policy (each hand's seed shown as soon as it ends,
# or when the session ends) in the same statement.
_CLOSE_HAND = (
    update(Hand)
    .where(Hand.id == bindparam("hand"))
    .values(
        running=False,
        revealed=func.coalesce(
            select(Club.seed_reveal == SeedReveal.HAND).where(Club.id == 1).scalar_subquery(),
            False,
        ),
    )
    .returning(Hand.revealed)
)
_COUNT_HAND = (
    update(GameTable)
    .where(GameTable.id == bindparam("table"))
    .values(
        session_state=bindparam("state", type_=GameTable.session_state.type),
        hands_played=GameTable.hands_played + 1,
        version=bindparam("new_version"),
    )
)
_INSERT_SEAT_RESULT = insert(HandSeat)
_SEAT_TIMER_UPDATE = (
    update(TableSeat)
    .where(
        TableSeat.table_id == bindparam("table"),
        TableSeat.seat_no == bindparam("seat"),
        TableSeat.user_id == bindparam("member"),
    )
    .values(timed_out_hands=bindparam("counted"), sitting_out=bindparam("away"))
)


@dataclass(frozen=True, slots=True)
class Settlement:
    table_id: int
    hand_id: int
    # Seat number → member, stack before the hand and after it.
    players: Mapping[int, int]
    stacks_before: Sequence[int]
    stacks_after: Sequence[int]
    pot_before: int
    pot_after: int
    entry: dict[str, Any]
    result: dict[str, Any]
    next_state: dict[str, Any]
    version: int
    # The game and house rules the hand was dealt under (its seat results depend on them).
    game: str
    rules: Mapping[str, Any]
    # Seats dealt into the hand: each gets its row of results.
    dealt_in: frozenset[int] = frozenset()


def _movements(s: Settlement) -> list[ledger.Movement]:
    """Each stack's change, through the table's pot: losers pay the pot, the pot pays
    winners. The changes sum to zero with the pot's, so the pot ends where the hand left it."""
    pot = pot_key(s.table_id)
    moves: list[ledger.Movement] = []
    for seat, user_id in sorted(s.players.items()):
        delta = s.stacks_after[seat] - s.stacks_before[seat]
        key = seat_key(s.table_id, user_id)
        if delta < 0:
            moves.append(ledger.Movement(key, pot, -delta))
    for seat, user_id in sorted(s.players.items()):
        delta = s.stacks_after[seat] - s.stacks_before[seat]
        if delta > 0:
            moves.append(ledger.Movement(pot, seat_key(s.table_id, user_id), delta))
    return moves


async def settle_hand(session: AsyncSession, s: Settlement) -> bool:
    """Commit the end of a hand (the caller's transaction makes it one unit): chips, the
    history entry and result, each seat's result row. Returns whether its seed is public
    now: the club's policy (show each hand's seed as soon as it ends, or when the session
    ends) is read in the same statement that closes the hand."""
    paid_in = sum(b - a for b, a in zip(s.stacks_before, s.stacks_after, strict=True))
    if paid_in != s.pot_after - s.pot_before:
        raise AssertionError("a settlement must conserve chips")  # the engine guarantees it
    moves = _movements(s)
    if moves:
        await ledger.post(
            session,
            idempotency_key=f"hand:{s.hand_id}:settle",
            kind="settlement",
            reason=f"Hand {s.result.get('number', s.hand_id)} at table {s.table_id}",
            actor_id=None,
            movements=moves,
        )
    # Plain statements, not ORM objects: nothing of the hand row needs reading first.
    connection = await session.connection()
    ended_at = utcnow()
    revealed = bool(
        await connection.scalar(
            _CLOSE_HAND,
            {
                "hand": s.hand_id,
                "entry": s.entry,
                "result": s.result,
                "ended_at": ended_at,
                "pot": pot_of(s.game, s.result),
            },
        )
    )
    rows = seat_results(s.game, dict(s.rules), s.players, s.dealt_in, s.stacks_before, s.result)
    if rows:
        await connection.execute(
            _INSERT_SEAT_RESULT,
            [
                {
                    "hand_id": s.hand_id,
                    "table_id": s.table_id,
                    "user_id": r.user_id,
                    "seat_no": r.seat_no,
                    "game": s.game,
                    "ended_at": ended_at,
                    "stack_before": r.stack_before,
                    "stack_after": r.stack_after,
                    "net": r.net,
                    "won": r.won,
                    "bourres_paid": r.bourres_paid,
                    "brelan": r.brelan,
                }
                for r in rows
            ],
        )
    await connection.execute(
        _COUNT_HAND, {"table": s.table_id, "state": s.next_state, "new_version": s.version}
    )
    return revealed


async def end_session(session: AsyncSession, table_id: int) -> None:
    """The table's session ends (it closes, or its last player stood up): every finished
    hand's seed is revealed, and the next hand dealt opens the next session."""
    await session.execute(
        update(Hand)
        .where(Hand.table_id == table_id, Hand.running.is_(False), Hand.revealed.is_(False))
        .values(revealed=True)
    )
    current = select(GameTable.session).where(GameTable.id == table_id).scalar_subquery()
    dealt = await session.scalar(
        select(func.count()).where(Hand.table_id == table_id, Hand.session == current)
    )
    if dealt:  # a session in which no hand was dealt goes on
        await session.execute(
            update(GameTable).where(GameTable.id == table_id).values(session=GameTable.session + 1)
        )


async def end_session_if_empty(session: AsyncSession, table_id: int) -> None:
    """The last player has left: the table's session ends and its seeds are revealed."""
    await session.flush()  # a seat deleted by the ORM in this transaction is gone
    connection = await session.connection()
    seated = await connection.scalar(
        select(func.count()).select_from(TableSeat).where(TableSeat.table_id == table_id)
    )
    if not seated:
        await end_session(session, table_id)


async def after_hand_seats(session: AsyncSession, table: GameTable, after: SeatsAfterHand) -> None:
    """After a settled hand, in its transaction (a hand and its consequences are stored at
    once): the turn timer's bookkeeping the table decided, and the players who asked to
    stand up, whose stacks go back to their balances now. A seat is updated only if the
    member the table decided for still holds it."""
    if after.timers:
        connection = await session.connection()
        await connection.execute(
            _SEAT_TIMER_UPDATE,
            [
                {
                    "table": table.id,
                    "seat": t.seat_no,
                    "member": t.user_id,
                    "counted": t.timed_out_hands,
                    "away": t.sitting_out,
                }
                for t in after.timers
            ],
        )
    for user_id in after.leaving:
        await stand_up(session, table, user_id)
    if after.leaving:
        await end_session_if_empty(session, table.id)


async def running_hand(session: AsyncSession, table_id: int) -> Hand | None:
    found: Hand | None = await session.scalar(
        select(Hand).where(Hand.table_id == table_id, Hand.running.is_(True))
    )
    return found


async def last_version(session: AsyncSession, table: GameTable) -> int:
    """The version of the table's last stored change to the game (a deal, an action, a
    hand's end): its own record, or a later stored action's. Events that are not stored
    may have had later versions (app/tables/events.py)."""
    latest = await session.scalar(
        select(func.max(HandAction.table_version))
        .join(Hand, Hand.id == HandAction.hand_id)
        .where(Hand.table_id == table.id)
    )
    return max(table.version, int(latest or 0))


async def actions_of(session: AsyncSession, hand_id: int) -> list[HandAction]:
    query = select(HandAction).where(HandAction.hand_id == hand_id).order_by(HandAction.seq)
    return list((await session.scalars(query)).all())


async def add_chat(session: AsyncSession, table_id: int, user: User, text: str) -> ChatMessage:
    message = ChatMessage(table_id=table_id, user_id=user.id, text=text)
    session.add(message)
    await session.flush()
    return message


async def recent_chat(
    session: AsyncSession, table_id: int, limit: int = 50
) -> list[tuple[ChatMessage, str]]:
    rows = (
        await session.execute(
            select(ChatMessage, User.display_name)
            .join(User, User.id == ChatMessage.user_id)
            .where(ChatMessage.table_id == table_id)
            .order_by(ChatMessage.id.desc())
            .limit(limit)
        )
    ).all()
    return [(m, name) for m, name in reversed(rows)]
