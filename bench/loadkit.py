"""What `bench/load.py` is made of: the server process it measures from outside, and
SSH clients whose PTY output feeds a pyte screen checked on every update."""

from __future__ import annotations

import asyncio
import ctypes
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from textscreen import TextScreen, TextStream  # noqa: E402

from server.commands.spawn import local_command, wait_for_port  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SIZE = (110, 36)
KEY_TIMEOUT = 5.0  # a key whose effect never shows counts as this slow
KINDS = {
    ":": "colon (opens the move line)",
    "\r": "enter (plays the move)",
    "l": "cursor (bot's turn)",
}
Latencies = list[tuple[str, float]]
# Keys whose effect never showed within KEY_TIMEOUT, each with what the screen showed
# then (the load generator's players may type a move the table refuses, or the server
# may have lost it: this tells which).
UNSEEN: list[str] = []
CONFIG = """
max_sessions = 2000
max_sessions_per_address = 2000
max_connections_per_address = 2000
max_unauthenticated = 200
keepalive_interval = 0.0
"""
IDLE_CONFIG = "gc_interval = 5.0\n"  # the idle phase: the quiet-time collection comes soon
EXTRA_CONFIG = os.environ.get("BENCH_CONFIG", "").replace(";", "\n")  # "gc_max_interval = 20"


# BENCH_PROFILE=FILE: run the server under cProfile, its stats written to FILE at the end.
PROFILE = (
    ["-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]] if "BENCH_PROFILE" in os.environ else []
)


class ServerProcess:
    """`python -m server.commands.cli` in a temporary data directory, watched through /proc.

    With `workers` > 1 it is the supervisor of that many worker processes sharing the
    port (`database` must be PostgreSQL); CPU and memory are then the workers' sum.
    The log is at INFO: it names the worker each player connected to."""

    def __init__(
        self,
        tmp: Path,
        app: str = "game",
        workers: int = 1,
        database: str | None = None,
        env: dict[str, str] | None = None,
        settings: str = "",
    ) -> None:
        config = tmp / "server.toml"
        config.write_text(CONFIG + settings + EXTRA_CONFIG)
        self.port_file = tmp / "port"
        self.log_path = tmp / "server.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115
        self.workers = workers
        data = str(tmp / "data")
        if app == "echo":
            command = [
                sys.executable,
                str(REPO / "bench" / "echo_server.py"),
                data,
                str(self.port_file),
                str(config),
            ]
        else:
            extra = ["--config", str(config), "--log-level", "DEBUG"]
            if database:
                extra += ["--database", database]
            if workers > 1:
                extra += ["--workers", str(workers)]
            command = local_command(data, self.port_file, *extra)
            if "BENCH_SERVER" in os.environ:  # a wrapper script standing in
                command = [sys.executable, os.environ["BENCH_SERVER"], *command[3:]]
        command[1:1] = PROFILE
        self.proc = subprocess.Popen(
            command,
            cwd=REPO,
            stdout=self.log,
            stderr=self.log,
            env={**os.environ, **(env or {})},
            start_new_session=True,
            preexec_fn=_end_with_us,
        )
        try:
            self.port = wait_for_port(self.proc, self.port_file, 60)
        except RuntimeError as e:
            self.stop()
            raise SystemExit(f"{e}; see {self.log_path}") from None

    def worker_pids(self) -> list[int]:
        """The processes that serve sessions: the workers, or the one server."""
        if self.workers == 1:
            return [self.proc.pid]
        procs = processes()
        return sorted(p for p, info in procs.items() if info.ppid == self.proc.pid)

    def rss_mb(self) -> float:
        return sum(rss_mb(pid) for pid in self.worker_pids())

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.worker_pids())

    def connects(self) -> dict[str, int]:
        """Who connected to which worker so far, from the log's `connect NAME` lines
        (worker 1 when there is one process)."""
        found = {}
        for m in CONNECT.finditer(self.log_path.read_text(errors="replace")):
            found[m.group(2).removeprefix("guest-")] = int(m.group(1) or 1)
        return found

    def collections(self, start: float, end: float) -> list[tuple[float, int, float]]:
        """The server's full garbage collections between two times (time.time()), from its
        log: (when, sessions live, milliseconds)."""
        found = []
        for m in COLLECTED.finditer(self.log_path.read_text(errors="replace")):
            at = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
            if start <= at <= end:
                found.append((at, int(m.group(2)), float(m.group(3))))
        return found

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


