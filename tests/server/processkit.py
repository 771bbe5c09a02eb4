"""For the end-to-end tests: a private tmux server (real programs in real terminals), and
the process tree of a program, read from /proc (what a test leaves running)."""

from __future__ import annotations

import asyncio
import subprocess
import time
from pathlib import Path

SIZE = (110, 36)  # the table's wide layout
TMUX_WAIT = 20.0


class Tmux:
    """A private tmux server (its own socket) with one pane per player."""

    def __init__(self, name: str) -> None:
        self.socket = name

    def run(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args],
            check=True,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout

    def open(self, pane: str, command: str) -> None:
        width, height = SIZE
        self.run("new-session", "-d", "-s", pane, "-x", str(width), "-y", str(height), command)

    def screen(self, pane: str) -> str:
        return self.run("capture-pane", "-p", "-t", pane)

    def keys(self, pane: str, *keys: str) -> None:
        self.run("send-keys", "-t", pane, *keys)

    async def wait_for(self, pane: str, text: str, timeout: float = TMUX_WAIT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen(pane)
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {text!r} in tmux; the pane:\n{screen}")
            await asyncio.sleep(0.1)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def process_tree(pid: int) -> dict[tuple[int, str], str]:
    """`pid` and every process below it, from /proc: (pid, start time) -> command line.
    The start time tells a process from a later one that got its pid."""
    children: dict[int, list[int]] = {}
    started: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            started[int(entry.name)] = fields[19]
    tree, todo = {}, [pid]
    while todo:
        p = todo.pop()
        try:
            command = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        tree[(p, started[p])] = command
        todo += children.get(p, [])
    return tree


def running(process: tuple[int, str]) -> bool:
    """Whether a process of `process_tree` still runs (not gone, not a zombie)."""
    pid, start = process
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == start and fields[0] != "Z"
