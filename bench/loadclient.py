"""One load-generator process of `bench/load.py`: its share of the players, in real SSH
sessions with PTYs, each screen a pyte emulator.

    python bench/loadclient.py < job      # started by bench/load.py, never by hand

It talks to `bench/load.py` in lines of JSON: the job comes on stdin (port, names,
rate, arrival times, time control), then the words `go` and `stop`; it answers on
stdout with `{"lobby": n}` and `{"seated": n, "failed": [why, ...]}` while its
sessions arrive (a player who could not sit down is left out), and once stopped
with `{"result": ...}`: every key's latency measured between go and stop, with the
player's name, this process's CPU seconds and its own event-loop lag (a late loop
here makes every latency it measures look late), its collector's pauses, and what
stopped any player meanwhile.

Players: each starts a quick game against an easy bot, on the job's clock, and
presses a key every 1/rate seconds on average (each gap 0.5 to 1.5 of that, at
random), from the moment they sit down: the command line (":", the move's letters,
Enter) on their turn, a cursor key while the bot thinks. A key's latency runs from
the write to the moment the screen shows its effect (for Enter, the next turn or the
table's refusal: a move refused is not typed again that turn); only keys between
"go" and "stop" are measured.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import re
import sys
import time
import traceback
from typing import Any

from loadkit import (
    UNSEEN,
    Latencies,
    Terminal,
    connect,
    lag_probe,
    own_cpu,
)
from wireplayer import wire_player

# -- reading the table screen -------------------------------------------------------------


def status(term: Terminal) -> str:
    return term.row(0)


def counts(line: str) -> dict[str, int]:
    return {c: int(n) for c, n in re.findall(r"([WUGRK*])\s+(\d+)", line)}


def typed_so_far(term: Terminal) -> str:
    """The move line's text: what comes before the hint at its right end."""
    return re.split(r"\s{2,}", term.row(-2).strip())[0]


def choose(term: Terminal, refused: set[str]) -> str | None:
    """A legal-looking move from what the screen shows, other than those the table
    refused this turn: buy what it marks buyable, else take three colours the bank has,
    else reserve a card shown (R9), else pass (R12: only when nothing else is legal);
    None if the table refused them all."""
    rows = term.rows()
    moves = []
    for i, row in enumerate(rows[:20]):
        for m in re.finditer(r"✓ buy", row):
            ids = [(c.start(), c.group()) for c in re.finditer(r"\d-\d\d", rows[i - 2])]
            moves += [f"buy {cid}" for col, cid in ids if 0 <= col - m.start() <= 8][:1]
    bank = counts(next((r for r in rows if r.startswith("Bank")), ""))
    have = sorted((c for c in "WUGRK" if bank.get(c, 0) > 0), key=lambda c: -bank[c])
    if have:
        moves.append("take " + " ".join(have[:3]))
    moves += [f"reserve {cid}" for row in rows[:20] for cid in re.findall(r"\d-\d\d", row)]
    moves.append("pass")
    return next((m for m in moves if m not in refused), None)


def refusal(term: Terminal) -> bool:
    """The table refused the move typed: the prompt names it and says why."""
    return term.row(-2).lstrip().startswith("`")


async def returns(term: Terminal, latencies: Latencies) -> None:
    """The R13 choice: give back the most-held colours, then Enter."""
    try:
        text = await asyncio.wait_for(_dialog(term), 10)
    except TimeoutError:
        raise TimeoutError(f"no return dialog in 10 s: {term.showing()}") from None
    excess = int(re.search(r"return (\d+) token", text).group(1))  # type: ignore[union-attr]
    kept = term.row(-2).split("you keep")[-1]  # the prompt: what the player holds
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
    """The screen once the return prompt is drawn whole, with the tokens held (a frame can
    reach the screen in more than one piece): "Give back 2 (R13): … · you keep 3W 2U…".
    A move typed again while the first was slow to show is refused in its place ("first
    return 2 tokens"): Escape brings the prompt back."""

    def shown() -> bool:
        return re.search(r"\(R13\).* you keep ", term.row(-2)) is not None

    await term.until(lambda: shown() or refusal(term))
    if not shown():
        term.chan.write(b"\x1b")  # type: ignore[union-attr]
        await term.until(shown)
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
        shown = re.compile(rf"Clock\s+◀\s+{re.escape(clock)}\s+▶")
        for _ in range(10):
            if shown.search(term.text()):
                break
            before = term.text()
            term.chan.write(b"\x1b[C")
            await term.until(lambda b=before: term.text() != b)
        else:
            raise RuntimeError(f"the quick game dialog offers no clock {clock!r}")
    term.chan.write(b"\r")
    await term.until(lambda: re.search(r"turn \d+ ·", status(term)) is not None or busy_shown(term))
    if busy_shown(term):  # the server said so: a reason, not a time-out
        raise RuntimeError("the quick game was refused: the server is busy")


def busy_shown(term: Terminal) -> bool:
    return "the server is busy" in term.text()


