"""Request and response bodies of the REST API (`XCreate` / `XUpdate` / `XPublic`)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
)
from pydantic_core import PydanticCustomError

from app.engine.registry import GAME_NAMES
from app.security.text import has_control_chars, plain_text
from app.services.ledger import MAX_AMOUNT, MAX_REASON_LENGTH


class Input(BaseModel):
    """Inputs refuse unknown fields and silent type coercion: "5" is not 5."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="after")
    @classmethod
    def _no_control_characters(cls, value: object) -> object:
        if isinstance(value, str) and has_control_chars(value):
            raise ValueError("must not contain control characters")
        return value


if TYPE_CHECKING:
    GameKey = str
else:
    # The registry's games as a Literal, so that validation refuses any other name and the
    # OpenAPI schema lists them as an enum, as if they were written here.
    GameKey = Literal[GAME_NAMES]


class Output(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class ErrorBody(BaseModel):
    code: str
    message: str
    details: dict[str, object] | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody


# Ids are 32-bit integers in the database: anything larger is refused at the door.
MAX_ID = 2_147_483_647
_ID_TEXT = re.compile(r"[0-9]+")


def _id_digits(value: object) -> object:
    """An id sent as text (a path, a query, a form) is read from the digits 0-9 only:
    Python would also read "١٢" (Arabic-Indic digits), full-width digits, "+12" or "1_2"."""
    if isinstance(value, str) and not _ID_TEXT.fullmatch(value):
        raise PydanticCustomError("id_digits", "An id is written with the digits 0 to 9")
    return value


# Every id a route reads, from a path, a query, a form or a JSON body (where, as every
# JSON number, it must be a number, not text).
Id = Annotated[int, Field(ge=1, le=MAX_ID), BeforeValidator(_id_digits)]
# A page's filter form sends its empty choice ("every member") as "": no id at all;
# anything else must be one.
FormId = Annotated[Id | None, BeforeValidator(lambda value: None if value == "" else value)]
Username = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Password = Annotated[StrictStr, Field(min_length=1, max_length=256)]
Amount = Annotated[StrictInt, Field(gt=0, le=MAX_AMOUNT)]
IdempotencyKey = Annotated[StrictStr, Field(min_length=8, max_length=128)]
# Shown to the member and the admins: stored cleaned (NFC, no hidden characters).
Reason = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_REASON_LENGTH), plain_text(MAX_REASON_LENGTH)
]
RoleName = Literal["owner", "admin", "member"]
StatusName = Literal["pending", "active", "banned"]
SeedRevealName = Literal["hand", "session"]


class HealthPublic(Output):
    # "degraded" (with HTTP 503): this process cannot serve its tables fully; `reason` says why.
    status: Literal["ok", "degraded"]
    database: str
    # Only when several processes serve the club: whether this one reaches Redis.
    redis: Literal["up", "down"] | None = None
    reason: str | None = None


class CsrfPublic(Output):
    csrf_token: str


class RegisterCreate(Input):
    username: Username
    password: Password
    display_name: Annotated[StrictStr, Field(min_length=1, max_length=64)] | None = None
    invite_code: Annotated[StrictStr, Field(min_length=1, max_length=64)] | None = None


class LoginCreate(Input):
    username: Username
    password: Password


class PasswordUpdate(Input):
    current_password: Password
    new_password: Password


class MemberPublic(Output):
    id: int
    username: str
    display_name: str
    role: RoleName
    status: StatusName
    created_at: datetime


class MemberWithBalance(MemberPublic):
    balance: int


class RegisterPublic(Output):
    member: MemberPublic
    logged_in: bool
    csrf_token: str | None = None


class LoginPublic(Output):
    member: MemberPublic
    csrf_token: str


class ProfilePublic(MemberWithBalance):
    chip_unit: str
    csrf_token: str


class LedgerEntryPublic(Output):
    entry_id: int
    operation_id: int
    created_at: datetime
    kind: str
    reason: str
    actor_id: int | None
    from_account: str
    to_account: str
    amount: int


class RoleUpdate(Input):
    role: Literal["admin", "member"]


class ChipMovementCreate(Input):
    member_id: Id
    amount: Amount
    reason: Reason
    idempotency_key: IdempotencyKey


class ChipMovementPublic(Output):
    operation_id: int
    replayed: bool
    balance: int


class ClubPublic(Output):
    name: str
    chip_unit: str
    signup_requires_approval: bool
    default_turn_seconds: int
    members_may_create_tables: bool
    # When hand seeds are shown to players: at the end of each hand, or of the table's session.
    seed_reveal: SeedRevealName


class ClubSettingsPublic(ClubPublic):
    """The settings as the admins edit them. Sent without null fields: a club without a
    default language has no `default_language`."""

    # The language of visitors and members who chose none and whose browser asks for none
    # Salon speaks (a code of /i18n's languages); absent: English.
    default_language: str | None = None


