"""The `salon` command."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from app.bots.levels import LEVELS
from app.config import Settings, get_settings
from app.engine.registry import DEFAULT_GAME, GAME_NAMES, titles_said

if TYPE_CHECKING:  # the commands import what they need when they run: start-up stays quick
    from app.db.session import Database
    from app.errors import SalonError
    from app.services.audit import ClubAudit

T = TypeVar("T")


def _settings() -> Settings:
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    from app.commands.data_folder import check_data_folder
    from app.commands.setting_errors import settings_problem, unreadable_setting
    from app.monitoring.log_setup import configure_logging
    from app.security.passwords import use_hashing

    try:
        settings = get_settings()
    except ValidationError as error:
        raise settings_problem(error) from None
    except SettingsError as error:
        raise unreadable_setting(error) from None
    check_data_folder(settings)
    use_hashing(settings.argon2_profile)
    configure_logging(settings.log_format)
    return settings


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.commands.data_folder import check_secret_key
    from app.commands.embedded_lock import hold_embedded_database
    from app.commands.listening import listening_socket
    from app.commands.preflight import check_migrated, check_redis, sqlite_path
    from app.monitoring.log_setup import logging_config

    settings = _settings()
    check_migrated(settings)
    check_secret_key(settings)
    embedded = sqlite_path(settings.resolved_database_url)
    if embedded is not None:
        hold_embedded_database(embedded)
    if settings.redis_url:
        check_redis(settings)
    host = args.host or settings.host
    port = args.port or settings.port
    # Bound before anything is announced or loaded: a port in use is one sentence.
    sock = listening_socket(host, port)
    from app.main import create_app  # the whole app: imported once the checks have passed

    # The collector is tuned once the tables are loaded (app.tables.gc_pauses).
    app = create_app(settings)
    print(f"Salon serving on http://{host}:{port} (database: {settings.database_kind})")
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        # One process: each table's actor lives in it.
        workers=1,
        log_level="info",
        # The configuration every command logs with (app.monitoring.log_setup), Uvicorn's
        # loggers included; each request's line comes from the app instead of Uvicorn's
        # access log: the app knows its id and the real client behind a trusted proxy.
        log_config=logging_config(settings.log_format),
        access_log=False,
        # Table frames are small; refuse large ones before they are read into memory.
        ws_max_size=64 * 1024,
        # Compressing frames this small costs more time than it saves bytes.
        ws_per_message_deflate=False,
        # A browser that stops answering the protocol's pings (frozen, cut off) is closed,
        # and its seat shown offline (app/ws/endpoint.py, "Liveness").
        ws_ping_interval=settings.ws_ping_seconds,
        ws_ping_timeout=settings.ws_ping_timeout_seconds,
        # The app believes forwarded headers itself, from SALON_TRUSTED_PROXIES only.
        proxy_headers=False,
    )
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: Uvicorn has shut down
        server.run(sockets=[sock])
    # As `uvicorn.run`: a start-up that failed (the app's lifespan) is exit status 3.
    return 0 if server.started else 3


def cmd_migrate(args: argparse.Namespace) -> int:
    from app.commands.preflight import check_reachable
    from app.db.migrate import upgrade_head

    settings = _settings()
    check_reachable(settings)
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
    from app.commands.preflight import check_migrated
    from app.db.session import Database

    settings = _settings()
    check_migrated(settings)

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
    from app.commands.data_folder import writable_data_folder
    from app.commands.setup import seed_demo

    settings = _settings()
    writable_data_folder(settings, "the demo's logins")

    async def run(db: Database) -> str:
        return await seed_demo(db, settings)

    print(_on_database(run), end="")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from app.services.audit import club_audit

    async def run(db: Database) -> ClubAudit:
        async with db.transaction() as session:
            return await club_audit(session)

    return _print_audit(_on_database(run))


def _print_audit(report: ClubAudit) -> int:
    print(
        f"accounts: {report.ledger.accounts}  entries: {report.ledger.entries}  "
        f"chips in circulation: {report.ledger.chips_in_circulation}"
    )
    print(report.circulation.said())
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    for held in report.stranded:
        print(f"  return them with: salon return-stranded {held.account}")
    print("ledger OK" if report.ok else f"ledger INCONSISTENT ({len(report.problems)})")
    return 0 if report.ok else 1


def cmd_backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from app.commands.backup import backup

    print(backup(_settings(), Path(args.path)))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Restore, then audit what was restored: a restore is done when the ledger proves itself."""
    from pathlib import Path

    from app.commands.backup import restore
    from app.services.audit import club_audit
    from app.services.ledger import last_operation_said

    print(restore(_settings(), Path(args.path)))

    async def run(db: Database) -> tuple[ClubAudit, str]:
        async with db.transaction() as session:
            return await club_audit(session), await last_operation_said(session)

    report, last_operation = _on_database(run)
    print(last_operation)
    return _print_audit(report)


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