# `gc: N objects after M sessions, X ms` (DEBUG): a full collection by the server's janitor.
COLLECTED = re.compile(
    r"^(\S+ \S+) DEBUG (?:worker \d+ )?splendor: gc: \d+ objects after (\d+) sessions, (\d+) ms",
    re.M,
)
CONNECT = re.compile(r"(?:worker (\d+) )?splendor\.ssh: connect (\S+) ")


def _end_with_us() -> None:
    """In the server process, before it runs: its own session, and SIGTERM when the
    benchmark dies, however it dies.

    Its own session is what a server started as a service has, and it matters: Linux
    schedules each session as a group (autogroup), with one share of the CPUs for the
    group. In the benchmark's session, the server and the load generator split one
    share, and every frame the server sends wakes a load-generator process that takes
    the CPU from it."""
    if _prctl is not None:  # resolved beforehand: nothing is imported between fork and exec
        _prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


try:
    _prctl = ctypes.CDLL(None).prctl
except (OSError, AttributeError):  # not Linux
    _prctl = None


# -- processes, from /proc ----------------------------------------------------------------


class ProcInfo:
    __slots__ = ("ppid", "cpu", "rss")

    def __init__(self, ppid: int, cpu: float, rss: float) -> None:
        self.ppid, self.cpu, self.rss = ppid, cpu, rss


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    try:
        fields = _stat(pid)
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited(pid: int) -> float | None:
    """Seconds the threads of `pid` have spent ready to run but waiting for a core: the
    run-queue delay (the second field of /proc/PID/task/TID/schedstat). High beside a
    low CPU share means the process was starved by the machine, not idle. None where
    the kernel keeps no such figures. (A thread that ends takes its figure with it.)"""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    total, read = 0, False
    for tid in tids:
        try:
            total += int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[1])
            read = True
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended meanwhile, or no schedstat
    return total / 1e9 if read else None


