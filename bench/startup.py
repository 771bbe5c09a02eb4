"""How long `splendor play` takes to show its first table, on a real pseudo-terminal.

    .venv/bin/python bench/startup.py                     # 7 runs of this checkout
    .venv/bin/python bench/startup.py --compare /path/to/other/checkout -n 9
    .venv/bin/python bench/startup.py --imports           # the slowest imports as well
    .venv/bin/python bench/startup.py --no-bytecode --compare /path/to/other/checkout

Each run starts `splendor play --players 2 --bots easy --seed 7` (the installed
command's own script, so its worker processes start as a player's would) on a
pseudo-terminal of 110x36, reads what it draws into a pyte screen, and times
launch to the first screen that shows a table ("round 1 · turn"); then it quits
the game with `q` `y` and waits for every process of the run to end. At the first
table it also reads from /proc the CPU time spent so far by the `splendor` process and
by all its processes (bot workers, forkserver, resource tracker), which drift less
with the machine's load than the time does, and how many bot workers are up. Python
keeps its bytecode as on a player's machine: a first run of each checkout, not
counted, writes it (in a directory of the benchmark's own, PYTHONPYCACHEPREFIX, so
that the checkouts get no __pycache__); `--no-bytecode` compiles the project's modules
at every run instead, as a shell with PYTHONDONTWRITEBYTECODE=1 does on a checkout
that has never written any (the runs are on copies of the checkouts' packages).

The machine is shared and its speed drifts, so `--compare` runs another checkout (its
source on PYTHONPATH, this interpreter and packages) in turn with this one, run for
run, and prints the ratio of the medians. `--imports` lists what `python -X importtime`
finds slowest among the imports made before the first screen (each module's best of
a few runs), and with `--compare` what one checkout imports there that the other does not.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

import pyte

REPO = Path(__file__).resolve().parent.parent
ARGS = ["play", "--players", "2", "--bots", "easy", "--seed", "7", "--name", "Ann"]
FIRST_TABLE = re.compile(r"round \d+ · turn \d+")
PROJECT = ("shared", "client", "server")  # the project's packages
SIZE = (110, 36)
IMPORT_RUNS = 5  # `python -X importtime` runs a checkout, each module's best one kept
WAIT = 20.0  # seconds for a screen or an exit before the run counts as failed
# What `splendor play` imports before its app runs (server/commands/play.py `main`, `play`).
FIRST_IMPORTS = (
    "import server.commands.play, client.screens.setup, client.app, server.front.bridge, "
    "server.host.gamehost"
)


def command(tree: Path, pycache: Path | None) -> tuple[list[str], dict[str, str]]:
    """The `splendor` command run on `tree`'s source: the console script (as pip writes it)
    with `tree` first on the path. Python keeps its bytecode in `pycache` (not in the
    checkouts), or with None writes none (and in a copy without any, `bare_copy`, reads
    none of the project's)."""
    script = Path(sys.executable).with_name("splendor")
    return [sys.executable, str(script), *ARGS], python_env(tree, pycache)


def python_env(tree: Path, pycache: Path | None) -> dict[str, str]:
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(tree)}
    for name in ("PYTHONPROFILEIMPORTTIME", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX"):
        env.pop(name, None)
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:  # a player's runs read the bytecode the first one wrote
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def bare_copy(tree: Path, into: Path) -> Path:
    """The project's packages of `tree` copied into `into` without their bytecode."""
    for package in PROJECT:
        shutil.copytree(
            tree / package, into / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return into


class Run:
    """One `splendor play` on a pseudo-terminal, read into a pyte screen."""

    def __init__(self, tree: Path, pycache: Path | None) -> None:
        argv, env = command(tree, pycache)
        self.master, slave = pty.openpty()
        width, height = SIZE
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tree,
            start_new_session=True,
        )  # fmt: skip
        os.close(slave)
        self.state = (0.0, 0.0, 0)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, seen: re.Pattern[str], timeout: float = WAIT) -> float | None:
        """Seconds from launch until the screen matches `seen`; None if it never does."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:  # the program ended: its terminal closed
                return None
            if not data:
                return None
            self.stream.feed(data)
            while select.select([self.master], [], [], 0)[0]:  # the rest of this frame
                try:
                    more = os.read(self.master, 1 << 16)
                except OSError:
                    break
                if not more:
                    break
                self.stream.feed(more)
            if seen.search(self.text()):
                seconds = time.perf_counter() - self.started
                self.state = group_state(self.proc.pid)
                return seconds
        return None

    def quit(self) -> None:
        """Quit as a player does; then make sure no process of the run is left."""
        try:
            os.write(self.master, b"q")
            if self.wait_for(re.compile("quit\\?"), 5.0) is not None:
                os.write(self.master, b"y")
            self.wait_for(re.compile("(?!)"), 0.5)  # drain while it closes
            self.proc.wait(WAIT)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(WAIT)
            os.close(self.master)
            _wait_group_gone(self.proc.pid)


def group_state(group: int) -> tuple[float, float, int]:
    """From /proc: CPU seconds (user + system) so far of the process `group` leads and of
    its whole process group (its helper processes too: on two cores they compete with
    it), and how many bot workers are up (the group's forkserver processes but one)."""
    tick = os.sysconf("SC_CLK_TCK")
    own = every = 0.0
    forkservers = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[2]) == group:
            cpu = (int(fields[11]) + int(fields[12])) / tick
            every += cpu
            own = cpu if int(entry.name) == group else own
            forkservers += b"multiprocessing.forkserver" in command
    return own, every, max(0, forkservers - 1)