def cmd_reset_password(args: argparse.Namespace) -> int:
    from app.commands.reset_password import ResetDone, link_origin, reset_password
    from app.errors import SalonError

    settings = _settings()
    origin = link_origin(settings, args.base_url)
    new_password = sys.stdin.readline().rstrip("\n") if args.password_stdin else None

    async def run(db: Database) -> ResetDone | int:
        try:
            return await reset_password(
                db, settings, args.username, origin=origin, new_password=new_password
            )
        except SalonError as error:
            return _refused(error)

    done = _on_database(run)
    if isinstance(done, int):
        return done
    if done.link is None:
        print(f"Password of {done.username} set; sessions ended: {done.sessions_ended}.")
        return 0
    assert done.expires_at is not None
    print(f"One-time link for {done.username} to choose a new password:")
    print(f"  {done.link}")
    print(
        f"It works once, until {done.expires_at:%Y-%m-%d %H:%M} UTC; give it to "
        f"{done.username} yourself. A newer link replaces it."
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from app.commands.replay import run_replay

    return run_replay(args.file)


def cmd_bench(args: argparse.Namespace) -> int:
    from app.commands.bench_engine import run_engine_bench

    return run_engine_bench(args.game, args.players, args.hands, args.seed)


def cmd_bench_bots(args: argparse.Namespace) -> int:
    from app.commands.bench_bots import run_bots_bench

    return run_bots_bench(args.game, args.hands, args.seed, args.players, args.levels, args.presets)


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
        floor=not args.no_floor,
        async_commit=args.async_commit,
        processes=args.processes,
        redis_url=args.redis_url,
    )


def cmd_bench_soak(args: argparse.Namespace) -> int:
    from app.commands.bench_soak import Soak, run_soak_bench

    soak = Soak(
        minutes=args.minutes,
        tables=args.tables,
        kill_every=args.kill_every,
        audit_every=args.audit_every,
        sample_seconds=args.sample_seconds,
        seed=args.seed,
    )
    return run_soak_bench(args.database_url, soak, args.processes, args.redis_url)


def cmd_bench_hands(args: argparse.Namespace) -> int:
    from app.commands.bench_hands import run_hands_bench

    return run_hands_bench(args.database_url, args.hands, args.requests, args.seed)


REPLAY_EXIT_CODES = """exit status:
  0  the log replays: the results (stacks, pots, winners per hand) as JSON on stdout
  1  an action is illegal under the rules: "hand H, action A: ..." on stderr
  2  the file is unreadable, not JSON, or not a table log: the JSON path of the problem
     on stderr (nothing is printed on stdout when a replay fails)"""

SETUP_EXIT_CODE = """Every command exits with status 2 and one sentence saying what to do when
its setup is wrong (settings, an unreachable or missing database, a schema to migrate)."""


