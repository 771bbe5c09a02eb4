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
import functools
import gc
import json
import os
import signal
import sys
import threading
import time
from asyncio import events
from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import Any

SLOW_KEY = float(os.environ.get("BENCH_LOOPWATCH_SLOW_KEY", "0.3"))  # seconds: trace it
KEY_KINDS = {b":": "colon", b"\r": "enter", b"l": "cursor"}
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
        self.gc_start = self.gc_cpu = 0.0
        self.gc_in_callback = 0.0
        self.probe_loop: asyncio.AbstractEventLoop | None = None
        # terminal -> (when its first unanswered key came, the session, the key's kind)
        self.pending: dict[int, tuple[float, Any, str]] = {}
        self.reset()

    def reset(self) -> None:
        self.started = time.perf_counter()
        self.cpu0 = time.process_time()
        self.switches0 = _switches()
        self.hist = [[0, 0.0] for _ in BUCKETS_MS]  # count, seconds
        self.busy = 0.0
        self.busy_cpu = 0.0  # this thread's CPU time inside callbacks: busy - this = preempted
        self.calls = 0
        self.long: list[dict[str, Any]] = []
        self.gcs: dict[int, list[float]] = defaultdict(list)
        self.gc_cpus: dict[int, float] = defaultdict(float)
        self.gc_long: list[tuple[float, int, float]] = []  # (at, generation, seconds) >= 5 ms
        self.lags: list[float] = []
        self.steps: dict[str, list[float]] = defaultdict(list)
        self.turns: list[tuple[float, int]] = []  # each turn of the loop: seconds, callbacks
        self.selecting = 0.0  # seconds the loop waited in the selector (idle)
        self.key_frames: list[tuple[str, float]] = []  # a session's key to its next frame
        self.stuck: list[dict[str, Any]] = []  # apps that answered no key for a second
        self.stuck_seen: set[int] = set()
        self.timelines: list[list[tuple[float, str]]] = []  # the first entry: the key's kind
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
                self._trace_keys()
                if os.environ.get("BENCH_LOOPWATCH_STACKS"):  # it takes the GIL 200 times/s
                    threading.Thread(target=self.watchdog, name="loopwatch", daemon=True).start()
        start, cpu = time.perf_counter(), time.thread_time()
        self.current, self.samples, self.gc_in_callback = (start, handle), [], 0.0
        try:
            original(handle)
        finally:
            dt = time.perf_counter() - start
            dcpu = time.thread_time() - cpu
            self.current = None
            self.calls += 1
            self.busy += dt
            self.busy_cpu += dcpu
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
                        "cpu_ms": dcpu * 1000,
                        "name": name,
                        "gc_ms": self.gc_in_callback * 1000,
                        "stacks": self.samples[:6],
                    }
                )

    def _trace_keys(self) -> None:
        """In a splendor server: from a session's input arriving to its next frame going
        out (the server's own share of a key's latency, transport and client excluded)."""
        try:
            from server.front.session import GameSession
            from server.front.tui_driver import SSHDriver
        except ImportError:
            return
        received, flush = GameSession.data_received, SSHDriver.flush
        pending = self.pending
        watch = self

        def data_received(session: Any, data: bytes, datatype: Any) -> None:
            if session._terminal is not None:
                kind = KEY_KINDS.get(data[:1], "letter")
                pending.setdefault(id(session._terminal), (time.perf_counter(), session, kind))
            received(session, data, datatype)

        def flushed(driver: Any) -> None:
            had = bool(driver._buffer)
            flush(driver)
            if had and (got := pending.pop(id(driver._terminal), None)) is not None:
                watch.key_frames.append((got[2], time.perf_counter() - got[0]))

        GameSession.data_received = data_received  # type: ignore[method-assign]
        SSHDriver.flush = flushed  # type: ignore[method-assign]
        self._time_calls()
        if os.environ.get("BENCH_LOOPWATCH_TRACE"):
            self._trace_apps()

    def _time_calls(self) -> None:
        """How long the host's awaited steps take: a move (the table's lock, the store's
        commit, the views), the store's append alone, a bot's answer."""
        import importlib

        targets = [
            ("server.host.table", "Table", "play", "move: Table.play"),
            ("server.store.sqlite", "SqliteStore", "append_move", "store: append_move (SQLite)"),
            ("server.store.postgres", "PostgresStore", "append_move", "store: append_move (PG)"),
            ("server.host.bots", "BotPool", "choose", "bot: BotPool.choose"),
        ]
        for module, cls_name, name, label in targets:
            try:
                cls = getattr(importlib.import_module(module), cls_name)
                original = getattr(cls, name)
            except (ImportError, AttributeError):
                continue
            setattr(cls, name, self._timed(original, label))
        try:
            from server.store.sqlite import SqliteStore
        except ImportError:
            return
        watch = self
        write = SqliteStore._write

        async def _write(store: Any, fn: Any, *args: Any) -> Any:
            marks = [time.perf_counter(), 0.0, 0.0]

            def run(*a: Any) -> Any:  # in the store's thread
                marks[1] = time.perf_counter()
                try:
                    return fn(*a)
                finally:
                    marks[2] = time.perf_counter()

            try:
                return await write(store, run, *args)
            finally:
                done = time.perf_counter()
                steps = watch.steps
                steps["store write (SQLite): submitted -> its thread starts it"].append(
                    marks[1] - marks[0]
                )
                steps["store write (SQLite): in its thread"].append(marks[2] - marks[1])
                steps["store write (SQLite): done -> the caller resumes"].append(done - marks[2])

        SqliteStore._write = _write  # type: ignore[method-assign]

    def _timed(self, original: Any, label: str) -> Any:
        watch = self

        async def timed(*args: Any, **kw: Any) -> Any:
            start = time.perf_counter()
            try:
                return await original(*args, **kw)
            finally:
                watch.steps[label].append(time.perf_counter() - start)

        return timed

    def _trace_apps(self) -> None:
        """A timeline per app of the steps from a key to its frame (Textual's message hops),
        kept for keys that waited over a second: where the time goes."""
        from textual.app import App
        from textual.screen import Screen
        from textual.timer import Timer
        from textual.widget import Widget

        from server.front.session import GameSession
        from server.front.tui_driver import SSHDriver

        lines: dict[int, Any] = {}

        def note(app: Any, what: str) -> None:
            if app is None:
                return
            line = lines.setdefault(id(app), deque(maxlen=60))
            line.append((time.perf_counter(), what))

        def wrap(cls: Any, name: str, label: str, get_app: Any) -> None:
            original = getattr(cls, name)

            @functools.wraps(original)  # Textual counts an action's parameters
            def wrapper(obj: Any, *args: Any, **kw: Any) -> Any:
                try:
                    note(get_app(obj), label)
                except Exception:
                    pass
                return original(obj, *args, **kw)

            setattr(cls, name, wrapper)

        def awrap(cls: Any, name: str, label: str, get_app: Any) -> None:
            original = getattr(cls, name)

            async def wrapper(obj: Any, event: Any) -> Any:  # Textual counts the arguments
                try:
                    note(get_app(obj), label)
                except Exception:
                    pass
                return await original(obj, event)

            setattr(cls, name, wrapper)

        received = GameSession.data_received

        def data_received(session: Any, data: bytes, datatype: Any) -> None:
            note(session._app, "key in " + KEY_KINDS.get(data[:1], "letter"))
            received(session, data, datatype)

        GameSession.data_received = data_received  # type: ignore[method-assign]
        wrap(SSHDriver, "flush", "flush", lambda d: d._app)
        from server.front.bridge import HostBridge

        wrap(HostBridge, "deliver", "host sends", lambda b: b._app)
        wrap(HostBridge, "_receive", "app receives", lambda b: b._app)
        try:
            from client.screens.table import TableScreen

            wrap(TableScreen, "action_cursor", "action cursor", lambda t: t.app)
        except ImportError:
            pass
        wrap(SSHDriver, "write", "write", lambda d: d._app)
        awrap(App, "_on_key", "app key", lambda a: a)
        wrap(Widget, "refresh", "refresh", lambda w: w.app)
        awrap(Widget, "_on_idle", "widget idle", lambda w: w.app)
        awrap(Screen, "_on_idle", "screen idle", lambda s: s.app)
        awrap(Screen, "_on_update", "screen update msg", lambda s: s.app)
        wrap(Screen, "_on_timer_update", "screen timer tick", lambda s: s.app)
        wrap(Screen, "_compositor_refresh", "compositor refresh", lambda s: s.app)
        wrap(Timer, "resume", "timer resume", lambda t: getattr(t._target(), "app", None))
        wrap(Timer, "pause", "timer pause", lambda t: getattr(t._target(), "app", None))
        watch = self
        flush = SSHDriver.flush

        def flushed(driver: Any) -> None:
            got = watch.pending.get(id(driver._terminal))
            had = bool(driver._buffer)
            flush(driver)
            line = lines.get(id(driver._app))
            if had and got and line and time.perf_counter() - got[0] > SLOW_KEY:
                if sum(1 for tl in watch.timelines if tl[0][1] == got[2]) < 10:
                    t0 = got[0]
                    watch.timelines.append(
                        [(0, got[2])]
                        + [(round((t - t0) * 1000), w) for t, w in line if t >= t0 - 0.05]
                    )
                line.clear()

        SSHDriver.flush = flushed  # type: ignore[method-assign]

    async def _probe(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - t - 0.01)
            if len(self.stuck) < 8:
                for at, session, _ in list(self.pending.values()):
                    if t - at > 1.0 and id(session) not in self.stuck_seen:
                        self.stuck_seen.add(id(session))
                        try:
                            self.stuck.append(_app_state(session, t - at))
                        except Exception as e:  # a diagnosis must not stop the probe
                            self.stuck.append({"error": repr(e)})
                        break

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
            self.gc_start, self.gc_cpu = time.perf_counter(), time.thread_time()
            return
        dt = time.perf_counter() - self.gc_start
        gen = info["generation"]
        self.gcs[gen].append(dt)
        self.gc_cpus[gen] += time.thread_time() - self.gc_cpu
        if self.current is not None:
            self.gc_in_callback += dt
        if dt >= 0.005:
            self.gc_long.append((self.gc_start - self.started, gen, dt))

    # -- results -------------------------------------------------------------

    def dump(self) -> None:
        wall = time.perf_counter() - self.started
        if not self.calls:
            return
        collected = self.collect() if os.environ.get("BENCH_LOOPWATCH_COLLECT") else None
        data = {
            "pid": os.getpid(),
            "wall": wall,
            "cpu": time.process_time() - self.cpu0,
            "calls": self.calls,
            "busy": self.busy,
            "busy_cpu": self.busy_cpu,
            "switches": {k: v - self.switches0.get(k, 0) for k, v in _switches().items()},
            "collect": collected,
            "threshold_ms": self.threshold * 1000,
            "hist": [[edge, n, s] for edge, (n, s) in zip(BUCKETS_MS, self.hist, strict=True)],
            "long": self.long,
            "by_name": self.by_name.most_common(30),
            "gc": {
                str(g): [len(v), sum(v), max(v), self.gc_cpus[g]] for g, v in self.gcs.items() if v
            },
            "gc_long": self.gc_long,
            "lags": self.lags,
            "steps": self.steps,
            "turns": self.turns,
            "selecting": self.selecting,
            "key_frames": self.key_frames,
            "stuck": self.stuck,
            "timelines": self.timelines,
        }
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"loopwatch-{os.getpid()}.json"
        path.write_text(json.dumps(data))

    def collect(self) -> dict[str, float]:
        """A full collection now (after the measured window): how long, what it found,
        and the resident memory before and after: the garbage that waits for one."""
        rss = _rss_mb()
        gen2 = len(gc.get_objects(2))
        kinds = os.environ.get("BENCH_LOOPWATCH_GARBAGE")
        if kinds:  # keep what the collection finds, to say what it is
            gc.set_debug(gc.DEBUG_SAVEALL)
        start, cpu = time.perf_counter(), time.thread_time()
        found = gc.collect()
        ms, cpu_ms = (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000
        garbage: list[tuple[str, int]] = []
        if kinds:
            gc.set_debug(0)
            counted = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
            garbage = counted.most_common(40)
            gc.garbage.clear()
        return {
            "garbage": garbage,
            "ms": ms,
            "cpu_ms": cpu_ms,
            "found": found,
            "gen2_objects": gen2,
            "frozen": gc.get_freeze_count(),
            "rss_before": rss,
            "rss_after": _rss_mb(),
        }


def _task_stack(task: Any) -> list[str]:
    """Where a task waits: its coroutines down the `await` chain, and what the last awaits."""
    if task is None:
        return []
    out, coro = [], task.get_coro()
    while coro is not None and len(out) < 16:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            out.append(repr(coro)[:120])
            break
        out.append(f"{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_code.co_name}:"
                   f"{frame.f_lineno}")  # fmt: skip
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return out


def _app_state(session: Any, waited: float) -> dict[str, Any]:
    """What an app that has not answered a key for a while is doing."""
    app = session._app
    out: dict[str, Any] = {"waited": waited, "name": session.identity.name}
    if app is None:
        return out
    screen = app.screen
    timer = getattr(screen, "_Screen__update_timer", None)
    out.update(
        app_queue=app._message_queue.qsize(),
        screen_queue=screen._message_queue.qsize(),
        screen=type(screen).__name__,
        batch=app._batch_count,
        timer_active=None if timer is None else timer._active.is_set(),
        dirty=len(screen._dirty_widgets),
        repaint=screen._repaint_required,
        layout=screen._layout_required,
        app_task=_task_stack(app._task),
        screen_task=_task_stack(screen._task),
        timer_task=_task_stack(getattr(timer, "_task", None)),
        write_buffer=session._chan.get_write_buffer_size() if session._chan else None,
    )
    return out


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _switches() -> dict[str, int]:
    """This process's main thread's context switches so far (involuntary: preempted)."""
    out = {}
    try:
        for line in Path(f"/proc/{os.getpid()}/sched").read_text().splitlines():
            if line.startswith(("nr_voluntary_switches", "nr_involuntary_switches")):
                key, value = line.split(":")
                out[key.strip()] = int(value)
    except OSError:
        pass
    return out


def _watch_iterations(watch: Watch) -> None:
    """Each turn of the loop: how long it took, without its wait in the selector, and how
    many callbacks it ran. A callback scheduled now runs at the end of the next turn, so a
    key that needs N hops between tasks waits about N turns."""
    import selectors
    from asyncio import base_events

    run_once = base_events.BaseEventLoop._run_once
    selector_select = selectors.EpollSelector.select
    waited = [0.0]

    def select(self: Any, timeout: float | None = None) -> Any:
        start = time.perf_counter()
        try:
            return selector_select(self, timeout)
        finally:
            waited[0] += time.perf_counter() - start

    def _run_once(self: Any) -> None:
        start, calls0, waited[0] = time.perf_counter(), watch.calls, 0.0
        run_once(self)
        turn = time.perf_counter() - start - waited[0]
        watch.turns.append((turn, watch.calls - calls0))
        watch.selecting += waited[0]

    selectors.EpollSelector.select = select  # type: ignore[method-assign]
    base_events.BaseEventLoop._run_once = _run_once  # type: ignore[attr-defined]


def install(out_dir: str) -> Watch:
    """Time every callback of every event loop in this process (see the module docstring)."""
    watch = Watch(out_dir)
    original = events.Handle._run

    def _run(self: events.Handle) -> None:
        watch.run(original, self)

    events.Handle._run = _run  # type: ignore[method-assign]
    _watch_iterations(watch)
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
        f"pid {data['pid']}: {data['calls']} callbacks in {wall:.0f} s; the loop ran callbacks "
        f"{data['busy'] / wall * 100:.0f}% of the time, on a CPU for "
        f"{data['busy_cpu'] / wall * 100:.0f}% (the rest: preempted); process CPU "
        f"{data['cpu'] / wall * 100:.0f}%; loop lag p50 {_pct(lags, 50):.0f} p90 "
        f"{_pct(lags, 90):.0f} p99 {_pct(lags, 99):.0f} max {max(lags, default=0):.0f} ms; "
        f"main thread preempted {data['switches'].get('nr_involuntary_switches', 0) / wall:.0f} "
        f"times a second"
    ]
    turns = data.get("turns", [])
    if turns:
        ms = [t * 1000 for t, _ in turns]
        n = [c for _, c in turns]
        weighted = sorted(ms, reverse=True)  # what a callback scheduled at a random time meets
        total = sum(ms)
        acc, p50w = 0.0, 0.0
        for v in weighted:
            acc += v
            if acc >= total / 2:
                p50w = v
                break
        lines.append(
            f"  loop turns: {len(turns)} ({len(turns) / wall:.0f}/s), idle in the selector "
            f"{data['selecting'] / wall * 100:.0f}% of the time; a turn takes p50 "
            f"{_pct(ms, 50):.1f} p90 {_pct(ms, 90):.1f} p99 {_pct(ms, 99):.0f} max "
            f"{max(ms):.0f} ms and runs p50 {_pct(n, 50):.0f} p99 {_pct(n, 99):.0f} callbacks; "
            f"half the busy time is in turns over {p50w:.0f} ms"
        )
    for label, values in sorted(data.get("steps", {}).items()):
        ms = [v * 1000 for v in values]
        lines.append(
            f"  {label}: {len(ms)} calls, p50 {_pct(ms, 50):.0f} p90 {_pct(ms, 90):.0f} "
            f"p99 {_pct(ms, 99):.0f} max {max(ms):.0f} ms"
        )
    frames = data.get("key_frames", [])
    for kind in ("all", "colon", "letter", "enter", "cursor"):
        kf = [v * 1000 for k, v in frames if kind in ("all", k)]
        if kf:
            lines.append(
                f"  in the server, a key to its session's next frame ({kind}): p50 "
                f"{_pct(kf, 50):.0f} p90 {_pct(kf, 90):.0f} p99 {_pct(kf, 99):.0f} max "
                f"{max(kf):.0f} ms ({len(kf)} keys)"
            )
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
            f"gen {g}: {n} runs, {s * 1000:.0f} ms in all ({c * 1000:.0f} ms CPU), "
            f"max {m * 1000:.0f} ms"
            for g, (n, s, m, c) in sorted(gcs.items())
        )
    )
    if data.get("collect"):
        c = data["collect"]
        lines.append(
            f"  a full collection afterwards: {c['ms']:.0f} ms ({c['cpu_ms']:.0f} ms CPU), "
            f"{c['found']} unreachable objects among {c['gen2_objects']} in the old generation "
            f"({c['frozen']} frozen); memory {c['rss_before']:.0f} -> {c['rss_after']:.0f} MB"
        )
        for kind, n in c.get("garbage", [])[:25]:
            lines.append(f"    {n:8}  {kind}")
    long = data["long"]
    lines.append(
        f"  callbacks over {data['threshold_ms']:.0f} ms: {len(long)}, "
        f"{sum(x['ms'] for x in long) / 1000:.1f} s in all, "
        f"{sum(x.get('cpu_ms', 0) for x in long) / 1000:.1f} s of it on a CPU, "
        f"{sum(x['gc_ms'] for x in long) / 1000:.1f} s in garbage collections; by name:"
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
