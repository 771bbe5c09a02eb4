"""shared/ is pure rules (docs/design.md, docs/contributing.md): importing it loads no UI or
SSH library, it imports nothing of client/ or server/, only the codec imports msgpack,
and its modules import one another without a cycle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
FORBIDDEN = {"textual", "asyncssh", "rich", "client", "server"}


def imported_modules(path: Path) -> set[str]:
    """Top-level names of the absolute imports in one source file."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_importing_shared_loads_no_textual_asyncssh_or_rich() -> None:
    code = (
        "import sys, shared, shared.codec, shared.protocol\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(loaded & {'textual', 'asyncssh', 'rich', 'client', 'server'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=SHARED.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_shared_imports_nothing_of_client_server_or_ui_libraries() -> None:
    for path in sorted(SHARED.rglob("*.py")):
        bad = imported_modules(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(SHARED.parent)} imports {sorted(bad)}"


def test_only_the_codec_imports_msgpack() -> None:
    users = [p.name for p in SHARED.rglob("*.py") if "msgpack" in imported_modules(p)]
    assert users == ["codec.py"]


def module_name(path: Path) -> str:
    """`shared.bots.easy` for shared/bots/easy.py; `shared.bots` for its __init__.py."""
    parts = path.relative_to(SHARED.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def shared_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of shared/ that one file imports, wherever the import statement is:
    at the top, inside a function, or under `if TYPE_CHECKING:`."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:  # `from . import wire` imports shared.wire, not shared
                sub = f"{source}.{alias.name}"
                found.add(sub if sub in modules else source)
    return {m for m in found if m in modules and m != me}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path that ends where it starts, or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        if m in path:
            return path[path.index(m) :] + [m]
        if m in done:
            return None
        path.append(m)
        for n in sorted(graph[m]):
            if (cycle := visit(n)) is not None:
                return cycle
        path.pop()
        done.add(m)
        return None

    for m in sorted(graph):
        if (cycle := visit(m)) is not None:
            return cycle
    return None


def test_shared_modules_import_one_another_without_a_cycle() -> None:
    paths = sorted(SHARED.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    graph = {module_name(p): shared_imports(p, modules) for p in paths}
    assert {"shared.view", "shared.tables"} <= graph["shared.state"]  # relative imports seen
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