def rss_mb(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    m = re.search(r"VmRSS:\s+(\d+)", status)
    return int(m.group(1)) / 1024 if m else 0.0


def processes() -> dict[int, ProcInfo]:
    """Every process of the machine: parent, CPU seconds so far, resident MB."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    page = os.sysconf("SC_PAGE_SIZE") / 2**20
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            f = _stat(int(entry))
        except OSError:
            continue
        out[int(entry)] = ProcInfo(int(f[1]), (int(f[11]) + int(f[12])) / tick, int(f[21]) * page)
    return out


def descendants(procs: dict[int, ProcInfo], roots: list[int]) -> set[int]:
    """`roots` and every process below them."""
    children: dict[int, list[int]] = {}
    for pid, info in procs.items():
        children.setdefault(info.ppid, []).append(pid)
    found, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid in found or pid not in procs:
            continue
        found.add(pid)
        todo += children.get(pid, [])
    return found


def command(pid: int) -> str:
    """A process's command line, shortened, for naming it."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    words = raw.decode(errors="replace").split("\0")
    return " ".join(w.rsplit("/", 1)[-1] if i == 0 else w for i, w in enumerate(words))[:70]


def busiest(
    before: dict[int, ProcInfo], after: dict[int, ProcInfo], skip: set[int], top: int = 3
) -> list[tuple[str, float]]:
    """The processes, other than `skip`, that used the most CPU seconds meanwhile."""
    used = [
        (after[p].cpu - (before[p].cpu if p in before else 0.0), p) for p in after if p not in skip
    ]
    return [(f"{p} {command(p)}", s) for s, p in sorted(used, reverse=True)[:top] if s > 0]


def cpu_used(before: dict[int, ProcInfo], after: dict[int, ProcInfo], pids: set[int]) -> float:
    """CPU seconds `pids` used between two snapshots (those that ended meanwhile: lost)."""
    return sum(after[p].cpu - (before[p].cpu if p in before else 0.0) for p in pids if p in after)


class Guest(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, *args: Any) -> list[str]:
        return []


class Terminal(asyncssh.SSHClientSession[bytes]):
    """A player's terminal: a pyte screen of the text alone (`TextScreen`, `TextStream`),
    and a test that is checked on every update."""

    def __init__(self) -> None:
        self.screen = TextScreen(*SIZE)
        self.stream = TextStream(self.screen)
        self.waiting: tuple[Callable[[], bool], asyncio.Future[float]] | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self._rows: list[str] | None = None
        self._row: dict[int, str] = {}

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.stream.feed(data)
        self._rows = None
        self._row.clear()
        if self.waiting is not None and self.waiting[0]():
            test, done = self.waiting
            self.waiting = None
            if not done.done():
                done.set_result(time.perf_counter())

    def rows(self) -> list[str]:
        """The screen's lines (pyte's `display`, made once per update and without its
        per-character width checks: a wide character's second cell holds "" anyway)."""
        if self._rows is None:
            self._rows = [self.row(y) for y in range(self.screen.lines)]
        return self._rows

    def showing(self) -> str:
        """What a player reads to know where they are: the status line and the prompt."""
        return f"the status line {self.row(0).strip()!r}, the prompt {self.row(-2).strip()!r}"

    def row(self, y: int) -> str:
        """One line of the screen (-1 is the last); the tests look at one or two."""
        y %= self.screen.lines
        text = self._row.get(y)
        if text is None:
            line = self.screen.buffer[y]
            text = self._row[y] = "".join([line[x].data for x in range(self.screen.columns)])
        return text

    def text(self) -> str:
        return "\n".join(self.rows())

    async def until(self, test: Callable[[], bool], timeout: float = 30.0) -> float:
        """The time at which `test` held (now if it already does)."""
        if test():
            return time.perf_counter()
        done = asyncio.get_running_loop().create_future()
        self.waiting = (test, done)
        try:
            return await asyncio.wait_for(done, timeout)
        finally:
            self.waiting = None

    async def key(self, data: str, test: Callable[[], bool], latencies: Latencies | None) -> None:
        """Press `data`; record how long until the screen passes `test`."""
        assert self.chan is not None
        sent = time.perf_counter()
        done = asyncio.get_running_loop().create_future()
        self.waiting = (test, done)
        self.chan.write(data.encode())
        try:
            shown = await asyncio.wait_for(done, KEY_TIMEOUT)
        except TimeoutError:
            shown = sent + KEY_TIMEOUT
            UNSEEN.append(f"{KINDS.get(data, 'letter').split(' ')[0]} {data!r}: {self.showing()}")
        finally:
            self.waiting = None
        if latencies is not None:
            latencies.append((KINDS.get(data, "letter"), shown - sent))


# OpenSSH's own order (`ssh -G host | grep ciphers`), not asyncssh's
OPENSSH_CIPHERS = [
    "chacha20-poly1305@openssh.com",
    "aes128-ctr",
    "aes192-ctr",
    "aes256-ctr",
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
]


async def guest_login(port: int, name: str) -> asyncssh.SSHClientConnection:
    """A guest's SSH connection to the server on loopback, as a player's ssh makes it."""
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=name,
        known_hosts=None,
        agent_path=None,
        client_keys=[],
        client_factory=Guest,
        preferred_auth="keyboard-interactive",
        encryption_algs=OPENSSH_CIPHERS,  # a player's ssh picks what the server allows
    )


async def connect(port: int, name: str) -> tuple[asyncssh.SSHClientConnection, Terminal]:
    conn = await guest_login(port, name)
    chan, term = await conn.create_session(
        Terminal, term_type="xterm-256color", term_size=SIZE, encoding=None
    )
    term.chan = chan
    await term.until(lambda: "Splendor lobby" in term.text(), timeout=120)
    return conn, term


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def lag_probe(lags: list[float]) -> None:
    """This process's event-loop lag: how late a 10 ms sleep wakes (client-side delay
    that inflates every latency measured here)."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - start - 0.01)


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy() -> float:
    """CPU seconds all processes of this machine have used (from /proc/stat)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ticks = [int(f) for f in fields]
    busy = sum(ticks) - ticks[3] - ticks[4]  # minus idle and iowait
    return busy / os.sysconf("SC_CLK_TCK")
