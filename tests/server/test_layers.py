"""The server's folders are its layers (docs/design.md, "The layers"): commands, then the
SSH front, then the game host, then the store; a module imports only its own layer and
those below it, so the folders show the architecture and nothing reaches up."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"
ORDER = ("commands", "front", "host", "store")  # top to bottom


def imported_layers(path: Path) -> set[str]:
    """The server layers a module imports, absolute or relative (lazy imports too)."""
    layer = path.relative_to(SERVER).parts[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names = [node.module]
            elif node.level == 1:
                names = [f"server.{layer}"]
            elif node.level == 2 and node.module:
                names = [f"server.{node.module}"]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "server" and len(parts) > 1 and parts[1] in ORDER:
                found.add(parts[1])
    return found


def test_every_server_module_sits_in_a_layer_folder() -> None:
    loose = [p.name for p in SERVER.glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    assert {p.name for p in SERVER.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(
        ORDER
    )


@pytest.mark.parametrize("layer", ORDER)
def test_a_layer_imports_only_itself_and_the_layers_below(layer: str) -> None:
    allowed = set(ORDER[ORDER.index(layer) :])
    reaching_up = {
        str(path.relative_to(SERVER)): sorted(imported_layers(path) - allowed)
        for path in sorted((SERVER / layer).rglob("*.py"))
        if imported_layers(path) - allowed
    }
    assert reaching_up == {}
