"""For the end-to-end tests: server processes, a private tmux server (real programs in real
terminals), the process tree of a program (read from /proc: what a test leaves running),
and reading the table off a player's screen."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from server.commands.spawn import local_command, wait_for_port

REPO = Path(__file__).resolve().parents[2]
START_WAIT = 30.0  # seconds for a server process to listen (bot workers start too)

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

    async def wait_for(
        self, pane: str, text: str | re.Pattern[str], timeout: float = TMUX_WAIT
    ) -> str:
        """The pane once it shows `text` (a string, or a pattern to search for)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen(pane)
            if text.search(screen) if isinstance(text, re.Pattern) else text in screen:
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


# -- servers and their screens ------------------------------------------------------


class ServerProcess:
    """`python -m server.commands.cli` on 127.0.0.1, port 0 (the port comes from --port-file), with
    `extra` options; `name` tells apart the files of several servers in one directory."""

    def __init__(self, data_dir: Path, *extra: str, name: str = "server") -> None:
        self.data_dir = data_dir
        self.extra = extra
        self.port_file = data_dir.parent / f"{name}.port"
        self.log = data_dir.parent / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> int:
        self.port_file.unlink(missing_ok=True)
        with open(self.log, "ab") as log:
            command = local_command(self.data_dir, self.port_file, *self.extra)
            self.proc = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=log)
        try:
            return wait_for_port(self.proc, self.port_file, START_WAIT)
        except RuntimeError as e:
            raise AssertionError(f"{e}:\n{self.log.read_text()}") from None

    def kill(self, sig: int = signal.SIGKILL) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        return self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill(signal.SIGTERM)


def bank(screen: str) -> dict[str, int]:
    """The bank's counts from the table screen (the line goes on with the players' column,
    so it is read up to the gold)."""
    line = next(ln for ln in screen.splitlines() if ln.startswith("Bank"))
    line = line[: line.index("*") + 4]
    return {c: int(n) for c, n in re.findall(r"([WUGRK\*])\s+(\d+)", line)}


def three_colours(screen: str) -> str:
    have = [c for c, n in bank(screen).items() if c != "*" and n > 0]
    return "take " + " ".join(have[:3])


async def type_move(player: Any, move: str) -> None:
    player.press(":")
    await player.wait_for("a move: take W U G")
    player.press(move + "\r")
