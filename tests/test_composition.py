"""Objects hold their parts; they do not inherit them (issue 32, docs/contributing.md). No
class in `server/` or `client/` may have two or more of the project's own classes among its
ancestors, whether as two bases or as a chain of them: it may build on one (a `LineWidget`,
a `StoreError`) and hold the rest. Bases from elsewhere (Textual, asyncssh, the standard
library) do not count. The classes are read from the source, not imported."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("shared", "client", "server")  # where the project's own classes live
CHECKED = ("client", "server")

# Classes still built from several of the project's classes. Each entry is a debt: empty it.
ALLOWED: frozenset[str] = frozenset()  # none now: every class holds its parts


class Module:
    """One module of the project: its top-level classes and the names it imports."""

    def __init__(self, name: str, path: Path) -> None:
        self.name, self.path = name, path
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.classes = {n.name: n for n in self.tree.body if isinstance(n, ast.ClassDef)}
        self.imports: dict[str, tuple[str, str | None]] = {}  # local name -> (module, name)
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom):
                source = self._absolute(node)
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (source, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imports[alias.asname] = (alias.name, None)
                    else:
                        head = alias.name.split(".")[0]
                        self.imports[head] = (head, None)

    def _absolute(self, node: ast.ImportFrom) -> str:
        if node.level == 0:
            return node.module or ""
        package = self.name.split(".")
        if self.path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        return ".".join(package + ([node.module] if node.module else []))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Module]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = Module(_module_name(path), path)
    return found


def resolve(module: str, name: str, seen: frozenset[tuple[str, str]] = frozenset()) -> str | None:
    """The project class `name` means in `module` (following re-exports), or None."""
    mod = modules().get(module)
    if mod is None or (module, name) in seen:
        return None
    if name in mod.classes:
        return f"{module}.{name}"
    if name in mod.imports:
        source, original = mod.imports[name]
        if original is not None and f"{source}.{original}" not in modules():
            return resolve(source, original, seen | {(module, name)})
    return None


def _dotted(expr: ast.expr) -> list[str] | None:
    if isinstance(expr, ast.Name):
        return [expr.id]
    if isinstance(expr, ast.Attribute):
        head = _dotted(expr.value)
        return None if head is None else [*head, expr.attr]
    return None


def base_class(module: str, expr: ast.expr) -> str | None:
    """The project class a base expression names (`Name`, `pkg.mod.Name`, `Name[T]`)."""
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    parts = _dotted(expr)
    if parts is None:
        return None
    if len(parts) == 1:
        return resolve(module, parts[0])
    imported = modules()[module].imports.get(parts[0])
    if imported is None:
        return None
    source, original = imported
    target = ".".join([source if original is None else f"{source}.{original}", *parts[1:-1]])
    return resolve(target, parts[-1])


def own_ancestors(module: str, node: ast.ClassDef) -> set[str]:
    """Every project class among the ancestors of the class `node` of `module`."""
    found: set[str] = set()
    for expr in node.bases:
        base = base_class(module, expr)
        if base is not None and base not in found:
            found.add(base)
            base_module, _, base_name = base.rpartition(".")
            found |= own_ancestors(base_module, modules()[base_module].classes[base_name])
    return found


def classes_checked() -> dict[str, set[str]]:
    """Each class of `client/` and `server/` (nested ones too), with its project ancestors."""
    out = {}
    for name, mod in modules().items():
        if name.split(".")[0] in CHECKED:
            for node in ast.walk(mod.tree):
                if isinstance(node, ast.ClassDef):
                    out[f"{name}.{node.name}"] = own_ancestors(name, node)
    return out


def test_the_walk_sees_the_projects_own_bases() -> None:
    """Bases are resolved through imports and re-exports; textual's are not the project's."""
    classes = classes_checked()
    assert classes["server.host.seat.Busy"] == {"server.host.seat.TableError"}
    assert classes["client.widgets.board.Board"] == {"client.widgets.lines.LineWidget"}
    assert classes["server.front.bridge.HostBridge"] == {"client.connection.Connection"}
    assert classes["client.widgets.lines.LineWidget"] == set()  # a Textual widget


def test_no_class_is_built_from_two_of_the_projects_classes() -> None:
    several = {name: sorted(bases) for name, bases in classes_checked().items() if len(bases) > 1}
    assert {name: bases for name, bases in several.items() if name not in ALLOWED} == {}
    assert ALLOWED - set(several) == set(), "composed now: take them off ALLOWED"


def test_a_table_holds_its_parts() -> None:
    """`Table` and its parts build on none of the project's classes."""
    classes = classes_checked()
    parts = [
        *("table.Table", "seating.Seating", "clocks.Clocks", "clocks.GameLock"),
        *("votes.Votes", "practice.Practice", "botturns.BotTurns", "archive.Archive"),
    ]
    assert {p: classes[f"server.host.{p}"] for p in parts} == {p: set() for p in parts}
