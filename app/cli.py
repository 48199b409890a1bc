"""The `salon` command."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from app.config import Settings, get_settings

if TYPE_CHECKING:  # the commands import what they need when they run: start-up stays quick
    from app.db.session import Database
    from app.errors import SalonError

T = TypeVar("T")


def _settings() -> Settings:
    settings = get_settings()
    if settings.resolved_database_url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    return settings


def cmd_serve(args: argparse.Namespace) -> int:
    import gc

    import uvicorn

    from app.main import create_app

    settings = _settings()
    host = args.host or settings.host
    port = args.port or settings.port
    app = create_app(settings)
    # A garbage collection pauses every live table at once. What exists now (modules, the
    # ORM's mappers, the validators) lives as long as the process: leave it out of them.
    # Collect the youngest objects every 20,000 allocations, not 700: by then most of an
    # action's objects are freed already, fewer reach the older generations, and the full
    # collections (tens of milliseconds with hundreds of sockets open) become rare.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    print(f"Salon serving on http://{host}:{port} (database: {settings.database_kind})")
    uvicorn.run(
        app,
        host=host,
        port=port,
        # One process: each table's actor lives in it.
        workers=1,
        log_level="info",
        # Table frames are small; refuse large ones before they are read into memory.
        ws_max_size=64 * 1024,
        # Compressing frames this small costs more time than it saves bytes.
        ws_per_message_deflate=False,
    )
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from app.db.migrate import upgrade_head

    settings = _settings()
    upgrade_head(settings.resolved_database_url)
    print(f"Database migrated to the newest schema ({settings.database_kind}).")
    return 0


def _read_password(args: argparse.Namespace) -> tuple[str, bool]:
    """The password from stdin or a prompt, or a generated one (then it is printed)."""
    from app.commands.setup import generate_password

    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n"), False
    if sys.stdin.isatty():
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Again: "):
            raise SystemExit("The passwords differ.")
        return first, False
    return generate_password(), True


def _on_database(work: Callable[[Database], Awaitable[T]]) -> T:
    """Run `work` against the configured database (without a pool: a command is one short
    process) and close it."""
    from app.db.session import Database

    settings = _settings()

    async def run() -> T:
        db = Database(settings.resolved_database_url, null_pool=True)
        try:
            return await work(db)
        finally:
            await db.dispose()

    return asyncio.run(run())


def _refused(error: SalonError) -> int:
    print(f"error: {error.message} ({error.code})", file=sys.stderr)
    return 1


def cmd_create_admin(args: argparse.Namespace) -> int:
    from app.commands.setup import create_admin
    from app.errors import SalonError

    password, generated = _read_password(args)

    async def run(db: Database) -> int:
        try:
            created = await create_admin(
                db, username=args.username, password=password, club_name=args.club_name
            )
        except SalonError as error:
            return _refused(error)
        what = "owner of a new club" if created.founded_club else "admin"
        print(f"Created {created.username} as {what}.")
        if generated:
            print(f"  login: {created.username} / {password}")
        return 0

    return _on_database(run)


def cmd_demo(args: argparse.Namespace) -> int:
    from app.commands.setup import seed_demo

    settings = _settings()

    async def run(db: Database) -> str:
        return await seed_demo(db, settings)

    print(_on_database(run), end="")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from app.services.audit import ClubAudit, club_audit

    async def run(db: Database) -> ClubAudit:
        async with db.transaction() as session:
            return await club_audit(session)

    report = _on_database(run)
    print(
        f"accounts: {report.ledger.accounts}  entries: {report.ledger.entries}  "
        f"chips in circulation: {report.ledger.chips_in_circulation}"
    )
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    for held in report.stranded:
        print(f"  return them with: salon return-stranded {held.account}")
    print("ledger OK" if report.ok else f"ledger INCONSISTENT ({len(report.problems)})")
    return 0 if report.ok else 1


def cmd_return_stranded(args: argparse.Namespace) -> int:
    from app.errors import SalonError
    from app.services.admin_chips import return_stranded

    async def run(db: Database) -> int:
        try:
            async with db.transaction() as session:
                # Logged as an admin action, by "the salon command".
                chips = await return_stranded(session, None, args.account)
        except SalonError as error:
            return _refused(error)
        print(f"returned {chips} chips from {args.account}")
        return 0

    return _on_database(run)


def cmd_replay(args: argparse.Namespace) -> int:
    from app.commands.replay import run_replay

    return run_replay(args.file)


def cmd_bench(args: argparse.Namespace) -> int:
    from app.commands.bench_engine import run_engine_bench

    return run_engine_bench(args.game, args.players, args.hands, args.seed)


def cmd_bench_live(args: argparse.Namespace) -> int:
    from app.commands.bench_live import run_live_bench

    return run_live_bench(
        args.database_url,
        args.tables,
        args.actions,
        args.game,
        args.seed,
        args.think_ms,
        args.clients,
    )


def cmd_bench_hands(args: argparse.Namespace) -> int:
    from app.commands.bench_hands import run_hands_bench

    return run_hands_bench(args.database_url, args.hands, args.requests, args.seed)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="salon", description="Salon: a club card room.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="serve the app with Uvicorn (one process)")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.set_defaults(func=cmd_serve)

    sub.add_parser("migrate", help="upgrade the database to the newest schema").set_defaults(
        func=cmd_migrate
    )

    admin = sub.add_parser(
        "create-admin", help="found the club with its owner, or add an admin to it"
    )
    admin.add_argument("username")
    admin.add_argument("--club-name", default="Salon Club")
    admin.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    admin.set_defaults(func=cmd_create_admin)

    sub.add_parser(
        "demo", help="create a demo club with an admin and members holding chips (once)"
    ).set_defaults(func=cmd_demo)
    sub.add_parser(
        "audit", help="verify the chip ledger and the tables' accounts (exit 1 on any problem)"
    ).set_defaults(func=cmd_audit)
    give_back = sub.add_parser(
        "return-stranded",
        help="give stranded chips back (a seat's to its member, a pot's to "
        "its payers), as an audited ledger operation",
    )
    give_back.add_argument("account", help="the account the audit names, e.g. seat:3:7")
    give_back.set_defaults(func=cmd_return_stranded)

    replay = sub.add_parser("replay", help="replay a table log and print the results as JSON")
    replay.add_argument("file")
    replay.set_defaults(func=cmd_replay)

    bench = sub.add_parser("bench", help="benchmarks")
    bench_sub = bench.add_subparsers(dest="bench", required=True)
    engine = bench_sub.add_parser("engine", help="random legal play through the rules engine")
    engine.add_argument("--game", choices=("bourre", "bouillotte"), default="bourre")
    engine.add_argument("--players", type=int, default=7)
    engine.add_argument("--hands", type=int, default=2000)
    engine.add_argument("--seed", type=int)
    engine.set_defaults(func=cmd_bench)
    live = bench_sub.add_parser(
        "live", help="action latency at live tables over real WebSockets (scratch database)"
    )
    live.add_argument("--database-url", required=True, help="a scratch database to fill")
    live.add_argument("--tables", type=int, default=1)
    live.add_argument("--actions", type=int, default=300, help="actions timed per table")
    live.add_argument("--game", choices=("bourre", "bouillotte"), default="bourre")
    live.add_argument("--seed", type=int, default=1)
    live.add_argument(
        "--think-ms", type=int, default=0, help="robots pause about this long before acting"
    )
    live.add_argument(
        "--clients", type=int, default=2, help="spread the robots' sockets over N processes"
    )
    live.set_defaults(func=cmd_bench_live)
    hands = bench_sub.add_parser(
        "hands", help="hand-history answer times with many stored hands (scratch database)"
    )
    hands.add_argument("--database-url", required=True, help="a scratch database to fill")
    hands.add_argument("--hands", type=int, default=100_000)
    hands.add_argument("--requests", type=int, default=200, help="requests timed per query")
    hands.add_argument("--seed", type=int, default=1)
    hands.set_defaults(func=cmd_bench_hands)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    sys.exit(args.func(args))


if __name__ == "__main__":
    main()
