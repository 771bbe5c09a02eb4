"""A private tmux server for the end-to-end tests: real programs in real terminals."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time

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


def descendants(pid: int) -> set[int]:
    """The pids of every process below `pid` (from /proc; empty where there is none)."""
    children: dict[int, list[int]] = {}
    for stat in _stats():
        children.setdefault(stat[1], []).append(stat[0])
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of `pids` that still run (zombies count as gone)."""
    return {pid for pid, _, state in _stats() if pid in pids and state != "Z"}


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _stats() -> list[tuple[int, int, str]]:
    """(pid, parent pid, state) of every process, from /proc/PID/stat."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue
        rest = text[text.rindex(")") + 2 :].split()  # the name may hold spaces
        out.append((int(entry), int(rest[1]), rest[0]))
    return out
