"""Load benchmark: concurrent SSH sessions with PTYs, playing real games by keystrokes.

    .venv/bin/python bench/load.py                   # 200 idle, then 50 playing: 3 minutes
    .venv/bin/python bench/load.py --players 50 --rate 1 --duration 60 --idle 0
    .venv/bin/python bench/load.py --players 0 --idle 200
    .venv/bin/python bench/load.py --idle 0 --players 200 --workers 2 --postgres
    .venv/bin/python bench/load.py --idle 0 --players 200 --compare    # SQLite x1 | PG x2
    .venv/bin/python bench/load.py --idle 0 --players 100,150 --setups sqlite:1,postgres:1
    .venv/bin/python bench/load.py --idle 0 --players 50 --clocks none,5+10
    .venv/bin/python bench/load.py --idle 0 --capacity --setups sqlite:1,postgres:1
    .venv/bin/python bench/load.py --idle 0 --players 100 --wire 400   # and on the subsystem

Each run starts its own `splendor-server` on 127.0.0.1 (loopback only) and measures
it from outside (/proc): resident memory and CPU time, summed over its workers when
it has several (`--workers N`: a supervisor and N processes sharing the port, on
PostgreSQL: `--database URL`, or `--postgres` for a throwaway server of our own,
started once and removed at the end). The players log in as guests; the server's
log names the worker each one landed on, and a cluster run whose players miss a
worker is refused.

- idle: `--idle` sessions connect (guests, 110x36 PTYs) and sit in the lobby;
  prints the server's memory per session (target: at most 5 MB).
- play: `--players` sessions (with `--lobby` more sitting in the lobby, which
  lists every game live) each start a quick game against an easy bot and
  press a key every 1/`--rate` seconds from the moment they sit down; the keys of
  the `--duration` seconds after the last one sat down are measured
  (`bench/loadclient.py`). Each key's latency runs from the write to the moment
  the screen (a pyte emulator) shows its effect; prints p50/p90/p99 (target: p99
  <= 100 ms), by kind of key and by worker, the server's CPU and memory, and what
  the rest of the machine did meanwhile (bots, PostgreSQL, the load generator,
  other processes).

The load generator is `--clients` processes (default: one per 50 sessions), so that
it is not what the figure measures: each prints its CPU and its own event-loop lag,
which is part of every latency it measures. Its players' screens keep the text alone,
which is all they read (`bench/textscreen.py`: pyte's text, cell for cell, for about
a fifth of pyte's time).

A player who cannot sit down (the quick game refused, or never shown) is left out and
counted; the run goes on with the others, and is over capacity when more than one in
twenty could not sit down. `--capacity` finds, for each setup, the largest player count
it holds (p99 <= 100 ms, nearly everyone seated), to `--step` players: up from the first
`--players` count by half again while it holds, then halving the gap; with `--repeat R`,
each count is run R times and judged by the run with the median p99. Measure for 30 s or
more: a player's move takes about a dozen keys (":", the notation, Enter), so a shorter
window holds mostly letters, the cheapest keys, and few moves or bot answers.

`--compare` runs, in one invocation and at each player count, one process on SQLite
and `--workers` (default 2) on PostgreSQL; `--setups` names any list of them;
`--repeat R` runs the whole list R times, interleaved. Several runs end with a table
side by side.

`--wire N` adds N players on the `splendor` SSH subsystem (`bench/wireplayer.py`: no
terminal, the protocol's messages only) beside the terminal ones, arriving between them;
their kind of key is "move (subsystem)", from the move's bytes written to the view after
it received, and a run of them alone prints the server's CPU a move.

`--clocks none,5+10` plays each run once for each time control, every game on that
clock (the running one counts down on every player's screen once a second), and
ends with their p99s and server CPU as ratios to the first clock's, and the server
CPU the clock adds per session (one tick a second): the machine is shared, so a
ratio measured in one run means more than two absolute figures.

Looking inside the server: `--loopwatch DIR` times every callback of each worker's
event loop and samples the stacks of long ones (`bench/loopwatch.py`);
`--py-spy DIR` records each worker with py-spy during the measured window;
BENCH_PROFILE=FILE runs a one-process server under cProfile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loadkit import (
    IDLE_CONFIG,
    KEY_TIMEOUT,
    REPO,
    ServerProcess,
    busiest,
    connect,
    cpu_used,
    descendants,
    machine_busy,
    percentile,
    processes,
    rss_mb,
    waited,
)
from wireplayer import MOVE

from shared.clock import PRESETS  # loadkit put this checkout first on sys.path

CLIENT = Path(__file__).resolve().parent / "loadclient.py"
HOOKS = Path(__file__).resolve().parent / "hooks"
SESSIONS_PER_CLIENT = 50
TARGET_P99 = 100.0  # ms: a setup holds a player count whose p99 keystroke-to-screen is this
CAPACITY_MAX = 1000  # players: the capacity search goes no higher
KINDS_SHORT = {
    "colon (opens the move line)": "colon",
    "enter (plays the move)": "enter",
    "cursor (bot's turn)": "cursor",
    "letter": "letter",
    MOVE: "wire",
}


class RunStopped(Exception):
    """A run that could not measure (players never seated, a worker without any, the load
    generator silent): the end of the benchmark, but only an over-capacity count to
    `--capacity`. Anything else wrong (no PostgreSQL here) ends a search too."""


@dataclass(frozen=True)
class Setup:
    """A server to measure: its store and how many processes."""

    backend: str  # "sqlite" or "postgresql"
    workers: int = 1

    @property
    def label(self) -> str:
        store = "SQLite" if self.backend == "sqlite" else "PostgreSQL"
        return f"{store}, {self.workers} process{'es' if self.workers > 1 else ''}"


def parse_setup(text: str) -> Setup:
    backend, _, workers = text.partition(":")
    backend = {"pg": "postgresql", "postgres": "postgresql"}.get(backend, backend)
    if backend not in ("sqlite", "postgresql"):
        raise argparse.ArgumentTypeError(f"{text!r}: sqlite:N or postgres:N")
    setup = Setup(backend, int(workers or 1))
    if setup.backend == "sqlite" and setup.workers > 1:
        raise argparse.ArgumentTypeError(f"{text!r}: more than one process needs PostgreSQL")
    return setup


class Databases:
    """Where each run keeps its data: SQLite in the run's data directory, or a new
    database on the PostgreSQL server given (`--database`) or started here."""

    def __init__(self, url: str | None, own_postgres: bool) -> None:
        self.url = url
        self.own = own_postgres
        self.cluster: Any = None

    def for_run(self, setup: Setup) -> str | None:
        if setup.backend == "sqlite":
            return self.url if self.url and self.url.startswith("sqlite") else None
        if self.url and self.url.startswith("postgres"):
            return self.url
        if self.cluster is None:
            from server.store.pgtemp import PgCluster, bin_dir

            bindir = bin_dir()
            if bindir is None:
                raise SystemExit("PostgreSQL's server binaries are not installed here")
            self.cluster = PgCluster(bindir)
            self.cluster.init()
            self.cluster.start()
            print(
                f"PostgreSQL {bindir.parent.name}: a throwaway server on port {self.cluster.port}"
            )
        return str(self.cluster.create_database())

    def postmaster(self) -> int | None:
        if self.cluster is None:
            return None
        try:
            return int((self.cluster.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.remove()
            self.cluster = None


# -- the load generator's processes -------------------------------------------------------------


class Clients:
    """`bench/loadclient.py` processes, each with its share of the sessions."""

    def __init__(self, jobs: list[dict[str, Any]]) -> None:
        self.jobs = jobs
        self.procs: list[asyncio.subprocess.Process] = []
        self.lobby = [0] * len(jobs)
        self.seated = [0] * len(jobs)
        self.unseated: list[list[str]] = [[] for _ in jobs]  # why players could not sit down
        self.results: list[dict[str, Any] | None] = [None] * len(jobs)
        self.errors: list[str] = []
        self._readers: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        for i, job in enumerate(self.jobs):
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(CLIENT),
                cwd=REPO,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=2**26,
            )
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(job).encode() + b"\n")
            self.procs.append(proc)
            self._readers.append(asyncio.create_task(self._read(i, proc)))

    async def _read(self, i: int, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        async for line in proc.stdout:
            message = json.loads(line)
            if "lobby" in message:
                self.lobby[i] = message["lobby"]
            elif "seated" in message:
                self.seated[i] = message["seated"]
                self.unseated[i] = message.get("failed", [])
            elif "result" in message:
                self.results[i] = message["result"]
            elif "error" in message:
                self.errors.append(f"client {i + 1}: {message['error']}")
        if self.results[i] is None and not self.errors:
            self.errors.append(f"client {i + 1} exited ({await proc.wait()})")

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    async def say(self, word: str) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            if proc.returncode is None:
                proc.stdin.write(word.encode() + b"\n")
                await proc.stdin.drain()

    async def wait_results(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while any(r is None for r in self.results) and not self.errors:
            if time.monotonic() > deadline:
                raise RunStopped("the load generator's processes did not report")
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.stdin is not None and not proc.stdin.is_closing():
                proc.stdin.close()
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        for task in self._readers:
            task.cancel()


def plan(
    n: int,
    lobby: int,
    clients: int,
    arrival: float,
    period: float,
    port: int,
    app: str,
    clock: str = "none",
    wire: int = 0,
) -> list[dict[str, Any]]:
    """The jobs: players dealt round-robin, so that arrivals (one every `arrival` s in all)
    interleave across the processes; every game on `clock`. `wire` more players play on
    the `splendor` subsystem (`bench/wireplayer.py`), their arrivals between the others'."""
    jobs: list[dict[str, Any]] = [
        {
            "port": port,
            "app": app,
            "period": period,
            "clock": clock,
            "players": [],
            "wire": [],
            "lobby": [],
        }
        for _ in range(clients)
    ]
    spread = [(i / max(1, n), "players", f"p{i}") for i in range(n)]
    spread += [((j + 0.5) / max(1, wire), "wire", f"w{j}") for j in range(wire)]
    for i, (_, kind, name) in enumerate(sorted(spread)):  # the two kinds arrive mixed
        jobs[i % clients][kind].append([name, i * arrival])
    for j in range(lobby):
        jobs[j % clients]["lobby"].append(f"lobby{j}")
    return jobs