class _Help(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Shows each option's default, and keeps the line breaks of descriptions and epilogs."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="salon",
        description=f"Salon: a club card room for {titles_said()}. Settings come from "
        "the environment (docs/configuration.md): DATABASE_URL, SECRET_KEY, "
        "SALON_ENV, SALON_DATA_DIR, ...",
        epilog=SETUP_EXIT_CODE,
        formatter_class=_Help,
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="one of the commands below"
    )

    def command(name: str, summary: str, epilog: str | None = None) -> argparse.ArgumentParser:
        return sub.add_parser(
            name, help=summary, description=summary, epilog=epilog, formatter_class=_Help
        )

    serve = command("serve", "serve the app with Uvicorn (one process holds every live table)")
    serve.add_argument("--host", help="address to listen on (default: SALON_HOST, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default: SALON_PORT, 8000)")
    serve.set_defaults(func=cmd_serve)

    command("migrate", "create or upgrade the database to the newest schema").set_defaults(
        func=cmd_migrate
    )

    admin = command("create-admin", "found the club with its owner, or add an admin to it")
    admin.add_argument("username", help="the new admin's login name")
    admin.add_argument(
        "--club-name", default="Salon Club", help="the club's name, when this founds the club"
    )
    admin.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from standard input (otherwise it is asked for, or "
        "generated and printed when there is no terminal)",
    )
    admin.set_defaults(func=cmd_create_admin)

    command(
        "demo", "create a demo club with an admin and members holding chips (once)"
    ).set_defaults(func=cmd_demo)
    command(
        "audit", "verify the chip ledger and the tables' accounts (exit 1 on any problem)"
    ).set_defaults(func=cmd_audit)
    saved = command(
        "backup",
        "write the club's database to a new file while it plays (SQLite: its online backup; "
        "PostgreSQL: pg_dump's custom format)",
    )
    saved.add_argument("path", help="the backup file to write (it must not exist yet)")
    saved.set_defaults(func=cmd_backup)
    restored = command(
        "restore",
        "restore a backup into an empty database (one without a club), then audit it "
        "(exit 1 on any problem)",
    )
    restored.add_argument("path", help="a file `salon backup` wrote")
    restored.set_defaults(func=cmd_restore)
    give_back = command(
        "return-stranded",
        "give stranded chips back (a seat's to its member, a pot's to its payers), as an "
        "audited ledger operation",
    )
    give_back.add_argument("account", help="the account the audit names, e.g. seat:3:7")
    give_back.set_defaults(func=cmd_return_stranded)

    reset = command(
        "reset-password",
        "print a one-time link for a member (the owner too) to choose a new password, or "
        "set it from standard input; audited as done by the salon command",
    )
    reset.add_argument("username", help="the member's login name")
    reset.add_argument(
        "--base-url",
        help="the site's address in the link (default: the first of SALON_ALLOWED_ORIGINS)",
    )
    reset.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the new password from standard input and set it now, instead of a link",
    )
    reset.set_defaults(func=cmd_reset_password)

    replay = command(
        "replay",
        "replay a table log through the rules engine and print the results as JSON",
        epilog=REPLAY_EXIT_CODES,
    )
    replay.add_argument("file", help="a table log (JSON, see docs/table-log.md)")
    replay.set_defaults(func=cmd_replay)

    bench = command("bench", "benchmarks: each prints its figures")
    bench_sub = bench.add_subparsers(
        dest="bench", required=True, metavar="BENCH", help="one of the benchmarks below"
    )

    def benchmark(name: str, summary: str) -> argparse.ArgumentParser:
        return bench_sub.add_parser(name, help=summary, description=summary, formatter_class=_Help)

    engine = benchmark("engine", "random legal play through the rules engine")
    engine.add_argument("--game", choices=GAME_NAMES, default=DEFAULT_GAME, help="game")
    engine.add_argument("--players", type=int, default=7, help="players dealt in")
    engine.add_argument("--hands", type=int, default=2000, help="hands to play")
    engine.add_argument("--seed", type=int, help="seed for a repeatable run (default: random)")
    engine.set_defaults(func=cmd_bench)
    bots = benchmark(
        "bots", "computer players' levels against each other: chips won per hand per seat"
    )
    bots.add_argument("--game", choices=GAME_NAMES, default=DEFAULT_GAME, help="game")
    bots.add_argument(
        "--hands", type=int, default=2000, help="hands played under each house-rules configuration"
    )
    bots.add_argument(
        "--seed", type=int, help="seed for a repeatable run; None: one is drawn and printed"
    )
    bots.add_argument(
        "--players",
        type=int,
        help="seats, club and random in turn; None: 4, or as many as --levels names",
    )
    bots.add_argument(
        "--levels",
        help=f"the level of each seat, comma-separated, from: {', '.join(LEVELS)}, e.g. "
        "club,club,club,club for positional bias; None: club and random in turn",
    )
    bots.add_argument(
        "--presets",
        help="the game's presets to play, comma-separated; None: every preset",
    )
    bots.set_defaults(func=cmd_bench_bots)
    live = benchmark(
        "live", "action latency at live tables over real WebSockets (scratch database)"
    )
    live.add_argument("--database-url", required=True, help="a scratch database to fill")
    live.add_argument("--tables", type=int, default=1, help="tables played at once")
    live.add_argument("--actions", type=int, default=300, help="actions timed per table")
    live.add_argument("--game", choices=GAME_NAMES, default=DEFAULT_GAME, help="game")
    live.add_argument("--seed", type=int, default=1, help="seed of the robots' choices")
    live.add_argument(
        "--think-ms", type=int, default=0, help="robots pause about this long before acting"
    )
    live.add_argument(
        "--clients", type=int, default=2, help="spread the robots' sockets over N processes"
    )
    live.add_argument(
        "--no-floor",
        action="store_true",
        help="skip the floor runs (a bare broadcast server, then one with an INSERT per action)",
    )
    live.add_argument(
        "--async-commit",
        action="store_true",
        help="serve with SALON_DB_ASYNC_COMMIT=true (commits not waited for on disk)",
    )
    live.add_argument(
        "--processes",
        type=int,
        default=1,
        help="serve with N processes sharing the database (N > 1: PostgreSQL and a Redis)",
    )
    live.add_argument(
        "--redis-url",
        help="the Redis of --processes N > 1 (default: REDIS_URL, else redis://127.0.0.1:6379/0)",
    )
    live.set_defaults(func=cmd_bench_live)
    soak = benchmark(
        "soak",
        "bots and members playing for a long while, processes killed: memory, errors, "
        "audits and losses watched, and a verdict (scratch database)",
    )
    soak.add_argument("--database-url", required=True, help="a scratch database to fill")
    soak.add_argument("--minutes", type=float, default=60.0, help="how long to play")
    soak.add_argument("--tables", type=int, default=50, help="tables played at once")
    soak.add_argument(
        "--processes",
        type=int,
        default=1,
        help="serve with N processes sharing the database (N > 1: PostgreSQL and a Redis)",
    )
    soak.add_argument(
        "--redis-url",
        help="the Redis of --processes N > 1 (default: REDIS_URL, else redis://127.0.0.1:6379/0)",
    )
    soak.add_argument(
        "--kill-every",
        type=float,
        default=5.0,
        help="with several processes, kill one (SIGKILL) every this many minutes; 0: never",
    )
    soak.add_argument(
        "--audit-every", type=float, default=10.0, help="audit the ledger every this many minutes"
    )
    soak.add_argument(
        "--sample-seconds", type=float, default=30.0, help="read the servers' memory this often"
    )
    soak.add_argument("--seed", type=int, default=1, help="seed of the members' choices")
    soak.set_defaults(func=cmd_bench_soak)
    hands = benchmark(
        "hands", "hand-history answer times with many stored hands (scratch database)"
    )
    hands.add_argument("--database-url", required=True, help="a scratch database to fill")
    hands.add_argument("--hands", type=int, default=100_000, help="hands stored before timing")
    hands.add_argument("--requests", type=int, default=200, help="requests timed per query")
    hands.add_argument("--seed", type=int, default=1, help="seed of the generated hands")
    hands.set_defaults(func=cmd_bench_hands)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    from app.commands.preflight import SetupProblem

    args = build_parser().parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()
    except SetupProblem as problem:
        print(f"salon: {problem}", file=sys.stderr)
        status = 2
    except BrokenPipeError:
        # The reader went away (`salon replay hand.json | head`): what it wanted, it has.
        # Point stdout at /dev/null so the interpreter's last flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    sys.exit(status)


if __name__ == "__main__":
    main()