async def player(
    port: int,
    name: str,
    arrive: float,
    period: float,
    latencies: Latencies,
    seated: list[str],
    stop: asyncio.Event,
    app: str = "game",
    clock: str = "none",
) -> int:
    """One player: arrives after `arrive` seconds, then quick games on `clock`, one key
    per `period`, until `stop`; keys pressed. A player plays from the moment they sit
    down, not from the measured window's start: arrivals are spread out, and so are the
    players' moves when the window opens (were every player to start at "go", the first
    moves and the bots' answers would all come a dozen keys later, in one burst)."""
    await asyncio.sleep(arrive)  # arrivals spread out, not one burst
    conn, term = await connect(port, name)
    if app == "game":
        await quick_game(term, clock)
    seated.append(name)
    pressed = 0
    due = time.monotonic() + random.uniform(0, period)
    if app == "echo":  # a letter per period; the app shows how many it got
        while not stop.is_set():
            now = time.monotonic()
            await asyncio.sleep(max(0.0, due - now))
            due = max(due, now) + period * random.uniform(0.5, 1.5)
            pressed += 1
            shown = re.compile(rf"\bn={pressed}\b")
            await term.key("a", lambda r=shown: r.search(term.text()) is not None, latencies)
        conn.close()
        return pressed

    async def pace() -> None:
        """Wait for this key's turn: one every `period` on average, each gap drawn from
        0.5 to 1.5 periods (players who waited on the same stall do not go on in step);
        a player whose screen was late presses the next key at once, then keeps the pace
        (no burst of every key missed)."""
        nonlocal due, pressed
        now = time.monotonic()
        await asyncio.sleep(max(0.0, due - now))
        due = max(due, now) + period * random.uniform(0.5, 1.5)
        pressed += 1

    async def look() -> None:
        """A cursor key: the line under the board describes the card it reaches (or the
        turn changes meanwhile)."""
        info, top = term.row(-2), status(term)
        await pace()
        await term.key("l", lambda: term.row(-2) != info or status(term) != top, latencies)

    turn, refused = "", set[str]()  # the moves the table refused this turn
    while not stop.is_set():
        top = status(term)
        if "game over" in top:
            term.chan.write(b"\r")  # type: ignore[union-attr]  # the results: back to the lobby
            await term.until(lambda: "Splendor lobby" in term.text())
            await quick_game(term, clock)
        elif "your turn: return" in top:
            await returns(term, latencies)
        elif "your turn" in top:
            if top != turn:  # a new turn: nothing refused yet
                turn, refused = top, set()
            move = choose(term, refused)
            if move is None:  # every move it could see refused: look around meanwhile
                await look()
                continue
            await pace()
            await term.key(":", lambda: "a move:" in term.row(-2), latencies)
            for i in range(len(move)):
                typed = move[: i + 1].rstrip()
                await pace()
                await term.key(move[i], lambda t=typed: typed_so_far(term) == t, latencies)
            before = status(term)
            await pace()
            await term.key("\r", lambda b=before: status(term) != b or refusal(term), latencies)
            if refusal(term):
                refused.add(move)
        else:  # the bot's turn
            await look()
    conn.close()
    return pressed


# -- the process ------------------------------------------------------------------------------


class GcPauses:
    """This process's garbage collections (gc.callbacks): how long each took."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._start = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._start))


def _failure(task: asyncio.Task[Any]) -> str:
    """What stopped a player: the exception and where, with what its screen showed."""
    error = task.exception()
    assert error is not None
    where = traceback.extract_tb(error.__traceback__)[-3:]
    at = " < ".join(f"{f.name}:{f.lineno}" for f in reversed(where))
    return f"{type(error).__name__}: {error} at {at}"


def send(**message: Any) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def run(job: dict[str, Any], commands: asyncio.StreamReader) -> None:
    port, app = job["port"], job["app"]
    watching = []  # sessions that sit in the lobby, which follows every game
    lobby = job["lobby"]
    for i in range(0, len(lobby), 10):
        watching += await asyncio.gather(*(connect(port, name) for name in lobby[i : i + 10]))
    send(lobby=len(watching))
    wire = job.get("wire", [])  # players on the `splendor` subsystem (bench/wireplayer.py)
    latencies: dict[str, Latencies] = {name: [] for name, _ in job["players"] + wire}
    seated: list[str] = []
    stop = asyncio.Event()
    period, clock = job["period"], job.get("clock", "none")
    tasks = [
        asyncio.create_task(
            player(port, name, arrive, period, latencies[name], seated, stop, app, clock)
        )
        for name, arrive in job["players"]
    ] + [
        asyncio.create_task(
            wire_player(port, name, arrive, period, latencies[name], seated, stop, clock)
        )
        for name, arrive in wire
    ]
    go = asyncio.ensure_future(commands.readline())
    shown: tuple[int, int] = (-1, -1)
    while not go.done():
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
        if (len(seated), len(failed)) != shown:
            shown = (len(seated), len(failed))
            send(seated=len(seated), failed=sorted(_failure(t) for t in failed))
        await asyncio.wait({go}, timeout=0.2)
    unseated = {t for t in tasks if t.done()}  # players that never sat down: not measured
    # Measuring: from "go" to "stop".
    pauses = GcPauses()
    for some in latencies.values():  # the players' keys before "go" are not measured
        some.clear()
    UNSEEN.clear()
    lags: list[float] = []
    probe = asyncio.create_task(lag_probe(lags))
    cpu0, wall0 = own_cpu(), time.monotonic()
    await commands.readline()
    cpu, wall = own_cpu() - cpu0, time.monotonic() - wall0
    stop.set()
    sample = [(name, kind, v) for name, some in latencies.items() for kind, v in some]
    dead = [
        t for t in tasks if t not in unseated and t.done() and not t.cancelled() and t.exception()
    ]
    send(
        result={
            "latencies": sample,
            "lags": lags,
            "cpu": cpu,
            "wall": wall,
            "gc": pauses.pauses,
            "players_failed": len(dead),
            "failures": sorted({_failure(t) for t in dead})[:5],
            "unseen": UNSEEN[:5],
        }
    )
    probe.cancel()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for conn, _ in watching:
        conn.close()


async def main() -> None:
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    job = json.loads(await commands.readline())
    await run(job, commands)


if __name__ == "__main__":
    asyncio.run(main())