def _wait_group_gone(group: int, timeout: float = WAIT) -> None:
    """Wait for the bot workers of a run (its process group) to end with it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.killpg(group, signal.SIGKILL)


def once(tree: Path, pycache: Path | None) -> tuple[float, float, float, int]:
    """One run: seconds to the first table; by then, the CPU seconds spent by the
    `splendor` process and by all of its processes, and the bot workers up."""
    run = Run(tree, pycache)
    try:
        seconds = run.wait_for(FIRST_TABLE)
        if seconds is None:
            raise SystemExit(f"{tree}: no table on the screen within {WAIT}s:\n{run.text()}")
        return (seconds, *run.state)
    finally:
        run.quit()


FIGURES = ("to the first table (s)", "CPU of splendor by then", "CPU of all its processes")


def summary(figures: list[float]) -> str:
    return (
        f"min {min(figures):.3f}  median {statistics.median(figures):.3f}  max {max(figures):.3f}"
    )


def import_times(tree: Path, pycache: Path | None) -> dict[str, int]:
    """Each module imported before the first screen and its own import time (us, what it
    imports left out), from one `python -X importtime` run."""
    env = python_env(tree, pycache)
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", FIRST_IMPORTS],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    ).stderr  # fmt: skip
    times: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].startswith("import time:") and parts[1].strip().isdigit():
            times[parts[2].strip()] = int(parts[0].split(":")[1])
    return times


def show_imports(tree: Path, times: dict[str, int], other: dict[str, int] | None, top: int) -> None:
    """The slowest imports by package and by module; with `other` (the other checkout's),
    the packages it imports before the first screen and this one does not."""
    print(f"\nimports of {tree} before the first screen: {sum(times.values()) / 1e6:.3f} s")
    packages: dict[str, int] = {}
    for name, own in times.items():
        parts = name.split(".")
        head = ".".join(parts[:2] if parts[0] in PROJECT else parts[:1])
        packages[head] = packages.get(head, 0) + own
    print("  by package (ms, its modules' own times added up):")
    for name, total in sorted(packages.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {total / 1000:>8.1f}  {name}")
    print("  modules by their own time (ms):")
    for name, own in sorted(times.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {own / 1000:>8.1f}  {name}")
    if other is not None:
        gone: dict[str, int] = {}
        for name, own in other.items():
            if name not in times:
                parts = name.split(".")
                head = ".".join(parts[:2] if parts[0] in PROJECT else parts[:1])
                gone[head] = gone.get(head, 0) + own
        listed = ", ".join(
            f"{n} {t / 1000:.1f}" for n, t in sorted(gone.items(), key=lambda kv: -kv[1])
        )
        print(f"  not imported, that the other checkout imports (ms): {listed or 'none'}")


def timed(
    trees: list[Path], run_on: dict[Path, Path], count: int, pycache: Path | None
) -> dict[Path, list[tuple[float, float, float, int]]]:
    """`count` runs of each checkout (on `run_on[tree]`), the checkouts in turn."""
    runs: dict[Path, list[tuple[float, float, float, int]]] = {t: [] for t in trees}
    for tree in trees:  # a first run each, not counted: the disk cache, the bytecode
        once(run_on[tree], pycache)
    for i in range(count):
        for tree in trees if i % 2 == 0 else trees[::-1]:
            runs[tree].append(once(run_on[tree], pycache))
        row = ("{:.3f} s (cpu {:.2f} / {:.2f}, {} workers up)".format(*runs[t][-1]) for t in trees)
        print(f"run {i + 1}: " + "   ".join(row), flush=True)
    return runs


def report(trees: list[Path], runs: dict[Path, list[tuple[float, float, float, int]]]) -> None:
    for tree in trees:
        print(f"\n{tree}, {len(runs[tree])} runs:")
        for k, figure in enumerate(FIGURES):
            print(f"  {figure:<26} {summary([r[k] for r in runs[tree]])}")
    if len(trees) == 2:
        print("\nthis / other, medians:")
        for k, figure in enumerate(FIGURES):
            this, other = (statistics.median(r[k] for r in runs[t]) for t in trees)
            print(f"  {figure:<26} {this / other:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=7)
    parser.add_argument("--compare", type=Path, help="another checkout, run in turn with this one")
    parser.add_argument("--imports", action="store_true", help="list the slowest imports too")
    parser.add_argument("--top", type=int, default=12, help="imports listed")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="compile the project's modules at every run (PYTHONDONTWRITEBYTECODE=1 and no "
        "__pycache__: run on copies of the checkouts' packages)",
    )
    args = parser.parse_args()
    trees = [REPO] + ([args.compare.resolve()] if args.compare else [])
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
        bytecode = Path(scratch) / "pycache"  # the runs' bytecode, not in the checkouts
        run_on = {t: t for t in trees}
        if args.no_bytecode:
            run_on = {t: bare_copy(t, Path(scratch) / str(k)) for k, t in enumerate(trees)}
        runs = timed(trees, run_on, args.runs, None if args.no_bytecode else bytecode)
        report(trees, runs)
        if args.imports:  # each module's best of a few runs, the checkouts in turn
            best: dict[Path, dict[str, int]] = {t: {} for t in trees}
            for _ in range(IMPORT_RUNS):
                for tree in trees:
                    for name, own in import_times(tree, bytecode).items():
                        best[tree][name] = min(own, best[tree].get(name, own))
            for tree in trees:
                others = [best[t] for t in trees if t != tree]
                show_imports(tree, best[tree], others[0] if others else None, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