# -- one run ------------------------------------------------------------------------------------


@dataclass
class Run:
    setup: Setup
    players: int
    clock: str = "none"  # every game's time control
    wall: float = 0.0
    keys: list[tuple[str, str, float]] = field(default_factory=list)  # (player, kind, seconds)
    per_worker: dict[int, int] = field(default_factory=dict)  # players on each worker
    where: dict[str, int] = field(default_factory=dict)  # player -> worker
    worker_cpu: list[float] = field(default_factory=list)  # seconds, per worker
    worker_wait: list[float | None] = field(default_factory=list)  # seconds waiting for a core
    base_mb: float = 0.0
    rss_mb: list[float] = field(default_factory=list)  # per worker, at the end
    bots: float = 0.0
    postgres: float | None = None
    clients: list[dict[str, Any]] = field(default_factory=list)
    client_cpu: float = 0.0  # the load generator's processes and this one
    machine: float = 0.0
    others: list[tuple[str, float]] = field(default_factory=list)  # the busiest other processes
    loopwatch: list[list[str]] = field(default_factory=list)
    collections: list[tuple[float, int, float]] = field(default_factory=list)  # full GCs
    unseated: int = 0  # players who could not sit down (not measured)
    error: str = ""  # why the run stopped before measuring (a capacity search goes on)

    @property
    def verdict(self) -> str:
        """Whether this run held its players: p99 <= TARGET_P99 with nearly all seated."""
        p99 = self.pct(99)
        if self.error:
            return f"over capacity (the run stopped: {self.error})"
        if self.unseated > self.players // 20:  # a few may fail to sit down in a rush
            return "over capacity (players could not sit down)"
        if p99 is None or p99 > TARGET_P99:
            return "over capacity (p99 above the target)"
        return "holds"

    @property
    def holds(self) -> bool:
        return self.verdict == "holds"

    def ms(self, kind: str | None = None) -> list[float]:
        return [v * 1000 for _, k, v in self.keys if kind is None or KINDS_SHORT[k] == kind]

    def pct(self, p: float, kind: str | None = None) -> float | None:
        values = self.ms(kind)
        return percentile(values, p) if values else None

    def share(self, seconds: float | None) -> float | None:
        """CPU seconds as a percentage of one core over the measured window."""
        return None if seconds is None else seconds / self.wall * 100

    @property
    def server_cpu(self) -> float:
        return sum(self.worker_cpu)

    @property
    def title(self) -> str:
        return self.setup.label + ("" if self.clock == "none" else f", clock {self.clock}")

    def client_lags(self) -> list[float]:
        return [v * 1000 for c in self.clients for v in c["lags"]]


