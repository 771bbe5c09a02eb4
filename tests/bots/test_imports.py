"""The bots live in shared/: importing them loads no UI or SSH library, nothing of
client/ or server/ (docs/design.md), so a process pool worker stays small."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_bots_loads_no_textual_asyncssh_rich_client_or_server() -> None:
    code = (
        "import sys, shared.bots\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(loaded & {'textual', 'asyncssh', 'rich', 'client', 'server'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
