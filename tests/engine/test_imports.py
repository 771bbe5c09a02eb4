"""shared/ is pure rules (docs/design.md, docs/contributing.md): importing it loads no UI or SSH
library, it imports nothing of client/ or server/, and only the codec imports msgpack."""

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
