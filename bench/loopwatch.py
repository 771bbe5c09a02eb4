"""Where a server process's event loop goes: `bench/load.py --loopwatch` installs this in
each server process (through `bench/hooks/sitecustomize.py`) to find what delays keys.

- Every callback the loop runs (a task step, an I/O callback, a timer) is timed: a
  histogram of durations and the loop's busy share.
- A watchdog thread looks every few milliseconds at the callback running now; one
  that has run longer than `BENCH_LOOPWATCH_MS` (default 20 ms) gets its stack
  sampled, so a long callback says what it was doing (a task's name alone is
  mostly Textual's message pump).
- Garbage collections, by generation, and whether they ran inside a long callback.
- The loop's lag: how late a 10 ms sleep wakes.

SIGUSR1 starts a measurement afresh (at the bench's "go"), SIGUSR2 writes it to
`BENCH_LOOPWATCH/loopwatch-PID.json` (at "stop"); `python bench/loopwatch.py FILE...`
prints a summary. The watchdog takes the GIL briefly only while a callback has run
long; the timing itself costs about a microsecond a callback.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import sys
import threading
import time
from asyncio import events
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

BUCKETS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 1e9)
OURS = ("/client/", "/server/", "/shared/")


def _name(handle: events.Handle) -> str:
    """What a callback is: a task's coroutine (and Textual's name for it), else the
    function."""
    cb = handle._callback  # type: ignore[attr-defined]
    owner = getattr(cb, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        qual = getattr(coro, "__qualname__", type(coro).__name__)
        task = owner.get_name()
        if not task.startswith("Task-"):
            task = task.split(" ")[0]
            return f"task {qual} [{task}]"
        return f"task {qual}"
    return getattr(cb, "__qualname__", type(cb).__name__)


def _stack(frame: Any, limit: int = 40) -> list[str]:
    out = []
    while frame is not None and len(out) < limit:
        code = frame.f_code
        path = code.co_filename
        for marker in ("/site-packages/", "/lib/python3"):
            if marker in path:
                path = path.split(marker, 1)[1]
                break
        else:
            for ours in OURS:
                if ours in path:
                    path = ours[1:] + path.split(ours, 1)[1]
                    break
        out.append(f"{path}:{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return out


class Watch:
    def __init__(self, out_dir: str) -> None:
        self.out_dir = Path(out_dir)
        self.threshold = float(os.environ.get("BENCH_LOOPWATCH_MS", "20")) / 1000
        self.main = threading.main_thread().ident
        self.current: tuple[float, events.Handle] | None = None
        self.samples: list[list[str]] = []  # stacks of the callback running now
        self.gc_start = 0.0
        self.gc_in_callback = 0.0
        self.probe_loop: asyncio.AbstractEventLoop | None = None
        self.reset()

    def reset(self) -> None:
        self.started = time.perf_counter()
        self.cpu0 = time.process_time()
        self.hist = [[0, 0.0] for _ in BUCKETS_MS]  # count, seconds
        self.busy = 0.0
        self.calls = 0
        self.long: list[dict[str, Any]] = []
        self.gcs: dict[int, list[float]] = defaultdict(list)
        self.gc_long: list[tuple[float, int, float]] = []  # (at, generation, seconds) >= 5 ms
        self.lags: list[float] = []
        self.by_name: Counter[str] = Counter()  # seconds in callbacks over the threshold

    # -- the loop's callbacks --------------------------------------------------

    def run(self, original: Any, handle: events.Handle) -> None:
        if self.probe_loop is None:
            try:
                self.probe_loop = asyncio.get_running_loop()
            except RuntimeError:
                pass
            else:  # the first loop to run here: watch it
                self.probe_loop.create_task(self._probe())
                threading.Thread(target=self.watchdog, name="loopwatch", daemon=True).start()
        start = time.perf_counter()
        self.current, self.samples, self.gc_in_callback = (start, handle), [], 0.0
        try:
            original(handle)
        finally:
            dt = time.perf_counter() - start
            self.current = None
            self.calls += 1
            self.busy += dt
            ms = dt * 1000
            for i, edge in enumerate(BUCKETS_MS):
                if ms < edge:
                    self.hist[i][0] += 1
                    self.hist[i][1] += dt
                    break
            if dt >= self.threshold:
                name = _name(handle)
                self.by_name[name] += dt
                self.long.append(
                    {
                        "at": start - self.started,
                        "ms": ms,
                        "name": name,
                        "gc_ms": self.gc_in_callback * 1000,
                        "stacks": self.samples[:6],
                    }
                )

    async def _probe(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - t - 0.01)

    def watchdog(self) -> None:
        while True:
            time.sleep(0.005)
            current = self.current
            if current is None or time.perf_counter() - current[0] < self.threshold:
                continue
            if len(self.samples) >= 12:
                continue
            frame = sys._current_frames().get(self.main)  # type: ignore[arg-type]
            if frame is not None and self.current is current:
                self.samples.append(_stack(frame))

    # -- garbage collection ------------------------------------------------------

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.gc_start = time.perf_counter()
            return
        dt = time.perf_counter() - self.gc_start
        gen = info["generation"]
        self.gcs[gen].append(dt)
        if self.current is not None:
            self.gc_in_callback += dt
        if dt >= 0.005:
            self.gc_long.append((self.gc_start - self.started, gen, dt))

    # -- results -------------------------------------------------------------

    def dump(self) -> None:
        wall = time.perf_counter() - self.started
        if not self.calls:
            return
        data = {
            "pid": os.getpid(),
            "wall": wall,
            "cpu": time.process_time() - self.cpu0,
            "calls": self.calls,
            "busy": self.busy,
            "threshold_ms": self.threshold * 1000,
            "hist": [[edge, n, s] for edge, (n, s) in zip(BUCKETS_MS, self.hist, strict=True)],
            "long": self.long,
            "by_name": self.by_name.most_common(30),
            "gc": {str(g): [len(v), sum(v), max(v)] for g, v in self.gcs.items() if v},
            "gc_long": self.gc_long,
            "lags": self.lags,
        }
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"loopwatch-{os.getpid()}.json"
        path.write_text(json.dumps(data))


def install(out_dir: str) -> Watch:
    """Time every callback of every event loop in this process (see the module docstring)."""
    watch = Watch(out_dir)
    original = events.Handle._run

    def _run(self: events.Handle) -> None:
        watch.run(original, self)

    events.Handle._run = _run  # type: ignore[method-assign]
    gc.callbacks.append(watch.on_gc)
    signal.signal(signal.SIGUSR1, lambda *_: watch.reset())
    signal.signal(signal.SIGUSR2, lambda *_: watch.dump())
    return watch


# -- the summary -----------------------------------------------------------------------------


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _frame_of_ours(stack: list[str]) -> str:
    """The innermost frame of the project's own code in a stack (innermost first)."""
    for f in stack:
        if f.startswith(("client/", "server/", "shared/")):
            return f
    return stack[-1] if stack else "?"


