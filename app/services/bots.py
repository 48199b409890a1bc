"""Computer players as the club's records know them: a member row marked with its level of
play (`User.bot_level`), which never logs in, has no balance of its own and sits down with
chips from the club's bank (or play money at a practice table).

A bot at a club table buys in from the bank and gives its stack back to the bank when it
stands up (`tables.chips_home`), so the ledger shows every chip it played with, each line
saying "Bot". Its display name ends in "(bot)", so histories, exports and the ledger mark
it wherever its name is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.bots.levels import LEVELS
from app.db.models import GameTable, MemberStatus, Role, TableSeat, TableStatus, User
from app.engine.base import EngineError
from app.engine.options import ConfigError
from app.engine.registry import driver
from app.errors import Conflict, InvalidInput
from app.i18n import _
from app.services import admin_log, replies, rule_words
from app.services import tables as table_service

# Given to bots in turn; a table never shows two bots of the same name.
BOT_NAMES: Sequence[str] = (
    "Adèle",
    "Basile",
    "Colette",
    "Désiré",
    "Eugénie",
    "Félix",
    "Gaston",
    "Hortense",
    "Isidore",
    "Joséphine",
    "Lucien",
    "Mathilde",
)
# Never the hash of any password: argon2 refuses it, and the login refuses bots first.
NO_PASSWORD = "!bot"  # noqa: S105 (a marker, not a password)


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise InvalidInput(
            "unknown_bot_level",
            _("Bots play at these levels: %(value)s.", value=", ".join(LEVELS)),
            levels=LEVELS,
        )
    return level


async def bot_for(session: AsyncSession, table: GameTable, level: str) -> User:
    """A bot of `level` not yet seated at `table`: an existing one when there is one free,
    else a new one."""
    check_level(level)
    seated = select(TableSeat.user_id).where(TableSeat.table_id == table.id)
    free = await session.scalar(
        select(User)
        .where(User.bot_level == level, User.id.not_in(seated))
        .order_by(User.id)
        .limit(1)
    )
    if free is not None:
        return free
    count = (
        await session.scalar(
            select(func.count()).select_from(User).where(User.bot_level.is_not(None))
        )
        or 0
    )
    while True:
        name = BOT_NAMES[count % len(BOT_NAMES)]
        username = f"bot-{level}-{count + 1}"
        count += 1
        if await session.scalar(select(User.id).where(User.username == username)) is None:
            break
    bot = User(
        username=username,
        display_name=f"{name} (bot)",
        password_hash=NO_PASSWORD,
        role=Role.MEMBER,
        status=MemberStatus.ACTIVE,
        bot_level=level,
    )
    session.add(bot)
    await session.flush()
    return bot


def bot_buy_in(table: GameTable) -> int:
    """What a bot sits down with: the most the table allows (a full cave at Bouillotte)."""
    return table.buy_in_max


@dataclass(frozen=True, slots=True)
class SeatedBot:
    user_id: int
    seat: int
    # Seated by an earlier request with the same key: nothing changed now.
    replayed: bool = False


def seat_bot_request(
    table_id: int, level: str, seat_no: int | None, buy_in: int | None, request_key: str
) -> replies.Keyed:
    """Seating a bot with an admin's key (seat_bot), as its stored answer is found."""
    return replies.Keyed(
        f"bot:{table_id}:{request_key}", {"level": level, "seat": seat_no, "buy_in": buy_in}
    )


async def seat_bot(
    session: AsyncSession,
    table: GameTable,
    level: str,
    *,
    request_key: str,
    seat_no: int | None = None,
    buy_in: int | None = None,
    filled: bool = False,
) -> SeatedBot:
    """Sit a bot of `level` down (at `seat_no`, or the next free seat), with `buy_in` chips
    from the bank (or the play bank). A request key already used answers as before."""
    request = seat_bot_request(table.id, level, seat_no, buy_in, request_key)
    if (earlier := await replies.earlier(session, request)) is not None:
        return SeatedBot(int(earlier["user_id"]), int(earlier["seat"]), replayed=True)
    if table.status == TableStatus.CLOSED:
        raise Conflict("table_closed", _("This table is closed."))
    bot = await bot_for(session, table, level)
    reply = await table_service.take_seat(
        session,
        table,
        bot,
        seat_no,
        bot_buy_in(table) if buy_in is None else buy_in,
        request_key,
        filled=filled,
    )
    seated = SeatedBot(bot.id, int(reply.answer["seat"]))
    await replies.remember(session, request, {"user_id": bot.id, "seat": seated.seat})
    return seated


def practice_stakes(game: str, preset: str | None) -> tuple[int, int]:
    """A practice table's buy-in range, up to what its player (and each bot) sits down
    with: the stakes the game's live bench plays many hands at, or the cave of the rules
    chosen where the game has everyone buy the same (Bouillotte, rules/bouillotte.md §1)."""
    game_driver = driver(game)
    if game_driver.buy_in_option is not None:
        try:
            rules = game_driver.resolve_rules(preset, {})
        except ConfigError as error:
            raise InvalidInput("invalid_rules", rule_words.config_refusal(game, error)) from None
        except EngineError as error:
            raise InvalidInput("invalid_rules", error.message) from None
        cave = int(getattr(rules, game_driver.buy_in_option))
        return cave, cave
    bench = game_driver.bench_table
    return bench.buy_in_min, bench.buy_in


async def record_admin(
    session: AsyncSession,
    table: GameTable,
    *,
    by_admin: int,
    action: str,
    after: dict[str, object],
) -> None:
    """An admin's move about bots, in the admin log."""
    await admin_log.record(
        session,
        actor_id=by_admin,
        action=action,
        target_kind="table",
        target_id=table.id,
        target_label=table.name,
        after=after,
    )


async def set_bot_fill(
    session: AsyncSession, table: GameTable, level: str | None, *, by_admin: int
) -> None:
    """Have the table fill its empty seats with bots of `level` (None: no longer)."""
    if level is not None:
        check_level(level)
    if table.practice:
        raise Conflict("practice_table", _("A practice table always fills its seats with bots."))
    before = table.bot_fill
    table.bot_fill = level
    await session.flush()
    await admin_log.record(
        session,
        actor_id=by_admin,
        action="table.bot_fill",
        target_kind="table",
        target_id=table.id,
        target_label=table.name,
        before={"bot_fill": before},
        after={"bot_fill": level},
    )