class GamePublic(Output):
    """A game the club deals, as the pages need it to offer and show it."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    default_seats: int
    presets: list[str]
    # The options a table's opener sets over the house rules (ante, pot limit, cave).
    stakes: list[str]
    # The option whose value is the whole buy-in (Bouillotte's cave), or null for a range.
    buy_in_option: str | None
    # By the number of players dealt in, the ranks of the pack ("8", "9", "K", "A"), each
    # in every suit: what the shuffle verifier (static/js/fair.js) deals from.
    packs: dict[int, list[str]]


class ClubUpdate(Input):
    name: Annotated[StrictStr, Field(min_length=1, max_length=80)] | None = None
    chip_unit: Annotated[StrictStr, Field(min_length=1, max_length=20)] | None = None
    signup_requires_approval: StrictBool | None = None
    default_turn_seconds: Annotated[StrictInt, Field(ge=5, le=600)] | None = None
    members_may_create_tables: StrictBool | None = None
    seed_reveal: SeedRevealName | None = None
    # A language Salon speaks ("fr", "el"…), or "" for none (English); unknown codes are
    # refused with `unknown_language`.
    default_language: Annotated[StrictStr, Field(max_length=16)] | None = None


class InviteCreate(Input):
    max_uses: Annotated[StrictInt, Field(ge=1, le=1000)] = 1
    expires_in_days: Annotated[StrictInt, Field(ge=1, le=365)] | None = 7


class InvitePublic(Output):
    id: int
    code: str
    max_uses: int
    uses: int
    revoked: bool
    expires_at: datetime | None
    created_at: datetime


class StrandedPublic(Output):
    account: str
    table_id: int
    # None for a closed table's pot.
    member_id: int | None
    chips: int


class CirculationPublic(Output):
    """Where the chips in circulation are (services.circulation): members' balances and
    stacks (together, held by members), the house bots' stacks and the tables' pots."""

    balances: int
    stacks: int
    held_by_members: int
    bot_stacks: int
    pots: int


class AuditPublic(Output):
    ok: bool
    accounts: int
    entries: int
    chips_in_circulation: int
    circulation: CirculationPublic
    problems: list[str]
    stranded: list[StrandedPublic]


class StrandedReturn(Input):
    account: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^(seat|pot):[0-9:]+$")]


class ReturnedPublic(Output):
    account: str
    chips: int


class GcPausesPublic(Output):
    """The garbage collector's pauses in one generation (ms): every table waits meanwhile."""

    generation: int
    count: int
    median_ms: float | None
    p99_ms: float | None
    max_ms: float | None


class ActionWritesPublic(Output):
    """The accepted actions stored, and in how many commits (group commit: one commit
    carries every action handed over while the previous one was being written)."""

    writes: int
    actions: int
    largest_write: int
    actions_per_write: float | None


class LatencyPublic(Output):
    """Live tables: time from an action received to the last seat's broadcast sent (ms),
    the collector's pauses and the action writes over the same time."""

    count: int
    median_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    gc_pauses: list[GcPausesPublic] = []
    action_writes: ActionWritesPublic | None = None


