"""A clock's tick, headless: the CPU one table screen spends a second with its running
clock counting down (one tick a second) against the same screen with no clock.

    .venv/bin/python bench/tick.py [--seconds 12] [--rounds 3]

The app alone, fed a table view as the host sends it (the tests' fake connection), in
Textual's headless mode: it lays out and draws the changed line but writes nothing,
so a session over SSH pays a little more (`bench/load.py --clocks none,5+10`).
Times are this process's CPU time; the figure is the median over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "client")]

from clientkit import FakeConnection, wait_for  # noqa: E402

from client.app import SplendorApp  # noqa: E402
from client.screens.table import TableScreen  # noqa: E402
from shared.clock import ClockView, parse_time_control  # noqa: E402
from shared.deal import new_game  # noqa: E402
from shared.protocol import SeatSummary, TableUpdate, Welcome, encode  # noqa: E402
from shared.settings import GameSettings  # noqa: E402

FIVE = parse_time_control("5+10")
SEATS = (SeatSummary("Ann"), SeatSummary("Bob"))


async def cpu_a_second(clocked: bool, seconds: float) -> float:
    """ms of CPU a second: a table screen, its clock running (or none), for `seconds`."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    state = new_game(GameSettings(2), 5)
    clock = ClockView(FIVE, (300.0, 300.0), 0) if clocked else None
    async with app.run_test(size=(110, 36)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(TableUpdate("t1", SEATS, 0, state.view(0), log=(), clock=clock)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await asyncio.sleep(2)  # settled
        cpu0, wall0 = time.process_time(), time.monotonic()
        await asyncio.sleep(seconds)
        return (time.process_time() - cpu0) / (time.monotonic() - wall0) * 1000


async def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--seconds", type=float, default=12.0, help="each measure (default 12)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of both (default 3)")
    args = p.parse_args()
    none: list[float] = []
    ticking: list[float] = []
    for _ in range(args.rounds):
        none.append(await cpu_a_second(False, args.seconds))
        ticking.append(await cpu_a_second(True, args.seconds))
    for name, some in (("no clock", none), ("5+10", ticking)):
        print(f"{name:>8}: " + ", ".join(f"{v:.2f}" for v in some) + " ms of CPU a second")
    tick = statistics.median(ticking) - statistics.median(none)
    print(f"a tick (one a second): {tick:.2f} ms of CPU (medians)")


if __name__ == "__main__":
    asyncio.run(main())
