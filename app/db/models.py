"""The persistent model. Every schema change here comes with an Alembic migration."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.types import TableVersion, UTCDateTime, utcnow
from app.security.tokens import new_token


class Role(StrEnum):
    OWNER = "owner"
    ADMIN = "admin"
    MEMBER = "member"


class MemberStatus(StrEnum):
    PENDING = "pending"
    ACTIVE = "active"
    BANNED = "banned"


class AccountKind(StrEnum):
    """Who holds the chips of a ledger account.

    `bank` is the club's own account: grants move chips out of it and deductions back in, so
    it is the only account allowed below zero (its balance is minus the chips in circulation).
    """

    BANK = "bank"
    MEMBER = "member"
    SEAT = "seat"
    POT = "pot"
    # Play money, for practice tables: where it comes from (below zero, as the bank), the
    # stacks and the pots. Never part of the club's chips in circulation.
    PLAY_BANK = "play_bank"
    PLAY_SEAT = "play_seat"
    PLAY_POT = "play_pot"


# The accounts that may go below zero: each is minus the chips it has handed out.
SOURCE_KINDS = (AccountKind.BANK, AccountKind.PLAY_BANK)
# Play money's accounts: outside the club's circulation.
PLAY_KINDS = (AccountKind.PLAY_BANK, AccountKind.PLAY_SEAT, AccountKind.PLAY_POT)


def _in(column: str, values: Iterable[str]) -> str:
    return f"{column} IN ({', '.join(repr(str(v)) for v in values)})"


class SeedReveal(StrEnum):
    """When a hand's seed (which derives its whole deck) is shown to the players: at the end
    of each hand, or when the table's session ends (it closes, or its last player leaves)."""

    HAND = "hand"
    SESSION = "session"


class Club(Base):
    """The one club of this installation (its row always has id 1)."""

    __tablename__ = "club"
    __table_args__ = (
        CheckConstraint("id = 1", name="single_row"),
        CheckConstraint("default_turn_seconds BETWEEN 5 AND 600", name="turn_seconds_range"),
        CheckConstraint(_in("seed_reveal", SeedReveal), name="seed_reveal_known"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, default=1)
    name: Mapped[str] = mapped_column(String(80))
    chip_unit: Mapped[str] = mapped_column(String(20), default="chips")
    signup_requires_approval: Mapped[bool] = mapped_column(Boolean, default=True)
    default_turn_seconds: Mapped[int] = mapped_column(Integer, default=30)
    members_may_create_tables: Mapped[bool] = mapped_column(Boolean, default=False)
    seed_reveal: Mapped[str] = mapped_column(String(10), default=SeedReveal.SESSION)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The language of whoever chose none and whose browser asks for none Salon speaks
    # (app/i18n/negotiation.py); None: English.
    default_language: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)


class User(Base):
    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint(_in("role", Role), name="role_known"),
        CheckConstraint(_in("status", MemberStatus), name="status_known"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Stored lower-cased: "Alice" and "alice" are the same member.
    username: Mapped[str] = mapped_column(String(32), unique=True)
    display_name: Mapped[str] = mapped_column(String(40))
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(10), default=Role.MEMBER)
    status: Mapped[str] = mapped_column(String(10), default=MemberStatus.PENDING)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # A computer player's level of play (app/bots/levels.py); None for a person. A bot has
    # no password that can match and never logs in.
    bot_level: Mapped[str | None] = mapped_column(String(10), nullable=True, default=None)
    # The language the member chose on their account page; None: their browser's.
    language: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)


