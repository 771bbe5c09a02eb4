"""Load benchmark: concurrent SSH sessions with PTYs, playing real games by keystrokes.

    .venv/bin/python bench/load.py                   # the issue's targets, about 3 minutes
    .venv/bin/python bench/load.py --players 50 --rate 1 --duration 60 --idle 0
    .venv/bin/python bench/load.py --players 0 --idle 200

Each phase starts its own `splendor-server` process on 127.0.0.1 (loopback only)
and measures it from outside (/proc): resident memory and CPU time.

- idle: `--idle` sessions connect (guests, 110x36 PTYs) and sit in the lobby;
  prints the server's memory per session (target: at most 5 MB).
- play: `--players` sessions (with `--lobby` more sitting in the lobby, which
  lists every game live) each start a quick game against an easy bot and
  press a key every 1/`--rate` seconds for `--duration` seconds: the command
  line (":", the move's letters, Enter) on their turn, a cursor key while the
  bot thinks. Each key's latency runs from the write to the moment the screen
  (a pyte emulator) shows its effect; prints p50/p90/p99 (target: p99 < 100 ms
  at 50 players x 1 key/s), server CPU and memory.
- `--clocks none,5+10`: the play phase once for each time control, every game on
  that clock (the running one counts down on every player's screen once a second),
  then their p99s and server CPU side by side, as ratios to the first: the machine
  is shared, so a ratio measured in one run means more than two absolute figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from loadkit import (
    KEY_TIMEOUT,
    Latencies,
    ServerProcess,
    Terminal,
    connect,
    lag_probe,
    machine_busy,
    own_cpu,
    percentile,
)

# -- reading the table screen -------------------------------------------------------------


def status(term: Terminal) -> str:
    return term.rows()[0]


def counts(line: str) -> dict[str, int]:
    return {c: int(n) for c, n in re.findall(r"([WUGRK*])\s+(\d+)", line)}


def typed_so_far(term: Terminal) -> str:
    """The move line's text: what comes before the hint at its right end."""
    return re.split(r"\s{2,}", term.rows()[-2].strip())[0]


def choose(term: Terminal) -> str:
    """A legal-looking move from what the screen shows: buy what it marks buyable,
    else take three colours the bank has, else pass."""
    rows = term.rows()
    for i, row in enumerate(rows[:20]):
        for m in re.finditer(r"✓ buy", row):
            ids = [(c.start(), c.group()) for c in re.finditer(r"\d-\d\d", rows[i - 2])]
            near = [cid for col, cid in ids if 0 <= col - m.start() <= 8]
            if near:
                return f"buy {near[0]}"
    bank = counts(next((r for r in rows if r.startswith("Bank")), ""))
    have = sorted((c for c in "WUGRK" if bank.get(c, 0) > 0), key=lambda c: -bank[c])
    return "take " + " ".join(have[:3]) if have else "pass"


async def returns(term: Terminal, latencies: Latencies) -> None:
    """The R13 choice: give back the most-held colours, then Enter."""
    text = await asyncio.wait_for(_dialog(term), 10)
    excess = int(re.search(r"return (\d+) token", text).group(1))  # type: ignore[union-attr]
    kept = term.rows()[-2].split("you keep")[-1]  # the prompt: what the player holds
    mine = {c: int(n) for n, c in re.findall(r"(\d+)([WUGRK*])", kept)}
    letters = []
    for _ in range(excess):
        c = max("WUGRK*", key=lambda c: mine.get(c, 0))
        mine[c] -= 1
        letters.append("o" if c == "*" else c.lower())
    for ch in letters:
        before = term.text()
        await term.key(ch, lambda b=before: term.text() != b, latencies)
    before = status(term)
    await term.key("\r", lambda: status(term) != before, latencies)


async def _dialog(term: Terminal) -> str:
    await term.until(lambda: "(R13)" in term.text())
    return term.text()


async def quick_game(term: Terminal, clock: str = "none") -> None:
    assert term.chan is not None
    term.chan.write(b"g")
    await term.until(lambda: "Quick game against bots" in term.text())
    term.chan.write(b"\x1b[B\x1b[D")  # to "Bots", then medium -> easy
    await term.until(lambda: re.search(r"Bots\s+◀\s+easy", term.text()) is not None)
    if clock != "none":  # down to "Clock", then right until it shows this one
        term.chan.write(b"\x1b[B")
        await asyncio.sleep(0.3)  # the focus moves: nothing on the screen says so
        for _ in range(10):
            if re.search(rf"Clock\s+◀\s+{re.escape(clock)}\s+▶", term.text()):
                break
            before = term.text()
            term.chan.write(b"\x1b[C")
            await term.until(lambda b=before: term.text() != b)
    term.chan.write(b"\r")
    await term.until(lambda: re.search(r"turn \d+ ·", status(term)) is not None)