async def play_run(
    setup: Setup, n: int, clock: str, args: argparse.Namespace, dbs: Databases, label: str
) -> Run:
    run = Run(setup, n, clock)
    total = n + args.wire  # players, in a terminal or on the subsystem
    sessions = total + args.lobby
    k = args.clients or max(1, math.ceil(sessions / SESSIONS_PER_CLIENT))
    wire = f" and {args.wire} on the subsystem" if args.wire else ""
    print(
        f"\n== {run.title}: {n} players x {args.rate:g} key/s{wire}, {k} load-generator processes"
    )
    with tempfile.TemporaryDirectory() as tmp:
        env = {}
        watch_dir = None
        if args.loopwatch:
            watch_dir = Path(args.loopwatch) / label
            env = {
                "PYTHONPATH": str(HOOKS),
                "BENCH_LOOPWATCH": str(watch_dir),
                "BENCH_LOOPWATCH_COLLECT": "1",  # a full collection after the window
                "BENCH_LOOPWATCH_TRACE": os.environ.get("BENCH_LOOPWATCH_TRACE", ""),
                "BENCH_SWITCH_INTERVAL": os.environ.get("BENCH_SWITCH_INTERVAL", ""),
            }
        server = ServerProcess(Path(tmp), args.app, setup.workers, dbs.for_run(setup), env)
        clients = Clients(
            plan(
                n,
                args.lobby,
                k,
                args.arrival,
                1 / args.rate,
                server.port,
                args.app,
                clock,
                args.wire,
            )
        )
        spies: list[subprocess.Popen[bytes]] = []
        try:
            workers = server.worker_pids()
            run.base_mb = server.rss_mb()
            await clients.start()
            started = time.monotonic()
            deadline = started + 120 + total * args.arrival
            while sum(clients.lobby) < args.lobby and not clients.errors:
                await asyncio.sleep(0.2)
            if args.lobby:
                print(f"  {sum(clients.lobby)} sessions sit in the lobby meanwhile")
            unseated = 0
            while sum(clients.seated) + unseated < total and not clients.errors:
                if time.monotonic() > deadline:
                    clients.errors.append(f"only {sum(clients.seated)} of {total} players seated")
                await asyncio.sleep(0.2)
                unseated = sum(len(u) for u in clients.unseated)
            if unseated >= total:
                clients.errors += [why for u in clients.unseated for why in u][:3]
                clients.errors.append(f"none of {total} players could sit down")
            if clients.errors:
                raise RunStopped(
                    "; ".join(clients.errors) + f" (server log: {keep_log(server, label)})"
                )
            print(f"  {sum(clients.seated)} players ready after {time.monotonic() - started:.1f} s")
            if unseated:  # measured with those seated; the report says how many were not
                print(f"  {unseated} of {n} players could not sit down (not measured):")
            for why in sorted({why for u in clients.unseated for why in u}):
                print(f"    {why}")
            run.unseated = unseated
            run.where = {p: w for p, w in server.connects().items() if p[0] in "pw"}
            for w in range(1, setup.workers + 1):
                run.per_worker[w] = sum(1 for v in run.where.values() if v == w)
            if setup.workers > 1 and min(run.per_worker.values()) == 0:
                raise RunStopped(f"a worker got no players: {run.per_worker}; run again")
            spies = start_spies(args.py_spy, label, workers, args.duration)
            for pid in workers if watch_dir else []:
                os.kill(pid, signal.SIGUSR1)
            before, machine0 = processes(), machine_busy()
            waits = [waited(pid) for pid in workers]
            await clients.say("go")
            wall0, clock0 = time.monotonic(), time.time()
            await asyncio.sleep(args.duration)
            await clients.say("stop")
            run.wall = time.monotonic() - wall0
            run.collections = server.collections(clock0, time.time())
            after, run.machine = processes(), machine_busy() - machine0
            run.worker_wait = [waited_since(pid, w) for pid, w in zip(workers, waits, strict=True)]
            for pid in workers if watch_dir else []:
                os.kill(pid, signal.SIGUSR2)
            run.rss_mb = [rss_mb(pid) for pid in workers]
            await clients.wait_results()
            if clients.errors:
                raise RunStopped("; ".join(clients.errors))
        finally:
            await clients.stop()
            for spy in spies:
                spy.wait()
            server.stop()
        run.worker_cpu = [cpu_used(before, after, {pid}) for pid in workers]
        run.bots = cpu_used(before, after, descendants(after, workers) - set(workers))
        postmaster = dbs.postmaster() if setup.backend == "postgresql" else None
        if postmaster:
            run.postgres = cpu_used(before, after, descendants(after, [postmaster]))
        mine = {os.getpid(), *clients.pids()}
        run.client_cpu = cpu_used(before, after, mine)
        ours = mine | descendants(after, [server.proc.pid])
        if postmaster:
            ours |= descendants(after, [postmaster])
        run.others = busiest(before, after, ours)
        run.clients = [r for r in clients.results if r is not None]
        run.keys = [(p, kind, v) for c in run.clients for p, kind, v in c["latencies"]]
        if watch_dir:
            from loopwatch import summary

            for pid in workers:
                path = watch_dir / f"loopwatch-{pid}.json"
                if path.exists():
                    run.loopwatch.append(summary(json.loads(path.read_text())))
    report(run, args)
    return run


