"""The engine and the live table's core are pure: no I/O, no asyncio, no framework, no other
layer of the app."""

import ast
from pathlib import Path

ENGINE = Path(__file__).parents[2] / "app" / "engine"

FORBIDDEN = {
    "asyncio",
    "os",
    "io",
    "sys",
    "socket",
    "subprocess",
    "pathlib",
    "shutil",
    "tempfile",
    "threading",
    "multiprocessing",
    "random",
    "time",
    "datetime",
    "logging",
    "sqlite3",
    "urllib",
    "http",
    "requests",
    "httpx",
    "fastapi",
    "starlette",
    "sqlalchemy",
    "alembic",
    "uvicorn",
    "websockets",
    "aiosqlite",
    "asyncpg",
    "pydantic",
    "pydantic_settings",
    "jinja2",
    "orjson",
    "app.db",
    "app.api",
    "app.ws",
    "app.tables",
    "app.services",
    "app.web",
    "app.main",
    "app.config",
    "app.cli",
    "app.commands",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _called(tree: ast.AST) -> set[str]:
    """The plain names the module calls (`open(...)`, `print(...)`)."""
    return {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def _forbidden(module: str) -> bool:
    return any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN)


def test_engine_modules_import_nothing_forbidden() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        bad = sorted(m for m in _imports(tree) if _forbidden(m))
        assert not bad, f"{path.relative_to(ENGINE)} imports {bad}"
        calls = _called(tree) & FORBIDDEN_CALLS
        assert not calls, f"{path.relative_to(ENGINE)} calls {calls}"


def test_the_scan_catches_a_forbidden_import() -> None:
    tree = ast.parse("import asyncio\nfrom sqlalchemy.orm import Session\nfrom app.db import x\n")
    assert sorted(m for m in _imports(tree) if _forbidden(m)) == [
        "app.db",
        "asyncio",
        "sqlalchemy.orm",
    ]


# The live table's core (app/tables/table.py and the plain modules it stands on) decides
# everything about a table without I/O, so it is held to the engine's rule; it may use the
# engine and the error types, and nothing of the shell around it.
TABLES = ENGINE.parent / "tables"
CORE = ("table.py", "values.py", "events.py")
CORE_MAY_IMPORT = {f"app.tables.{name.removesuffix('.py')}" for name in CORE}


def _core_forbidden(module: str) -> bool:
    if module in CORE_MAY_IMPORT:
        return False
    return _forbidden(module) or module == "app.tables" or module.startswith("app.tables.")


def test_the_table_core_imports_nothing_forbidden() -> None:
    for name in CORE:
        path = TABLES / name
        tree = ast.parse(path.read_text(), filename=str(path))
        bad = sorted(m for m in _imports(tree) if _core_forbidden(m))
        assert not bad, f"app/tables/{name} imports {bad}"
        calls = _called(tree) & FORBIDDEN_CALLS
        assert not calls, f"app/tables/{name} calls {calls}"


def _runtime_imports(tree: ast.AST) -> set[str]:
    """Imports that run: those under `if TYPE_CHECKING:` only name types."""
    found: set[str] = set()
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        pending.extend(ast.iter_child_nodes(node))
    return found


def test_the_table_runtime_reaches_the_database_only_through_the_services() -> None:
    """No module of app/tables runs SQL or imports the database layer: the actor stores
    and reads through app/services."""
    files = sorted(TABLES.rglob("*.py"))
    assert len(files) >= 8
    for path in files:
        imported = _runtime_imports(ast.parse(path.read_text(), filename=str(path)))
        bad = sorted(
            m
            for m in imported
            if m in ("sqlalchemy", "app.db") or m.startswith(("sqlalchemy.", "app.db."))
        )
        assert not bad, f"app/tables/{path.name} imports {bad}"


def test_the_scans_catch_what_they_look_for() -> None:
    tree = ast.parse("from app.tables.actor import TableActor\nfrom app.tables.events import E\n")
    assert sorted(m for m in _imports(tree) if _core_forbidden(m)) == ["app.tables.actor"]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.db import x\n"
        "else:\n    import sqlalchemy\n"
    )
    assert _runtime_imports(tree) == {"typing", "sqlalchemy"}
