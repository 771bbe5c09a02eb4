"""Starting a server process on loopback for tests, benchmarks and local tries.

    command = local_command(data_dir, port_file, "--log-level", "WARNING")
    proc = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=log)
    port = wait_for_port(proc, port_file, timeout=30)

The server listens on 127.0.0.1, port 0 (any free port), and writes the port it
got to `port_file` once it accepts connections.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def local_command(data_dir: Path | str, port_file: Path | str, *extra: str) -> list[str]:
    """The command line of a server on 127.0.0.1, any free port, with `extra` options."""
    return [
        sys.executable,
        "-m",
        "server.commands.cli",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--data-dir",
        str(data_dir),
        "--port-file",
        str(port_file),
        *extra,
    ]


def wait_for_port(
    proc: subprocess.Popen[bytes], port_file: Path | str, timeout: float = 30.0
) -> int:
    """The port once the server listens; `RuntimeError` if it exits or takes too long."""
    path = Path(port_file)
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not listen within {timeout:g} s")
        time.sleep(0.05)
    return int(path.read_text())