def waited_since(pid: int, before: float | None) -> float | None:
    """Seconds `pid` waited for a core since `before` (`waited` then); None: unknown."""
    now = waited(pid)
    return None if now is None or before is None else max(0.0, now - before)


def keep_log(server: ServerProcess, label: str) -> str:
    """A copy of the server's log that outlives the run's temporary directory."""
    kept = Path(tempfile.gettempdir()) / f"splendor-bench-{label}-server.log"
    shutil.copyfile(server.log_path, kept)
    return str(kept)


def start_spies(
    out: str | None, label: str, workers: list[int], duration: float
) -> list[subprocess.Popen[bytes]]:
    """py-spy recording each worker for the measured window (raw: collapsed stacks)."""
    if not out:
        return []
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    Path(out).mkdir(parents=True, exist_ok=True)
    return [
        subprocess.Popen(
            [
                spy,
                "record",
                "--nonblocking",
                "--threads",
                "--format",
                "raw",
                "--rate",
                "200",
                "--duration",
                str(int(duration)),
                "--pid",
                str(pid),
                "--output",
                str(Path(out) / f"{label}-worker{i}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for i, pid in enumerate(workers, 1)
    ]


def report(run: Run, args: argparse.Namespace) -> None:
    wall = run.wall
    ms = run.ms()
    slow = sum(1 for v in ms if v >= KEY_TIMEOUT * 1000)
    print(
        f"  {len(ms)} keys measured in {wall:.0f} s ({len(ms) / wall:.1f}/s), "
        f"{slow} not shown within {KEY_TIMEOUT:.0f} s"
    )
    for text in [t for c in run.clients for t in c.get("unseen", [])][:3]:
        print(f"    not shown: {text}")
    if not ms:
        return
    print(
        f"  keystroke -> screen: p50 {percentile(ms, 50):.0f} ms, p90 "
        f"{percentile(ms, 90):.0f} ms, p99 {percentile(ms, 99):.0f} ms, "
        f"max {max(ms):.0f} ms, mean {statistics.fmean(ms):.0f} ms (target p99 <= 100)"
    )
    for kind in sorted({k for _, k, _ in run.keys}):
        some = [v * 1000 for _, k, v in run.keys if k == kind]
        print(
            f"    {kind:28} {len(some):5} keys: p50 {percentile(some, 50):4.0f}  "
            f"p90 {percentile(some, 90):4.0f}  p99 {percentile(some, 99):4.0f}  "
            f"max {max(some):4.0f} ms"
        )
    if run.setup.workers > 1:
        parts = []
        for w, count in run.per_worker.items():
            mine = [v * 1000 for p, _, v in run.keys if run.where.get(p) == w]
            p99 = f"p99 {percentile(mine, 99):.0f} ms" if mine else "no keys"
            parts.append(f"worker {w}: {count} players, {p99}")
        print("  " + "; ".join(parts))
    cpu = run.server_cpu
    per = ", ".join(f"{c / wall * 100:.0f}%" for c in run.worker_cpu)
    each = f" ({per})" if len(run.worker_cpu) > 1 else ""
    print(
        f"  server CPU {cpu / wall * 100:.0f}% of one core{each}, "
        f"{cpu / max(1, len(ms)) * 1000:.1f} ms per key; memory {run.base_mb:.0f} MB at "
        f"start, {sum(run.rss_mb):.0f} MB with {run.players} games"
        + (f" ({', '.join(f'{m:.0f}' for m in run.rss_mb)})" if len(run.rss_mb) > 1 else "")
    )
    moves = run.ms("wire")
    if moves and len(moves) == len(ms):  # the subsystem alone: the server's CPU is theirs
        per_move = cpu / len(moves) * 1000
        print(f"  server CPU per subsystem move (and the views it sends): {per_move:.1f} ms")
    wait = ", ".join("n/a" if w is None else f"{run.share(w):.0f}%" for w in run.worker_wait)
    print(
        f"  the server waited for a core (ready to run, not running) {wait} of the window: "
        "CPU starvation, where it is high beside a low CPU share"
    )
    gcs = run.collections
    print(
        f"  the server's full garbage collections meanwhile: {len(gcs)}"
        + (f" ({', '.join(f'{ms:.0f} ms with {n} sessions' for _, n, ms in gcs)})" if gcs else "")
    )
    pg = run.postgres
    known = cpu + run.bots + (pg or 0) + run.client_cpu
    print(
        f"  the machine: {run.machine / wall * 100:.0f}% of one core busy ({os.cpu_count()} "
        f"cores): this server {cpu / wall * 100:.0f}%, its bots {run.bots / wall * 100:.0f}%"
        + (f", PostgreSQL {pg / wall * 100:.0f}%" if pg is not None else "")
        + f", the load generator {run.client_cpu / wall * 100:.0f}%, other processes "
        f"{max(0.0, run.machine - known) / wall * 100:.0f}%"
    )
    if run.others:
        print(
            "    busiest other processes: "
            + "; ".join(f"{name} {sec / wall * 100:.0f}%" for name, sec in run.others)
        )
    for i, c in enumerate(run.clients, 1):
        lag = [v * 1000 for v in c["lags"]]
        gc2 = [d * 1000 for g, d in c["gc"] if g == 2]
        print(
            f"    load generator {i}: CPU {c['cpu'] / c['wall'] * 100:.0f}%, own loop lag "
            f"p50 {percentile(lag, 50):.0f} / p99 {percentile(lag, 99):.0f} / max "
            f"{max(lag):.0f} ms; {len(gc2)} full collections"
            + (f" (max {max(gc2):.0f} ms)" if gc2 else "")
            + (f"; {c['players_failed']} players stopped" if c["players_failed"] else "")
        )
        for failure in c.get("failures", []):
            print(f"      a player stopped: {failure}")
    for lines in run.loopwatch:
        print("\n".join("  " + line for line in lines))


def side_by_side(runs: list[Run]) -> None:
    """The runs as a table, one column each."""

    def f(v: float | None, unit: str = " ms") -> str:
        return "-" if v is None else f"{v:.0f}{unit}"

    rows: list[tuple[str, list[str]]] = [
        ("players x 1/rate", [str(r.players) for r in runs]),
        ("players per worker", [" / ".join(str(n) for n in r.per_worker.values()) for r in runs]),
        ("could not sit down", [str(r.unseated) for r in runs]),
        ("keys measured (per s)", [f"{len(r.keys)} ({len(r.keys) / r.wall:.0f})" for r in runs]),
        (
            "p50 / p90 / p99",
            [f"{f(r.pct(50), '')} / {f(r.pct(90), '')} / {f(r.pct(99))}" for r in runs],
        ),
        ("max", [f(max(r.ms(), default=None)) for r in runs]),
    ]
    for kind in ("colon", "letter", "enter", "cursor"):
        rows.append(
            (
                f"{kind} p50 / p99",
                [f"{f(r.pct(50, kind), '')} / {f(r.pct(99, kind))}" for r in runs],
            )
        )
    rows += [
        ("server CPU, % of a core", [
            " + ".join(f"{c / r.wall * 100:.0f}" for c in r.worker_cpu) for r in runs]),
        ("server waiting for a core, %", [
            " + ".join(f(r.share(w), "") for w in r.worker_wait) for r in runs]),
        ("server memory", [f"{sum(r.rss_mb):.0f} MB" for r in runs]),
        ("bots / PostgreSQL CPU %", [
            f"{r.bots / r.wall * 100:.0f} / {f(r.share(r.postgres), '')}" for r in runs]),
        ("load generator CPU %", [f"{r.client_cpu / r.wall * 100:.0f}" for r in runs]),
        ("its loop lag p99 / max", [
            f"{f(percentile(r.client_lags(), 99), '')} / {f(max(r.client_lags()))}" for r in runs]),
        ("machine busy, % of a core", [f"{r.machine / r.wall * 100:.0f}" for r in runs]),
        ("the server's full collections", [str(len(r.collections)) for r in runs]),
    ]  # fmt: skip
    clocked = any(r.clock != "none" for r in runs)
    heads = [r.setup.label + (f", clock {r.clock}" if clocked else "") for r in runs]
    print("\n| | " + " | ".join(heads) + " |")
    print("| --- |" + " --- |" * len(runs))
    for name, cells in rows:
        print(f"| {name} | " + " | ".join(cells) + " |")
    kinds = list(dict.fromkeys((r.setup, r.players, r.clock) for r in runs))
    if len(kinds) < len(runs):
        print("\np99 over the repeats: median (min-max)")
        for setup, n, clock in kinds:
            some = [r for r in runs if (r.setup, r.players, r.clock) == (setup, n, clock)]
            p99s = [r.pct(99) or 0.0 for r in some]
            unseated = sum(r.unseated for r in some)
            print(
                f"  {setup.label}, {n} players" + (f", clock {clock}" if clocked else "")
                + f": {statistics.median(p99s):.0f} ({min(p99s):.0f}-{max(p99s):.0f}) ms over "
                f"{len(p99s)} runs"
                + (f"; {unseated} players in all could not sit down" if unseated else "")
            )  # fmt: skip
    if len({r.clock for r in runs}) > 1:
        clock_ratios(runs)


def clock_ratios(runs: list[Run]) -> None:
    """Each time control's p99 and server CPU beside the first's (means over any repeats),
    as ratios, and the server CPU a clock adds per session: a second's worth, one tick."""
    print("\nclocks side by side (ratios to the first; means over repeats):")
    for setup, n in dict.fromkeys((r.setup, r.players) for r in runs):
        means: dict[str, tuple[float, float]] = {}
        for clock in dict.fromkeys(r.clock for r in runs):
            some = [r for r in runs if (r.setup, r.players, r.clock) == (setup, n, clock)]
            if some:
                p99 = statistics.fmean(r.pct(99) or 0.0 for r in some)
                means[clock] = p99, statistics.fmean(r.server_cpu / r.wall for r in some)
        (q0, c0), *_ = means.values()
        for clock, (q, c) in means.items():
            print(
                f"  {setup.label}, {n} players, clock {clock:>5}: p99 {q:4.0f} ms (x{q / q0:.2f}), "
                f"server CPU {c * 100:3.0f}% of a core (x{c / c0:.2f}; "
                f"{(c - c0) / n * 1000:+.2f} ms a second per session)"
            )


# -- capacity ----------------------------------------------------------------------------


async def capacity(
    setup: Setup, args: argparse.Namespace, dbs: Databases
) -> tuple[Run | None, Run | None]:
    """The largest player count `setup` holds (`Run.verdict`), to `args.step` players:
    from the first `--players` count up by half again while it holds, then halving the
    gap between the last that held (or none) and the first that did not. The run at that
    count, and the one just above it."""
    step: int = args.step
    runs: dict[int, Run] = {}

    async def holds(n: int) -> bool:
        """`--repeat` runs at `n` players (a run's p99 varies a lot on a shared machine):
        judged by the one with the median p99."""
        tries = []
        for r in range(1, args.repeat + 1):
            label = f"{setup.backend}{setup.workers}-{n}-{r}"
            try:
                tries.append(await play_run(setup, n, "none", args, dbs, label))
            except RunStopped as e:  # players never all seated, a worker without any...
                print(f"  the run stopped: {e}")
                tries.append(Run(setup, n, error=str(e)))
        tries.sort(key=lambda run: run.pct(99) or math.inf)
        run = runs[n] = tries[len(tries) // 2]
        p99s = ", ".join(f"{t.pct(99) or math.inf:.0f}" for t in tries)
        print(f"  => {setup.label}, {n} players: {run.verdict} (p99 {p99s} ms)")
        return run.holds

    def snap(n: float) -> int:
        return max(step, round(n / step) * step)

    n = snap(args.players[0])
    low, high = (n, None) if await holds(n) else (0, n)
    while high is None and low < CAPACITY_MAX:  # up, by half again
        n = min(CAPACITY_MAX, snap(low * 1.5))
        if await holds(n):
            low = n
        else:
            high = n
    while high is not None and high - low > step:  # halving the gap (down from 0 too)
        n = snap((low + high) / 2)
        if n in (low, high):
            break
        if await holds(n):
            low = n
        else:
            high = n
    return runs.get(low), (runs.get(high) if high is not None else None)


def capacity_table(found: list[tuple[Setup, Run | None, Run | None]], rate: float) -> None:
    print(f"\nthe largest player count each setup holds (p99 <= {TARGET_P99:.0f} ms, nearly all "
          f"seated; {rate:g} key/s each):")  # fmt: skip
    print("\n| setup | holds | its p50 / p99 | server CPU, % of a core | next count up: p99 |")
    print("| --- | --- | --- | --- | --- |")
    for setup, ok, over in found:
        held = f"{ok.players} players" if ok else "fewer than the smallest tried"
        pcts = f"{ok.pct(50):.0f} / {ok.pct(99):.0f} ms" if ok and ok.keys else "-"
        cpu = " + ".join(f"{ok.share(c):.0f}" for c in ok.worker_cpu) if ok else "-"
        if over is None:
            above = f"(the search stops at {CAPACITY_MAX})" if ok else "-"
        elif over.error:
            above = f"{over.players}: the run stopped"
        else:
            p99 = over.pct(99)
            above = (
                f"{over.players}: "
                + ("-" if p99 is None else f"{p99:.0f} ms")
                + (f", {over.unseated} not seated" if over.unseated else "")
            )
        print(f"| {setup.label} | {held} | {pcts} | {cpu} | {above} |")


# -- idle sessions ---------------------------------------------------------------------------


async def idle_phase(setup: Setup, n: int, args: argparse.Namespace, dbs: Databases) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp), args.app, setup.workers, dbs.for_run(setup), settings=IDLE_CONFIG
        )
        try:
            warm = await connect(server.port, "warmup")  # imports and first-app costs
            warm[0].close()
            await asyncio.sleep(3)
            base = server.rss_mb()
            started = time.monotonic()
            conns = []
            for i in range(0, n, 10):
                conns += await asyncio.gather(
                    *(connect(server.port, f"idle{j}") for j in range(i, min(n, i + 10)))
                )
            took = time.monotonic() - started
            await asyncio.sleep(3)
            first = server.rss_mb()
            await asyncio.sleep(10)  # the server's quiet-time garbage collection (gc_interval 5)
            rss = server.rss_mb()
            where = [w for p, w in server.connects().items() if p.startswith("idle")]
            spread = ", ".join(f"worker {w}: {where.count(w)}" for w in range(1, setup.workers + 1))
            print(f"idle ({args.app}, {setup.label}): {n} sessions in the lobby; connected in "
                  f"{took:.1f} s" + (f" ({spread})" if setup.workers > 1 else ""))  # fmt: skip
            print(
                f"  server memory {(first - base) / n:.2f} MB per session right after, "
                "before a full garbage collection"
            )
            print(
                f"  server memory {base:.0f} MB -> {rss:.0f} MB: "
                f"{(rss - base) / n:.2f} MB per session (target <= 5)"
            )
            for conn, _ in conns:
                conn.close()
        finally:
            server.stop()


# -- the command line ------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument(
        "--players",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[50],
        help="playing sessions; a comma-separated list runs each (default 50)",
    )
    p.add_argument(
        "--wire",
        type=int,
        default=0,
        help="players on the splendor subsystem beside them, a move per 12 keys' time (0)",
    )
    p.add_argument("--rate", type=float, default=1.0, help="keys per second each (default 1)")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured (default 60)")
    p.add_argument("--idle", type=int, default=200, help="idle sessions (default 200)")
    p.add_argument(
        "--lobby", type=int, default=0, help="sessions sitting in the lobby meanwhile (default 0)"
    )
    p.add_argument(
        "--app",
        choices=("game", "echo"),
        default="game",
        help="echo: a dozen-widget app instead of the game (the transport alone)",
    )
    p.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    p.add_argument("--database", help="sqlite:///PATH or postgresql://USER@HOST/DATABASE")
    p.add_argument(
        "--postgres",
        action="store_true",
        help="start a throwaway PostgreSQL server for the run (the default for --workers > 1)",
    )
    p.add_argument(
        "--compare",
        action="store_true",
        help="one process on SQLite and --workers (default 2) on PostgreSQL, side by side",
    )
    p.add_argument(
        "--setups",
        type=lambda s: [parse_setup(x) for x in s.split(",")],
        help="runs to make at each player count, e.g. sqlite:1,postgres:1,postgres:2",
    )
    p.add_argument(
        "--clocks",
        type=lambda s: s.split(","),
        default=["none"],
        help="time controls to play each run on, compared (e.g. none,5+10; default none)",
    )
    p.add_argument("--repeat", type=int, default=1, help="run everything R times (default 1)")
    p.add_argument(
        "--clients",
        type=int,
        default=0,
        help=f"load-generator processes (default: one per {SESSIONS_PER_CLIENT} sessions)",
    )
    p.add_argument(
        "--arrival", type=float, default=0.25, help="seconds between players' arrivals (0.25)"
    )
    p.add_argument(
        "--capacity",
        action="store_true",
        help=f"find the largest player count each setup holds (p99 <= {TARGET_P99:.0f} ms), "
        "starting from the first --players count",
    )
    p.add_argument(
        "--step", type=int, default=10, help="the capacity search's resolution (10 players)"
    )
    p.add_argument("--loopwatch", metavar="DIR", help="time the workers' event loops (see above)")
    p.add_argument("--py-spy", metavar="DIR", help="py-spy record each worker meanwhile")
    args = p.parse_args(argv)
    if args.step < 1 or args.repeat < 1:
        p.error("--step and --repeat must be at least 1")
    if args.database and args.database.startswith("sqlite") and args.workers > 1:
        p.error("more than one worker needs PostgreSQL")
    if args.compare:
        args.setups = [
            Setup("sqlite"),
            Setup("postgresql", args.workers if args.workers > 1 else 2),
        ]
    elif not args.setups:
        pg = args.postgres or args.workers > 1 or (args.database or "").startswith("postgres")
        args.setups = [Setup("postgresql" if pg else "sqlite", args.workers)]
    if args.app == "echo" and any(s != Setup("sqlite") for s in args.setups):
        p.error("the echo app runs in one process, without a database")
    if args.app == "echo" and args.clocks != ["none"]:
        p.error("the echo app has no clock")
    for clock in args.clocks:
        if clock not in PRESETS:
            p.error(f"--clocks: {clock!r} is not offered by the quick game dialog: {PRESETS}")
    return args


async def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    load = os.getloadavg()
    print(
        f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, loopback only; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} before the start"
    )
    dbs = Databases(args.database, args.postgres)
    runs: list[Run] = []
    try:
        if args.idle:
            for setup in args.setups:
                await idle_phase(setup, args.idle, args, dbs)
        if args.capacity:
            found = [(setup, *await capacity(setup, args, dbs)) for setup in args.setups]
            capacity_table(found, args.rate)
            return
        for r in range(args.repeat):
            for n in args.players if args.players != [0] or args.wire else []:
                for setup in args.setups:
                    for clock in args.clocks:
                        label = f"{setup.backend}{setup.workers}-{n}-{clock}-{r + 1}"
                        runs.append(await play_run(setup, n, clock, args, dbs, label))
    except RunStopped as e:
        raise SystemExit(str(e)) from None
    finally:
        dbs.close()
    if len(runs) > 1:
        side_by_side(runs)


if __name__ == "__main__":
    asyncio.run(main())