async def player(
    port: int,
    name: str,
    period: float,
    latencies: Latencies,
    seated: list[str],
    ready: asyncio.Event,
    stop: asyncio.Event,
    app: str = "game",
    clock: str = "none",
) -> int:
    """One player: quick games, one key per `period`, until `stop`; keys pressed."""
    await asyncio.sleep(int(name[1:]) * 0.25)  # arrivals spread out, not one burst
    conn, term = await connect(port, name)
    if app == "game":
        await quick_game(term, clock)
    seated.append(name)
    await ready.wait()
    pressed = 0
    due = time.monotonic() + random.uniform(0, period)
    if app == "echo":  # a letter per period; the app shows how many it got
        while not stop.is_set():
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            due += period
            pressed += 1
            shown = re.compile(rf"\bn={pressed}\b")
            await term.key("a", lambda r=shown: r.search(term.text()) is not None, latencies)
        conn.close()
        return pressed

    async def pace() -> None:
        nonlocal due, pressed
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        due += period
        pressed += 1

    while not stop.is_set():
        top = status(term)
        if "game over" in top:
            term.chan.write(b"\r")  # type: ignore[union-attr]  # the results: back to the lobby
            await term.until(lambda: "Splendor lobby" in term.text())
            await quick_game(term, clock)
        elif "your turn: return" in top:
            await returns(term, latencies)
        elif "your turn" in top:
            move = choose(term)
            await pace()
            await term.key(":", lambda: "a move:" in term.rows()[-2], latencies)
            for i in range(len(move)):
                typed = move[: i + 1].rstrip()
                await pace()
                await term.key(move[i], lambda t=typed: typed_so_far(term) == t, latencies)
            before = status(term)
            await pace()
            await term.key("\r", lambda b=before: status(term) != b, latencies)
        else:  # the bot's turn: move the cursor; the line under the board describes its card
            info = term.rows()[-2]
            await pace()
            await term.key(
                "l", lambda b=info: term.rows()[-2] != b or "your turn" in status(term), latencies
            )
    conn.close()
    return pressed


async def idle_phase(n: int, app: str = "game") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp), app)
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
            print(f"idle ({app}): {n} sessions in the lobby; connected in {took:.1f} s")
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