# House-rule options by name, each any JSON value: the engine's validator judges every
# value and names the option in its refusal ("Rule option 'ante' must be an integer."). A
# union of types here would refuse 1.5 first, at a location naming the union's members
# ("rules.ante.bool").
RuleOptionValues = Annotated[dict[str, JsonValue], Field(max_length=40)]
RequestKey = Annotated[StrictStr, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Chips = Annotated[StrictInt, Field(ge=1, le=MAX_AMOUNT)]


class TableCreate(Input):
    name: Annotated[StrictStr, Field(min_length=1, max_length=60), plain_text(60)]
    game: GameKey
    preset: Annotated[StrictStr, Field(min_length=1, max_length=40)] | None = None
    # Options that differ from the preset (or from the defaults), as in the table log.
    rules: RuleOptionValues = Field(default_factory=dict)
    seat_count: Annotated[StrictInt, Field(ge=2, le=8)]
    buy_in_min: Chips
    buy_in_max: Chips
    turn_seconds: Annotated[StrictInt, Field(ge=5, le=600)] | None = None
    # Seconds the table gathers its players before dealing when play starts; None: the
    # club's setting.
    gathering_seconds: Annotated[StrictInt, Field(ge=0, le=120)] | None = None
    private: StrictBool = False
    allow_spectators: StrictBool = True
    # A saved house-rule configuration (instead of a preset): the table keeps a copy of its
    # rules; `rules` then holds only the stakes set over it (ante, pot limit, cave).
    ruleset_id: Id | None = None


BotLevel = Annotated[StrictStr, Field(min_length=1, max_length=10, pattern=r"^[a-z]+$")]


class PracticeCreate(Input):
    """A practice table for the caller alone: play money, bots in the other seats."""

    game: GameKey
    preset: Annotated[StrictStr, Field(min_length=1, max_length=40)] | None = None
    # Players at the table, the caller included: every other seat gets a bot.
    seat_count: Annotated[StrictInt, Field(ge=2, le=8)] = 4
    level: BotLevel = "club"


class BotCreate(Input):
    level: BotLevel = "club"
    seat: Annotated[StrictInt, Field(ge=0, le=7)] | None = None
    # Chips from the club's bank; the table's maximum buy-in when left out.
    buy_in: Chips | None = None
    request_key: RequestKey


class BotFillUpdate(Input):
    # The level of the bots that fill empty seats while a person plays; null: stop.
    level: BotLevel | None


class BotFillPublic(Output):
    bot_fill: str | None


class TableUpdate(Input):
    """Before the table's first hand only; fields left out stay as they are."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=60), plain_text(60)] | None = None
    ruleset_id: Id | None = None
    # The stakes over the configuration's rules (ante, pot limit / cave), as a whole.
    stakes: dict[str, StrictInt | None] | None = Field(default=None, max_length=5)
    buy_in_min: Chips | None = None
    buy_in_max: Chips | None = None


class SeatPublic(Output):
    seat: int
    name: str
    username: str
    stack: int
    sitting_out: bool
    # A computer player's level; None for a person.
    bot: str | None = None


class TablePublic(Output):
    id: int
    name: str
    game: str
    status: str
    rules: dict[str, object]
    seat_count: int
    buy_in_min: int
    buy_in_max: int
    turn_seconds: int
    gathering_seconds: int | None = None
    private: bool
    allow_spectators: bool
    seats: list[SeatPublic]
    hand_in_progress: bool
    hands_played: int
    spectators: int
    # Only shown to admins and to the creator of a private table.
    invite_code: str | None = None
    # The saved configuration the table was opened from, and its house rules in one line
    # (the stakes, in `rules`, are not repeated in it).
    ruleset_id: int | None = None
    rules_summary: str = ""
    # Play money, the opener's alone; and the level of the bots filling empty seats.
    practice: bool = False
    bot_fill: str | None = None


class SeatCreate(Input):
    seat: Annotated[StrictInt, Field(ge=0, le=7)] | None = None
    buy_in: Chips
    request_key: RequestKey
    invite_code: Annotated[StrictStr, Field(min_length=1, max_length=32)] | None = None


class TopUpCreate(Input):
    amount: Chips
    request_key: RequestKey


class SeatResult(Output):
    seat: int | None = None
    stack: int | None = None
    left: bool | None = None
    after_hand: bool | None = None
    returned: int | None = None
    sitting_out: bool | None = None


class StatusPublic(Output):
    status: str


class HandPlayerPublic(Output):
    seat: int
    name: str
    username: str
    net: int
    won: bool


class HandSummaryPublic(Output):
    id: int
    table_id: int
    table_name: str
    game: str
    number: int
    ended_at: datetime
    # The chips at stake (Bourré: the pot played for; Bouillotte: the pots won).
    pot: int
    # Played at a practice table, with play money (listed only with practice=true).
    practice: bool = False
    players: list[HandPlayerPublic]
    # Display names of those who took chips from the pot.
    winners: list[str]
    # The caller's net in this hand; None when the caller was not dealt in.
    my_net: int | None


class HandPagePublic(Output):
    hands: list[HandSummaryPublic]
    # Pass it back as `cursor` for the next page; None on the last page.
    next_cursor: str | None


class HandStepPublic(Output):
    label: str
    kind: Literal["deal", "action", "end"]
    trick: int | None
    round: str | None
    # The live table view's shape (`TableActor._view`), as this viewer saw the table.
    view: dict[str, Any]


class HandDetailPublic(Output):
    hand: HandSummaryPublic
    # True for an admin's view: every seat's cards.
    full: bool
    viewer_seat: int | None
    revealed: bool
    commitment: str
    # The hand's seed: to admins, and to players once the club's reveal policy allows.
    seed: str | None
    # With the seed (docs/fair-shuffle.md): the committed server seed, the players' shares
    # mixed into it (seat → hex) and the pack as dealt, top first, for the Verify panel.
    server_seed: str | None = None
    contributions: dict[str, str] | None = None
    deck: list[str] | None = None
    result: dict[str, Any]
    steps: list[HandStepPublic]


class HandTallyPublic(Output):
    hands: int
    won: int
    net: int
    bourres_paid: int
    brelans: int


class MonthTallyPublic(HandTallyPublic):
    month: str
    game: str


class DayNetPublic(Output):
    day: str
    net: int


class HandStatsPublic(Output):
    by_game: dict[str, HandTallyPublic]
    by_month: list[MonthTallyPublic]
    net_by_day: list[DayNetPublic]


class PasswordResetPublic(BaseModel):
    """A one-time link for a member to choose a new password: answered this once (only
    its digest is kept), to be handed to the member by the admin."""

    url: str
    expires_at: datetime


class RejectedPublic(BaseModel):
    """A pending sign-up turned down (and removed)."""

    id: int
    username: str