class AuthSession(Base):
    """A logged-in browser. The cookie holds a random token; only its SHA-256 is stored, so a
    leaked database does not hand out live sessions."""

    __tablename__ = "auth_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Invite(Base):
    """An invite code: whoever registers with it joins at once, without approval."""

    __tablename__ = "invites"
    __table_args__ = (
        CheckConstraint("max_uses >= 1", name="max_uses_positive"),
        CheckConstraint("uses >= 0 AND uses <= max_uses", name="uses_within_max"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(64), unique=True)
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    max_uses: Mapped[int] = mapped_column(Integer, default=1)
    uses: Mapped[int] = mapped_column(Integer, default=0)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Account(Base):
    """A ledger account. `balance` is a cache of the entries, kept in the same transaction
    and verified by `salon audit`; the CHECK makes an overdraft impossible in the database
    itself, whatever the Python code does."""

    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint(_in("kind", AccountKind), name="kind_known"),
        CheckConstraint(f"{_in('kind', SOURCE_KINDS)} OR balance >= 0", name="no_overdraft"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Unique name of the account: "bank", "member:7", later "seat:3:2", "pot:3".
    key: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(10))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LedgerOperation(Base):
    """One business operation (a grant, a buy-in, a hand's settlement): one or more entries
    applied atomically, at most once per idempotency key."""

    __tablename__ = "ledger_operations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(128), unique=True)
    # SHA-256 of the operation's content: the same key with another body is refused.
    fingerprint: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(32), index=True)
    reason: Mapped[str] = mapped_column(String(200))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class LedgerEntry(Base):
    """One movement of `amount` chips from one account to another (double entry)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("from_account_id <> to_account_id", name="distinct_accounts"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    operation_id: Mapped[int] = mapped_column(ForeignKey("ledger_operations.id"), index=True)
    from_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    to_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class TableStatus(StrEnum):
    OPEN = "open"
    PAUSED = "paused"
    CLOSED = "closed"


class GameTable(Base):
    """A table: its game and house rules, stakes, seats and the state that carries from one
    hand to the next. Chips at the table live in the ledger (`seat:<table>:<user>` stacks and
    `pot:<table>`), not here."""

    __tablename__ = "game_tables"
    __table_args__ = (
        CheckConstraint(_in("status", TableStatus), name="status_known"),
        CheckConstraint("seat_count BETWEEN 2 AND 8", name="seat_count_range"),
        CheckConstraint("buy_in_min >= 1 AND buy_in_min <= buy_in_max", name="buy_in_range"),
        CheckConstraint("turn_seconds BETWEEN 5 AND 600", name="turn_seconds_range"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    # A key of `app.engine.registry`. Checked there, not here, so that a game added to the
    # registry needs no migration; nothing writes a name the registry refuses.
    game: Mapped[str] = mapped_column(String(12))
    # The house rules as the engine's config dict (only the fields that differ from defaults).
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seat_count: Mapped[int] = mapped_column(Integer)
    buy_in_min: Mapped[int] = mapped_column(BigInteger)
    buy_in_max: Mapped[int] = mapped_column(BigInteger)
    turn_seconds: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_code: Mapped[str | None] = mapped_column(String(32), unique=True, nullable=True)
    allow_spectators: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(10), default=TableStatus.OPEN)
    # What the engine carries between hands (button, exemptions…), as the engine writes it.
    session_state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    # The table's session: it ends (and its seeds are revealed) when the table closes or
    # its last player stands up; the next hand dealt opens the next one.
    session: Mapped[int] = mapped_column(Integer, default=1)
    # The version of the last change to the game stored here (a deal, a hand's end): after
    # a restart, an action decided on a view at least as recent is not stale.
    version: Mapped[int] = mapped_column(TableVersion, default=0)
    # The fencing token, raised by every start of the table's actor: the epoch its event
    # versions carry (app/tables/events.py). With several processes serving a club
    # (app/cluster) it also names the owner: every write of the table checks it.
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # The club's house-rule configuration the table was opened from (its rules are a copy
    # taken then, in `rules`: editing the configuration later never changes this table).
    ruleset_id: Mapped[int | None] = mapped_column(ForeignKey("rulesets.id"), nullable=True)
    # A practice table: play money from the play bank, never the club's chips; seen only
    # by the member who opened it (and admins).
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The level of the computer players that fill its empty seats while a person plays
    # here; None: no filling.
    bot_fill: Mapped[str | None] = mapped_column(String(10), nullable=True, default=None)
    # How long the table gathers its players before dealing when play starts (seconds);
    # None: the club's setting (docs/tables.md, "Gathering").
    gathering_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)


class TableSeat(Base):
    """A member sitting at a table. The stack is the ledger account `seat:<table>:<user>`."""

    __tablename__ = "table_seats"
    __table_args__ = (
        UniqueConstraint("table_id", "seat_no", name="uq_table_seats_table_seat"),
        UniqueConstraint("table_id", "user_id", name="uq_table_seats_table_user"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    seat_no: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    # This seating's own id (sit-down to stand-up), random and never reused: the cash-out
    # is keyed by it. Row ids can come back on SQLite, table versions after a restart.
    seating_id: Mapped[str] = mapped_column(String(32), unique=True, default=lambda: new_token(16))
    sitting_out: Mapped[bool] = mapped_column(Boolean, default=False)
    # Stands up (stack back to the balance) as soon as the current hand is over.
    leaving: Mapped[bool] = mapped_column(Boolean, default=False)
    # Hands in a row in which the turn timer acted for this player.
    timed_out_hands: Mapped[int] = mapped_column(Integer, default=0)
    # A bot that sat down to fill the table (`GameTable.bot_fill`), not one an admin seated:
    # it stands up again once no person plays here.
    filled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Hand(Base):
    """One hand at a table: its seed (secret until the hand ends), the table-log header
    needed to replay it alone, and, once over, its table-log entry and result."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
        Index("ix_hands_ended_at_id", "ended_at", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    # The seed the hand is dealt and replayed from: the server seed mixed with the players'
    # contributions (docs/fair-shuffle.md).
    seed: Mapped[str] = mapped_column(String(64))
    # SHA-256 of `server_seed`, shown before the deal (of `seed` for hands stored before
    # contributions existed, which have no `server_seed`).
    commitment: Mapped[str] = mapped_column(String(64))
    server_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Seat number (as text) → the 32-byte value that seat's browser sent, in hex.
    contributions: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    # Table-log header: game, rules, seats (names and stacks), dealer, pot, exempt.
    header: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Seat number → member id for this hand, so histories survive seats changing hands.
    players: Mapped[dict[str, Any]] = mapped_column(JSON)
    entry: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    running: Mapped[bool] = mapped_column(Boolean, default=True, index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # The chips at stake (Bourré: the pot played for; Bouillotte: the pots won), once over.
    pot: Mapped[int] = mapped_column(BigInteger, default=0)
    # The table's session the hand was dealt in, and whether its seed is public yet.
    session: Mapped[int] = mapped_column(Integer, default=1)
    revealed: Mapped[bool] = mapped_column(Boolean, default=False)


class HandSeat(Base):
    """One player's result in a finished hand: what lists, filters and statistics read, so
    that they never re-run a hand. Written in the hand's settlement transaction."""

    __tablename__ = "hand_seats"
    __table_args__ = (
        UniqueConstraint("hand_id", "seat_no", name="uq_hand_seats_hand_seat"),
        Index("ix_hand_seats_user_ended", "user_id", "ended_at", "hand_id"),
        Index("ix_hand_seats_table_ended", "table_id", "ended_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    seat_no: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(12))
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime)
    stack_before: Mapped[int] = mapped_column(BigInteger)
    stack_after: Mapped[int] = mapped_column(BigInteger)
    net: Mapped[int] = mapped_column(BigInteger)
    won: Mapped[bool] = mapped_column(Boolean)
    # Bourré: the chips this player paid for going bourré (0 otherwise, and at Bouillotte).
    bourres_paid: Mapped[int] = mapped_column(BigInteger, default=0)
    # Bouillotte: this player showed a brelan (or a carré).
    brelan: Mapped[bool] = mapped_column(Boolean, default=False)


class HandAction(Base):
    """An accepted action, stored before anyone hears of it (write-ahead)."""

    __tablename__ = "hand_actions"
    __table_args__ = (UniqueConstraint("hand_id", "seq", name="uq_hand_actions_hand_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    # The table-log form: {"seat": 1, "action": "card", "card": "AS"}.
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The id the client chose, so a resent action is recognised and applied once.
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Who acted: a member, or None when the turn timer acted for the seat.
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    # The table version its events were told under (it carries the table's epoch).
    table_version: Mapped[int] = mapped_column(TableVersion)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Set when an admin removed the line: everyone is then shown "removed by an admin"
    # instead of the text (kept for the admins, and in the audit log).
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    removed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)


class RequestReply(Base):
    """The answer given to a request made with a client's idempotency key (sitting down,
    topping up, an admin's grant or deduction): a retry gets exactly this answer again,
    whatever has happened since, and the same key with another request is refused."""

    __tablename__ = "request_replies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    # SHA-256 of the request's content.
    fingerprint: Mapped[str] = mapped_column(String(64))
    answer: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RuleSet(Base):
    """A club's named house rules for one game, as the engine's config dict (only the
    options that differ from the defaults). Archived, never deleted: tables refer to it."""

    __tablename__ = "rulesets"
    __table_args__ = (UniqueConstraint("game", "name", name="uq_rulesets_game_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # A key of `app.engine.registry`, checked there (as `GameTable.game`).
    game: Mapped[str] = mapped_column(String(12))
    name: Mapped[str] = mapped_column(String(60))
    description: Mapped[str] = mapped_column(String(300), default="")
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ChipRequestStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    DECLINED = "declined"


class ChipRequest(Base):
    """A member asking the club for chips. An approval is one ledger movement from the bank
    keyed by this row's id (`chip_request:<id>`), so it can happen at most once."""

    __tablename__ = "chip_requests"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint(_in("status", ChipRequestStatus), name="status_known"),
        Index("ix_chip_requests_status_id", "status", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    note: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[str] = mapped_column(String(10), default=ChipRequestStatus.PENDING)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    # The admin's answer, shown to the member.
    answer: Mapped[str] = mapped_column(String(200), default="")
    operation_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_operations.id"), nullable=True
    )


class AdminAction(Base):
    """One action an admin took, as it was recorded in the same transaction as the change.

    Append-only: the database itself refuses UPDATE and DELETE on this table (triggers made
    by migration 0008, on SQLite and on Postgres, where TRUNCATE is refused too).
    """

    __tablename__ = "admin_actions"
    __table_args__ = (Index("ix_admin_actions_target", "target_kind", "target_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Who acted; None for the `salon` command run on the server itself.
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    # A stable name: "member.approve", "chips.grant", "table.close", "chat.remove"…
    action: Mapped[str] = mapped_column(String(40), index=True)
    # What it was done to: a kind (admin_log.TARGET_KINDS: "member", "table", "ruleset",
    # "chip_request"…) and that thing's id (text: account keys are names, not numbers).
    target_kind: Mapped[str] = mapped_column(String(20))
    target_id: Mapped[str] = mapped_column(String(64))
    # Words for the target as it was then ("alice", "table 'Cajun Bourré'").
    target_label: Mapped[str] = mapped_column(String(100), default="")
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class ChatMute(Base):
    """A member an admin muted in every table's chat until `muted_until` (one row per
    member: muting again replaces it)."""

    __tablename__ = "chat_mutes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    muted_until: Mapped[datetime] = mapped_column(UTCDateTime)
    muted_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PasswordReset(Base):
    """A one-time link an admin (or the `salon` command) made for a member who lost their
    password. The link carries a random token; only its SHA-256 is stored, so the database
    never holds a usable link. A member has at most one: a newer link replaces the older,
    and setting a password through it deletes it (docs/lost-passwords.md)."""

    __tablename__ = "password_resets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    # Who made it; None for the `salon` command run on the server itself.
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