async def play_phase(
    n: int, rate: float, duration: float, app: str = "game", lobby: int = 0, clock: str = "none"
) -> tuple[float, float]:
    """The play phase (see the module docstring); its p99 (ms) and server CPU (share of a
    core)."""
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp), app)
        try:
            base = server.rss_mb()
            watching = []  # sessions that sit in the lobby, which follows every game
            for i in range(0, lobby, 10):
                watching += await asyncio.gather(
                    *(connect(server.port, f"lobby{j}") for j in range(i, min(lobby, i + 10)))
                )
            if lobby:
                print(f"play ({app}): {lobby} more sessions sit in the lobby meanwhile")
            latencies: Latencies = []
            seated: list[str] = []
            ready, stop = asyncio.Event(), asyncio.Event()
            args = (latencies, seated, ready, stop, app, clock)
            tasks = [
                asyncio.create_task(player(server.port, f"p{i}", 1 / rate, *args)) for i in range(n)
            ]
            started = time.monotonic()
            while len(seated) < n and time.monotonic() < started + 120:
                if any(t.done() and t.exception() for t in tasks):
                    raise next(t.exception() for t in tasks if t.done() and t.exception())  # type: ignore[misc]
                await asyncio.sleep(0.2)
            print(
                f"play ({app}, clock {clock}): {len(seated)} of {n} players ready after "
                f"{time.monotonic() - started:.1f} s"
            )
            ready.set()
            latencies.clear()
            lags: list[float] = []
            probe = asyncio.create_task(lag_probe(lags))
            cpu0, wall0, me0 = server.cpu_seconds(), time.monotonic(), own_cpu()
            machine0 = machine_busy()
            await asyncio.sleep(duration)
            keys = len(latencies)
            cpu, wall = server.cpu_seconds() - cpu0, time.monotonic() - wall0
            me = own_cpu() - me0
            machine = machine_busy() - machine0
            sample = list(latencies)
            rss = server.rss_mb()
            stop.set()
            probe.cancel()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for conn, _ in watching:
                conn.close()
        finally:
            server.stop()
    slow = sum(1 for _, v in sample if v >= KEY_TIMEOUT)
    ms = [v * 1000 for _, v in sample]
    print(
        f"play: {n} players x {rate:g} key/s for {wall:.0f} s: {keys} keys measured "
        f"({keys / wall:.1f}/s), {slow} not shown within {KEY_TIMEOUT:.0f} s"
    )
    if ms:
        print(
            f"  keystroke -> screen: p50 {percentile(ms, 50):.0f} ms, p90 "
            f"{percentile(ms, 90):.0f} ms, p99 {percentile(ms, 99):.0f} ms, "
            f"max {max(ms):.0f} ms, mean {statistics.fmean(ms):.0f} ms (target p99 < 100)"
        )
        for kind in sorted({k for k, _ in sample}):
            some = [v * 1000 for k, v in sample if k == kind]
            print(
                f"    {kind:28} {len(some):5} keys: p50 {percentile(some, 50):4.0f}  "
                f"p90 {percentile(some, 90):4.0f}  p99 {percentile(some, 99):4.0f} ms"
            )
    print(
        f"  server CPU {cpu / wall * 100:.0f}% of one core "
        f"({cpu / max(1, keys) * 1000:.1f} ms per key); this client's CPU {me / wall * 100:.0f}%"
    )
    print(
        f"  the whole machine: {machine / wall * 100:.0f}% of one core busy (bot workers and "
        f"other processes: {(machine - cpu - me) / wall * 100:.0f}%)"
    )
    print(f"  server memory {base:.0f} MB at start, {rss:.0f} MB with {n} games")
    lag = [v * 1000 for v in lags]
    print(
        f"  this client's own loop lag: p50 {percentile(lag, 50):.0f} ms, "
        f"p99 {percentile(lag, 99):.0f} ms (included in the latencies above)"
    )
    return (percentile(ms, 99) if ms else float("nan")), cpu / wall


async def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=50, help="playing sessions (default 50)")
    p.add_argument("--rate", type=float, default=1.0, help="keys per second each (default 1)")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured (default 60)")
    p.add_argument("--idle", type=int, default=200, help="idle sessions (default 200)")
    p.add_argument(
        "--lobby",
        type=int,
        default=0,
        help="sessions sitting in the lobby while the players play (default 0)",
    )
    p.add_argument(
        "--app",
        choices=("game", "echo"),
        default="game",
        help="echo: a dozen-widget app instead of the game (the transport alone)",
    )
    p.add_argument(
        "--clocks",
        default="none",
        help="time controls to play on, one play phase each, compared (e.g. none,5+10)",
    )
    args = p.parse_args(argv)
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, loopback only")
    if args.idle:
        await idle_phase(args.idle, args.app)
    if args.players:
        clocks = args.clocks.split(",")
        runs = [
            (c, await play_phase(args.players, args.rate, args.duration, args.app, args.lobby, c))
            for c in clocks
        ]
        if len(runs) > 1:
            compare(runs, args.players)


def compare(runs: list[tuple[str, tuple[float, float]]], players: int) -> None:
    """Each time control's p99 and server CPU beside the first's, as ratios."""
    (_, (p99, cpu)) = runs[0]
    print("clocks side by side (one run; ratios to the first):")
    for clock, (q, c) in runs:
        tick = (c - cpu) / players * 1000  # ms of CPU a second, per session
        print(
            f"  {clock:>6}: p99 {q:4.0f} ms (x{q / p99:.2f}), server CPU {c * 100:3.0f}% "
            f"(x{c / cpu:.2f}; {tick:+.2f} ms a second per session)"
        )
    names = list(dict.fromkeys(c for c, _ in runs))
    if len(names) < len(runs):  # runs repeated (e.g. none,5+10,none,5+10): their means
        means = {n: [statistics.fmean(r[i] for c, r in runs if c == n) for i in (0, 1)]
                 for n in names}  # fmt: skip
        q0, c0 = means[names[0]]
        for n, (q, c) in means.items():
            print(f"  mean {n:>6}: p99 {q:4.0f} ms (x{q / q0:.2f}), CPU x{c / c0:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