def summary(data: dict[str, Any], top: int = 12) -> list[str]:
    wall = data["wall"]
    lags = [v * 1000 for v in data["lags"]]
    lines = [
        f"pid {data['pid']}: {data['calls']} callbacks in {wall:.0f} s, loop busy "
        f"{data['busy'] / wall * 100:.0f}% (process CPU {data['cpu'] / wall * 100:.0f}%); "
        f"loop lag p50 {_pct(lags, 50):.0f} p90 {_pct(lags, 90):.0f} p99 {_pct(lags, 99):.0f} "
        f"max {max(lags, default=0):.0f} ms"
    ]
    parts = []
    lo = 0.0
    for edge, n, s in data["hist"]:
        if n:
            label = f"{lo:g}-{edge:g}" if edge < 1e9 else f">{lo:g}"
            parts.append(f"{label} ms: {n} ({s / wall * 100:.1f}%)")
        lo = edge
    lines.append("  callbacks (count, share of wall time): " + ", ".join(parts))
    gcs = data["gc"]
    lines.append(
        "  gc: "
        + ", ".join(
            f"gen {g}: {n} runs, {s * 1000:.0f} ms in all, max {m * 1000:.0f} ms"
            for g, (n, s, m) in sorted(gcs.items())
        )
    )
    long = data["long"]
    lines.append(
        f"  callbacks over {data['threshold_ms']:.0f} ms: {len(long)}, "
        f"{sum(x['ms'] for x in long) / 1000:.1f} s in all; by name:"
    )
    for name, s in data["by_name"][:top]:
        n = sum(1 for x in long if x["name"] == name)
        lines.append(f"    {s:6.2f} s {n:5}x  {name[:110]}")
    where: Counter[str] = Counter()
    for x in long:
        for st in x["stacks"]:
            where[_frame_of_ours(st)] += 1
    lines.append("  innermost frame of our code in the long callbacks' stack samples:")
    for f, n in where.most_common(top):
        lines.append(f"    {n:5}  {f}")
    return lines


def main(argv: list[str]) -> None:
    for path in argv:
        print("\n".join(summary(json.loads(Path(path).read_text()))))


if __name__ == "__main__":
    main(sys.argv[1:])
