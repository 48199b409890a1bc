"""`salon create-admin` and `salon demo`: found the club, add admins, seed a demo."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from app.commands.preflight import SetupProblem
from app.config import Settings
from app.db.models import MemberStatus, Role
from app.db.session import Database
from app.services import club, ledger, members
from app.services import tables as table_service

DEMO_CLUB_NAME = "Salon Demo Club"
DEMO_MEMBERS = ("alice", "bob", "carol", "dave", "emile")
DEMO_CHIPS = 1000
CREDENTIALS_FILE = "demo-credentials.txt"


def generate_password() -> str:
    # Four groups of five from an unambiguous alphabet: easy to type, ~100 bits.
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "-".join("".join(secrets.choice(alphabet) for _ in range(5)) for _ in range(4))


@dataclass(frozen=True, slots=True)
class AdminCreated:
    username: str
    role: Role
    founded_club: bool


async def create_admin(
    db: Database, *, username: str, password: str, club_name: str
) -> AdminCreated:
    """Found the club with this owner, or, when it exists, add an active admin."""
    async with db.transaction() as session:
        if not await club.club_exists(session):
            _, owner = await club.create_club(
                session, name=club_name, owner_username=username, owner_password=password
            )
            return AdminCreated(owner.username, Role.OWNER, founded_club=True)
        user = await members.create_user(
            session,
            username=username,
            password=password,
            display_name=username,
            role=Role.ADMIN,
            status=MemberStatus.ACTIVE,
        )
        return AdminCreated(user.username, Role.ADMIN, founded_club=False)


# One table of each game, so that a visitor can sit down at once.
DEMO_TABLES = (
    table_service.TableSpec(
        name="Cajun Bourré", game="bourre", rules={}, seat_count=5,
        buy_in_min=20, buy_in_max=200, turn_seconds=30,
    ),
    table_service.TableSpec(
        name="Bouillotte du salon", game="bouillotte", rules={}, seat_count=4,
        buy_in_min=100, buy_in_max=100, turn_seconds=30,
    ),
)  # fmt: skip


async def seed_demo(db: Database, settings: Settings) -> str:
    """Create the demo club once; every call returns the text that tells how to log in.
    Raises SetupProblem when the installation holds a club that is not the demo."""
    credentials = settings.data_dir / CREDENTIALS_FILE
    async with db.transaction() as session:
        if await club.club_exists(session):
            if credentials.exists():
                return "The demo club is ready.\n" + credentials.read_text()
            # A real club: the demo's members and chips must never land in it, and a script
            # that runs `salon demo` has to see that it got no demo (`salon` exits 2).
            raise SetupProblem(
                "This installation already has a club (not created by `salon demo`), so no "
                "demo was made; log in with its admin, or add one with `salon create-admin`."
            )
        admin_password = generate_password()
        member_password = generate_password()
        the_club, owner = await club.create_club(
            session,
            name=DEMO_CLUB_NAME,
            owner_username="admin",
            owner_password=admin_password,
            owner_display_name="Club Admin",
        )
        # Demo visitors should be able to sign up and sit down without waiting.
        the_club.signup_requires_approval = False
        for name in DEMO_MEMBERS:
            user = await members.create_user(
                session,
                username=name,
                password=member_password,
                display_name=name.capitalize(),
                role=Role.MEMBER,
                status=MemberStatus.ACTIVE,
            )
            await ledger.bank_transfer(
                session,
                member_id=user.id,
                amount=DEMO_CHIPS,
                grant=True,
                idempotency_key=f"demo:welcome:{name}",
                reason="Welcome chips",
                actor_id=None,
            )
        for spec in DEMO_TABLES:
            await table_service.create_table(session, owner, spec)
    text = (
        f"  admin login:   admin / {admin_password}   (club owner)\n"
        f"  member logins: {', '.join(DEMO_MEMBERS)} / {member_password}"
        f"   ({DEMO_CHIPS} chips each)\n"
    )
    _write_private(credentials, text)
    return f"Created the demo club '{DEMO_CLUB_NAME}'.\n" + text


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.write_text(text)
