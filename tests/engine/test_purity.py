"""The engine is pure: no I/O, no asyncio, no framework, no other layer of the app."""

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


def _forbidden(module: str) -> bool:
    return any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN)


def test_engine_modules_import_nothing_forbidden() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        bad = sorted(m for m in _imports(tree) if _forbidden(m))
        assert not bad, f"{path.relative_to(ENGINE)} imports {bad}"
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & FORBIDDEN_CALLS, (
            f"{path.relative_to(ENGINE)} calls {calls & FORBIDDEN_CALLS}"
        )


def test_the_scan_catches_a_forbidden_import() -> None:
    tree = ast.parse("import asyncio\nfrom sqlalchemy.orm import Session\nfrom app.db import x\n")
    assert sorted(m for m in _imports(tree) if _forbidden(m)) == [
        "app.db",
        "asyncio",
        "sqlalchemy.orm",
    ]
