"""Tables and seats: creating tables, taking a seat with a buy-in, topping up, standing up.

Chips never move here except through the ledger: a buy-in moves chips from the member's
balance to their stack at the table (`seat:<table>:<user>`), standing up moves the whole
stack back. The table runtime decides *when* these may happen (not while the player's hand
is running); these functions check everything else, in one transaction each.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    Account,
    AccountKind,
    Club,
    GameTable,
    MemberStatus,
    Role,
    TableSeat,
    TableStatus,
    User,
)
from app.db.types import utcnow
from app.engine.base import EngineError
from app.engine.options import ConfigError
from app.engine.registry import driver
from app.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.i18n import _
from app.security.text import clean_text
from app.security.tokens import new_token, same
from app.services import admin_log, ledger, replies, rule_words, rulesets
from app.tables.refusal_words import refusal_sentence
from app.tables.values import SeatInfo as SeatInfo
from app.tables.values import TableInfo


def may_see(table: GameTable, user: User, seated: set[int], invite_code: str | None = None) -> bool:
    """Who may see a table (in the lobby, its page, its WebSocket): anyone for an open table;
    for a private one its players, its creator, the club's admins, or whoever holds the
    invite code."""
    if not table.private:
        return True
    if user.role in (Role.OWNER, Role.ADMIN) or user.id in seated:
        return True
    if table.created_by_id == user.id:
        return True
    return bool(invite_code and table.invite_code and same(invite_code, table.invite_code))


async def visible_table(
    session: AsyncSession, table_id: int, user: User, invite_code: str | None = None
) -> GameTable:
    """The table, or `table_not_found` for one this member may not see (a private table
    does not reveal that it exists)."""
    table = await get_table(session, table_id)
    seated = {s.user_id for s in await seats_of(session, table_id)}
    if not may_see(table, user, seated, invite_code):
        raise NotFound("table_not_found", _("No table with id %(table_id)s.", table_id=table_id))
    return table


def seat_key(table_id: int, user_id: int) -> str:
    return f"seat:{table_id}:{user_id}"


def pot_key(table_id: int) -> str:
    return f"pot:{table_id}"


def seat_kind(table: GameTable) -> AccountKind:
    return AccountKind.PLAY_SEAT if table.practice else AccountKind.SEAT


def chips_home(*, practice: bool, user_id: int, bot: bool) -> str:
    """The account a seat's chips come from and go back to: a person's balance at a club
    table, the club's bank for a computer player (it buys in from the bank and gives back
    when it leaves), the play bank at a practice table (play money, never the club's)."""
    if practice:
        return ledger.PLAY_BANK_KEY
    return ledger.BANK_KEY if bot else ledger.member_account_key(user_id)


# The longest gathering countdown a table may set (seconds).
MAX_GATHERING = 120


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSpec:
    name: str
    game: str
    rules: dict[str, Any]
    seat_count: int
    preset: str | None = None
    buy_in_min: int
    buy_in_max: int
    turn_seconds: int | None = None
    # The gathering countdown before play starts (None: the club's setting).
    gathering_seconds: int | None = None
    private: bool = False
    allow_spectators: bool = True
    # A saved house-rule configuration: the table takes a copy of its rules, with `rules`
    # holding only the stakes the opener sets over it (ante, pot limit, cave).
    ruleset_id: int | None = None
    # Play money, seen by its opener alone (see `GameTable.practice`).
    practice: bool = False
    # The level of the computer players that fill its empty seats, or None.
    bot_fill: str | None = None


def _check_spec(spec: TableSpec) -> tuple[str, dict[str, Any]]:
    """Validate a table's settings; returns the name as it is stored (NFC) and the rules
    as the engine normalises them."""
    name = clean_text(spec.name, 60)
    if name is None:
        raise InvalidInput(
            "invalid_name", _("A table's name has 1 to 60 characters of plain text.")
        )
    try:
        game = driver(spec.game)
    except EngineError as error:
        raise InvalidInput(error.code, refusal_sentence(error)) from None
    try:
        rules = game.resolve_rules(spec.preset, spec.rules)
    except EngineError as error:
        field = getattr(error, "field", None)
        said = (
            rule_words.config_refusal(spec.game, error)
            if isinstance(error, ConfigError)
            else refusal_sentence(error)
        )
        raise InvalidInput("invalid_rules", said, rule=field, reason=error.code) from None
    if not game.min_seats <= spec.seat_count <= game.max_seats:
        raise InvalidInput(
            "invalid_seat_count",
            _(
                "A %(game)s table has %(min_seats)s to %(max_seats)s seats.",
                game=spec.game,
                min_seats=game.min_seats,
                max_seats=game.max_seats,
            ),
        )
    if not 1 <= spec.buy_in_min <= spec.buy_in_max <= ledger.MAX_AMOUNT:
        raise InvalidInput(
            "invalid_buy_in", _("The buy-in range must satisfy 1 ≤ minimum ≤ maximum.")
        )
    problem = game.buy_in_rule(rules, spec.buy_in_min, spec.buy_in_max)
    if problem:
        raise InvalidInput("invalid_buy_in", refusal_sentence(problem), reason=problem.code)
    if spec.turn_seconds is not None and not 5 <= spec.turn_seconds <= 600:
        raise InvalidInput("invalid_turn_seconds", _("The turn timer must be 5 to 600 seconds."))
    if spec.gathering_seconds is not None and not 0 <= spec.gathering_seconds <= MAX_GATHERING:
        raise InvalidInput(
            "invalid_gathering_seconds",
            _(
                "The gathering countdown must be 0 to %(max_gathering)s seconds.",
                max_gathering=MAX_GATHERING,
            ),
        )
    return name, game.rules_dict(rules)


async def create_table(session: AsyncSession, actor: User, spec: TableSpec) -> GameTable:
    club = await session.get(Club, 1)
    if club is None:
        raise NotFound("club_not_set_up", _("This installation has no club yet."))
    if actor.role == Role.MEMBER and not club.members_may_create_tables and not spec.practice:
        raise Forbidden("admin_only", _("Only the club's admins can open tables."))
    spec = await _with_ruleset(session, spec)
    name, rules = _check_spec(spec)
    table = GameTable(
        name=name,
        game=spec.game,
        rules=rules,
        seat_count=spec.seat_count,
        buy_in_min=spec.buy_in_min,
        buy_in_max=spec.buy_in_max,
        turn_seconds=spec.turn_seconds or club.default_turn_seconds,
        gathering_seconds=spec.gathering_seconds,
        private=spec.private,
        invite_code=new_token(12) if spec.private else None,
        allow_spectators=spec.allow_spectators,
        status=TableStatus.OPEN,
        session_state={},
        created_by_id=actor.id,
        ruleset_id=spec.ruleset_id,
        practice=spec.practice,
        bot_fill=spec.bot_fill,
    )
    session.add(table)
    await session.flush()
    if spec.practice:
        await ledger.open_account(session, ledger.PLAY_BANK_KEY, AccountKind.PLAY_BANK)
    await ledger.open_account(
        session, pot_key(table.id), AccountKind.PLAY_POT if spec.practice else AccountKind.POT
    )
    if actor.role in (Role.OWNER, Role.ADMIN) and not spec.practice:  # no club business
        await admin_log.record(
            session,
            actor_id=actor.id,
            action="table.open",
            target_kind="table",
            target_id=table.id,
            target_label=table.name,
            after=table_settings(table),
        )
    return table


async def _with_ruleset(session: AsyncSession, spec: TableSpec) -> TableSpec:
    """The spec with the configuration's rules copied in (the stakes over them)."""
    if spec.ruleset_id is None:
        return spec
    if spec.preset is not None:
        raise InvalidInput(
            "preset_and_ruleset", _("Choose a saved configuration or a preset, not both.")
        )
    rules = await rulesets.rules_for_table(session, spec.game, spec.ruleset_id, spec.rules)
    return replace(spec, rules=rules)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEdit:
    """What may change before a table's first hand. None: unchanged. ``stakes`` replaces
    the stakes (ante, pot limit, cave) over the configuration's rules."""

    name: str | None = None
    ruleset_id: int | None = None
    stakes: dict[str, Any] | None = None
    buy_in_min: int | None = None
    buy_in_max: int | None = None

    @property
    def changes_play(self) -> bool:
        return any(
            v is not None for v in (self.ruleset_id, self.stakes, self.buy_in_min, self.buy_in_max)
        )


def may_edit(table: GameTable, user: User) -> bool:
    return user.role in (Role.OWNER, Role.ADMIN) or table.created_by_id == user.id


async def edit_table(
    session: AsyncSession, actor: User, table: GameTable, edit: TableEdit, *, dealt: bool
) -> GameTable:
    """Change a table's name, configuration or stakes before its first hand (``dealt``:
    the runtime has dealt a hand at it, which the stored count may not show yet). Rules
    and stakes stay as they are while anyone is seated: they bought in under them."""
    if not may_edit(table, actor):
        raise Forbidden("not_table_owner", _("Only the club's admins or its opener can edit it."))
    if table.status == TableStatus.CLOSED:
        raise Conflict("table_closed", _("This table is closed."))
    if dealt or table.hands_played > 0:
        raise Conflict(
            "table_already_dealt",
            _("A table can be edited only before its first hand; open a new table instead."),
        )
    if edit.changes_play and await seats_of(session, table.id):
        raise Conflict(
            "table_has_players",
            _("Players have bought in under these rules and stakes: they must stand up first."),
        )
    game = driver(table.game)
    ruleset_id = edit.ruleset_id if edit.ruleset_id is not None else table.ruleset_id
    for key in edit.stakes or {}:
        if key not in _stake_names(table.game):
            raise InvalidInput(
                "not_a_stake",
                _(
                    "'%(key)s' is a house rule, not a stake: choose another configuration instead.",
                    key=key,
                ),
                field=key,
            )
    stakes = edit.stakes
    if stakes is None:  # keep the table's own stakes
        stakes = {k: v for k, v in table.rules.items() if k in _stake_names(table.game)}
    spec = TableSpec(
        name=edit.name if edit.name is not None else table.name,
        game=table.game,
        rules=stakes if ruleset_id is not None else {**table.rules, **stakes},
        seat_count=table.seat_count,
        buy_in_min=edit.buy_in_min if edit.buy_in_min is not None else table.buy_in_min,
        buy_in_max=edit.buy_in_max if edit.buy_in_max is not None else table.buy_in_max,
        ruleset_id=ruleset_id,
    )
    if game.buy_in_option is not None and edit.buy_in_min is None:  # the cave is the buy-in
        buy_in = getattr(game.parse_rules(await _rules_of(session, spec)), game.buy_in_option)
        spec = replace(spec, buy_in_min=buy_in, buy_in_max=buy_in)
    spec = await _with_ruleset(session, spec)
    name, rules = _check_spec(spec)
    before = {**table_settings(table), "ruleset_id": table.ruleset_id}
    table.name = name
    table.rules = rules
    table.ruleset_id = ruleset_id
    table.buy_in_min = spec.buy_in_min
    table.buy_in_max = spec.buy_in_max
    await session.flush()
    after = {**table_settings(table), "ruleset_id": table.ruleset_id}
    # As for table.open: an opener who is a plain member editing their own table is no
    # admin action; an edit that changes nothing writes no row.
    if actor.role in (Role.OWNER, Role.ADMIN) and after != before:
        await admin_log.record(
            session,
            actor_id=actor.id,
            action="table.edit",
            target_kind="table",
            target_id=table.id,
            target_label=table.name,
            before=before,
            after=after,
        )
    return table


def _stake_names(game: str) -> tuple[str, ...]:
    return rule_words.game_rules(game).stakes


async def _rules_of(session: AsyncSession, spec: TableSpec) -> dict[str, Any]:
    return (await _with_ruleset(session, spec)).rules


def table_settings(table: GameTable) -> dict[str, Any]:
    """A table's settings as its audit rows show them."""
    return {
        "name": table.name,
        "game": table.game,
        "rules": table.rules,
        "seat_count": table.seat_count,
        "buy_in_min": table.buy_in_min,
        "buy_in_max": table.buy_in_max,
        "turn_seconds": table.turn_seconds,
        "gathering_seconds": table.gathering_seconds,
        "private": table.private,
        "allow_spectators": table.allow_spectators,
        "status": table.status,
    }


async def get_table(session: AsyncSession, table_id: int) -> GameTable:
    table = await session.get(GameTable, table_id)
    if table is None:
        raise NotFound("table_not_found", _("No table with id %(table_id)s.", table_id=table_id))
    return table


async def list_tables(session: AsyncSession) -> list[GameTable]:
    """Every table that is not closed, newest first."""
    query = (
        select(GameTable)
        .where(GameTable.status != TableStatus.CLOSED)
        .order_by(GameTable.id.desc())
    )
    return list((await session.scalars(query)).all())


async def open_table_ids(session: AsyncSession) -> list[int]:
    """The ids of every table that is not closed, oldest first (their actors start at
    start-up)."""
    query = select(GameTable.id).where(GameTable.status != TableStatus.CLOSED)
    return list((await session.scalars(query.order_by(GameTable.id))).all())


async def seats_of(session: AsyncSession, table_id: int) -> list[SeatInfo]:
    """Who sits where, with their stacks (from the ledger). Plain rows on the session's
    connection, not ORM objects: a live table reads its seats after every hand. Changes
    the session still holds are flushed first, since plain statements do not autoflush."""
    await session.flush()
    connection = await session.connection()
    rows = (
        await connection.execute(
            select(
                TableSeat.seat_no,
                TableSeat.user_id,
                User.username,
                User.display_name,
                TableSeat.sitting_out,
                TableSeat.leaving,
                TableSeat.timed_out_hands,
                User.bot_level,
                TableSeat.filled,
            )
            .join(User, User.id == TableSeat.user_id)
            .where(TableSeat.table_id == table_id)
            .order_by(TableSeat.seat_no)
        )
    ).all()
    keys = [seat_key(table_id, row.user_id) for row in rows]
    balances = {
        key: balance
        for key, balance in (
            await connection.execute(
                select(Account.key, Account.balance).where(Account.key.in_(keys))
            )
        ).all()
    }
    return [
        SeatInfo(
            row.seat_no,
            row.user_id,
            row.username,
            row.display_name,
            int(balances.get(seat_key(table_id, row.user_id), 0)),
            row.sitting_out,
            row.leaving,
            row.timed_out_hands,
            row.bot_level,
            row.filled,
        )
        for row in rows
    ]


@dataclass(frozen=True, slots=True)
class Reply:
    """A keyed request's answer; `replayed` when it was given before (nothing changed)."""

    answer: dict[str, Any]
    replayed: bool = False


def sit_request(
    table_id: int, user_id: int, seat_no: int | None, buy_in: int, request_key: str
) -> replies.Keyed:
    """Sitting down with a client's key (take_seat), as its stored answer is found."""
    return replies.Keyed(
        f"sit:{table_id}:{user_id}:{request_key}", {"seat": seat_no, "buy_in": buy_in}
    )


def top_up_request(table_id: int, user_id: int, amount: int, request_key: str) -> replies.Keyed:
    """Topping up with a client's key (top_up), as its stored answer is found."""
    return replies.Keyed(f"topup:{table_id}:{user_id}:{request_key}", {"amount": amount})


async def take_seat(
    session: AsyncSession,
    table: GameTable,
    user: User,
    seat_no: int | None,
    buy_in: int,
    request_key: str,
    *,
    filled: bool = False,
) -> Reply:
    """Sit `user` down with `buy_in` chips from their balance (next free seat if None);
    answers `{"seat": n}`. A retry with the same key answers the same (see replies).
    `filled`: a bot sitting down to fill the table."""
    request = sit_request(table.id, user.id, seat_no, buy_in, request_key)
    key = request.key
    if (earlier := await replies.earlier(session, request)) is not None:
        return Reply(earlier, replayed=True)
    if table.status == TableStatus.CLOSED:
        raise Conflict("table_closed", _("This table is closed."))
    if user.status != MemberStatus.ACTIVE:
        raise Forbidden("account_inactive", _("Only active members can sit down."))
    if table.practice and user.bot_level is None and user.id != table.created_by_id:
        raise Forbidden("practice_table", _("A practice table is its opener's alone."))
    taken = {
        s.seat_no: s.user_id
        for s in (
            await session.scalars(select(TableSeat).where(TableSeat.table_id == table.id))
        ).all()
    }
    if user.id in taken.values():
        raise Conflict("already_seated", _("You already have a seat at this table."))
    if seat_no is None:
        free = [n for n in range(table.seat_count) if n not in taken]
        if not free:
            raise Conflict("table_full", _("Every seat at this table is taken."))
        seat_no = free[0]
    if not 0 <= seat_no < table.seat_count:
        raise InvalidInput(
            "invalid_seat", _("Seats are numbered 0 to %(value)s.", value=table.seat_count - 1)
        )
    if seat_no in taken:
        raise Conflict("seat_taken", _("Seat %(seat_no)s is taken.", seat_no=seat_no))
    _check_buy_in(table, 0, buy_in)
    await ledger.open_account(session, seat_key(table.id, user.id), seat_kind(table), user.id)
    await ledger.post(
        session,
        idempotency_key=key,
        kind="buy_in",
        reason=_said(table, user.bot_level is not None, f"buy-in at table {table.id}"),
        actor_id=user.id,
        movements=[
            ledger.Movement(
                chips_home(
                    practice=table.practice, user_id=user.id, bot=user.bot_level is not None
                ),
                seat_key(table.id, user.id),
                buy_in,
            )
        ],
    )
    seat = TableSeat(table_id=table.id, seat_no=seat_no, user_id=user.id, filled=filled)
    session.add(seat)
    await session.flush()
    answer = {"seat": seat.seat_no}
    await replies.remember(session, request, answer)
    return Reply(answer)


def _said(table: GameTable, bot: bool, what: str) -> str:
    """A seat's ledger line, saying so when the chips are play money or a bot's ("Bot
    buy-in at table 3", "Practice buy-in at table 4", "Buy-in at table 5")."""
    text = f"{'Practice ' if table.practice else 'Bot ' if bot else ''}{what}"
    return text[0].upper() + text[1:]


def _check_buy_in(table: GameTable, stack: int, amount: int) -> None:
    if stack + amount < table.buy_in_min or stack + amount > table.buy_in_max:
        raise InvalidInput(
            "buy_in_out_of_range",
            _(
                "Your stack at this table must be between %(buy_in_min)s and %(buy_in_max)s chips.",
                buy_in_min=table.buy_in_min,
                buy_in_max=table.buy_in_max,
            ),
            min=table.buy_in_min,
            max=table.buy_in_max,
        )


async def seat_of(session: AsyncSession, table_id: int, user_id: int) -> TableSeat:
    seat = await session.scalar(
        select(TableSeat).where(TableSeat.table_id == table_id, TableSeat.user_id == user_id)
    )
    if seat is None:
        raise NotFound("not_seated", _("You do not have a seat at this table."))
    return seat


async def seat_rows(session: AsyncSession, table_id: int) -> list[TableSeat]:
    """Every seat row of the table, for the changes the table runtime makes to them."""
    return list(
        (await session.scalars(select(TableSeat).where(TableSeat.table_id == table_id))).all()
    )


def table_info(table: GameTable) -> TableInfo:
    """The plain copy of a table row that the live table decides with."""
    return TableInfo(
        id=table.id,
        name=table.name,
        game=table.game,
        status=str(table.status),
        rules=table.rules,
        seat_count=table.seat_count,
        buy_in_min=table.buy_in_min,
        buy_in_max=table.buy_in_max,
        turn_seconds=table.turn_seconds,
        allow_spectators=table.allow_spectators,
        session_state=table.session_state,
        hands_played=table.hands_played,
        practice=table.practice,
        bot_fill=table.bot_fill,
        gathering_seconds=table.gathering_seconds,
    )


async def member(session: AsyncSession, user_id: int) -> User:
    """The member behind a table command (sitting down, chatting, editing the table)."""
    user = await session.get(User, user_id)
    if user is None:
        raise NotFound("member_not_found", _("No such member."))
    return user


async def display_names(
    session: AsyncSession, players: Mapping[int, int], names: Sequence[str]
) -> dict[str, str]:
    """The display name of each player seated at the deal (seat -> member id), by the name
    the hand's report uses for that seat: those who have left the table since included."""
    connection = await session.connection()
    rows = await connection.execute(
        select(User.id, User.display_name).where(User.id.in_(set(players.values())))
    )
    users = {user_id: display_name for user_id, display_name in rows.all()}
    return {names[seat]: users[uid] for seat, uid in players.items() if uid in users}


async def seats_by_arrival(
    session: AsyncSession, table_id: int, among: Collection[int]
) -> list[int]:
    """The seats `among` these, in the order their players sat down (the first seating
    of Bouillotte seats players by arrival)."""
    rows = [r for r in await seat_rows(session, table_id) if r.seat_no in among]
    rows.sort(key=lambda r: (r.joined_at, r.id))
    return [r.seat_no for r in rows]


async def reseat_for_first_hand(
    session: AsyncSession, table_id: int, moves: Mapping[int, int], button: int
) -> GameTable:
    """Move players to their first-hand seats (`moves`: seat taken -> seat now) and store
    the first button in the table's session state, in the caller's transaction, so the
    seating happens once. Only seat numbers change: a stack is the ledger account of the
    table and the member, whatever the seat."""
    rows = [r for r in await seat_rows(session, table_id) if r.seat_no in moves]
    # A seat number is unique at a table: leave every seat before taking the new ones.
    for row in rows:
        row.seat_no = -1 - row.seat_no
    await session.flush()
    for row in rows:
        row.seat_no = moves[-1 - row.seat_no]
    table = await get_table(session, table_id)
    table.session_state = {"button": button}
    await session.flush()
    return table


async def set_sitting_out(session: AsyncSession, table_id: int, user_id: int, away: bool) -> None:
    """A player sits out or comes back; coming back forgets their timed-out hands."""
    seat = await seat_of(session, table_id, user_id)
    seat.sitting_out = away
    if not away:
        seat.timed_out_hands = 0
    await session.flush()


async def mark_leaving(session: AsyncSession, table_id: int, user_id: int) -> None:
    """A player in a hand asked to stand up: they leave once it is settled."""
    seat = await seat_of(session, table_id, user_id)
    seat.leaving = True
    await session.flush()


async def top_up(
    session: AsyncSession, table: GameTable, user: User, amount: int, request_key: str
) -> Reply:
    """Add chips from the member's balance to their stack; answers `{"stack": new stack}`.
    A retry with the same key answers the same (see replies)."""
    request = top_up_request(table.id, user.id, amount, request_key)
    request_id = request.key
    if (earlier := await replies.earlier(session, request)) is not None:
        return Reply(earlier, replayed=True)
    await seat_of(session, table.id, user.id)
    key = seat_key(table.id, user.id)
    stack = await ledger.balance_of(session, key)
    if amount <= 0:
        raise InvalidInput("amount_not_positive", _("Amounts must be whole positive numbers."))
    game = driver(table.game)
    problem = game.top_up_rule(game.parse_rules(table.rules), stack, amount)
    if problem:
        raise InvalidInput("top_up_not_allowed", refusal_sentence(problem), reason=problem.code)
    _check_buy_in(table, stack, amount)
    await ledger.post(
        session,
        idempotency_key=request_id,
        kind="top_up",
        reason=_said(table, user.bot_level is not None, f"top-up at table {table.id}"),
        actor_id=user.id,
        movements=[
            ledger.Movement(
                chips_home(
                    practice=table.practice, user_id=user.id, bot=user.bot_level is not None
                ),
                key,
                amount,
            )
        ],
    )
    answer = {"stack": stack + amount}
    await replies.remember(session, request, answer)
    return Reply(answer)


async def stand_up(session: AsyncSession, table: GameTable, user_id: int) -> int:
    """Free the seat and return the whole stack to the balance; returns the chips moved.
    The cash-out is keyed by the seating's own id: one cash-out per seating, ever."""
    seat = await seat_of(session, table.id, user_id)
    key = seat_key(table.id, user_id)
    stack = await ledger.balance_of(session, key)
    if stack:
        bot = await session.scalar(select(User.bot_level).where(User.id == user_id)) is not None
        await ledger.post(
            session,
            idempotency_key=f"stand:{seat.seating_id}",
            kind="cash_out",
            reason=_said(table, bot, f"left table {table.id}"),
            actor_id=user_id,
            movements=[
                ledger.Movement(
                    key, chips_home(practice=table.practice, user_id=user_id, bot=bot), stack
                )
            ],
        )
    await session.delete(seat)
    await session.flush()
    return stack


# The audit log's name for each status an admin sets.
STATUS_ACTIONS = {
    TableStatus.PAUSED: "table.pause",
    TableStatus.OPEN: "table.resume",
    TableStatus.CLOSED: "table.close",
}


async def set_status(
    session: AsyncSession,
    table: GameTable,
    status: TableStatus | str,
    *,
    by_admin: int | None = None,
) -> None:
    """Set a table's status (a `TableStatus` or its name: the table runtime knows the
    names only); `by_admin`: the admin who asked, whose audit row is written in this same
    transaction."""
    status = TableStatus(status)
    before = str(table.status)
    table.status = status
    if status == TableStatus.CLOSED:
        table.closed_at = utcnow()
    await session.flush()
    if by_admin is not None and before != str(status):
        await admin_log.record(
            session,
            actor_id=by_admin,
            action=STATUS_ACTIONS[status],
            target_kind="table",
            target_id=table.id,
            target_label=table.name,
            before={"status": before},
            after={"status": str(status)},
        )


async def return_pot(
    session: AsyncSession, table: GameTable, *, idempotency_key: str | None = None
) -> dict[int, int]:
    """Give back what is left in a closing table's pot.

    Decision (a pot left on a closed Bourré table, live-tables rules): it goes back to
    those who paid it, in proportion to what each put into this table's pot and did not
    take out again (antes and bourré payments minus winnings), rounded by largest
    remainder. Returns member id → chips given back, paid straight to their balances (some
    payers may have left the table already).
    """
    pot = pot_key(table.id)
    remaining = await ledger.balance_of(session, pot)
    if remaining <= 0:
        return {}
    prefix = f"seat:{table.id}:"
    net: dict[str, int] = {}
    for row in await ledger.entries(session, ledger.EntryFilter(account_key=pot), limit=None):
        if row.to_account == pot and row.from_account.startswith(prefix):
            net[row.from_account] = net.get(row.from_account, 0) + row.amount
        elif row.from_account == pot and row.to_account.startswith(prefix):
            net[row.to_account] = net.get(row.to_account, 0) - row.amount
    payers = {key: amount for key, amount in net.items() if amount > 0}
    total = sum(payers.values())
    if total == 0:
        return {}
    shares = {key: remaining * amount // total for key, amount in payers.items()}
    leftover = remaining - sum(shares.values())
    by_remainder = sorted(payers, key=lambda k: (-(remaining * payers[k] % total), k))
    for key in by_remainder[:leftover]:
        shares[key] += 1

    def member_of(key: str) -> int:
        return int(key.rsplit(":", 1)[1])

    payers_ids = [member_of(key) for key in shares]
    bots = set(
        (
            await session.scalars(
                select(User.id).where(User.id.in_(payers_ids), User.bot_level.is_not(None))
            )
        ).all()
    )
    movements = [
        ledger.Movement(
            pot,
            chips_home(practice=table.practice, user_id=member_of(key), bot=member_of(key) in bots),
            n,
        )
        for key, n in sorted(shares.items())
        if n
    ]
    await ledger.post(
        session,
        idempotency_key=idempotency_key or f"close:{table.id}:pot",
        kind="pot_return",
        reason=f"Pot returned at the close of table {table.id}",
        actor_id=None,
        movements=movements,
    )
    return {member_of(key): n for key, n in shares.items() if n}
