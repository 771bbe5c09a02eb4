"""Right to left's cost (client/bidi.py, client/rtl.py): one line laid out, new and
cached, and a table screen's whole repaint for a right-to-left reader in visual mode
against the same screen without the layout.

    .venv/bin/python bench/rtl.py [--frames 200] [--rounds 3]

The app alone, fed a table view as the host sends it (the tests' fake connection), in
Textual's headless mode: every widget is refreshed and the whole screen composed for
each frame. Times are this process's CPU time; the figure is the median over the rounds.
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
from client.bidi import _visual_order, reorder_runs  # noqa: E402
from client.rtl import TextLayout  # noqa: E402
from client.screens.table import TableScreen  # noqa: E402
from shared.deal import new_game  # noqa: E402
from shared.protocol import SeatSummary, TableUpdate, Welcome, encode  # noqa: E402
from shared.settings import GameSettings  # noqa: E402

SEATS = (SeatSummary("Ann"), SeatSummary("Bob"))
# "alice bought card 1-07 with three gems and a gold and took 3 prestige", 80 cells
LINE = "بازیکن alice کارت 1-07 را با سه گوهر و یک طلا خرید و ۳ امتیاز اعتبار گرفت".ljust(80)


def per_line(count: int) -> tuple[float, float, float]:
    """ms a line: laid out anew, laid out again (cached), passed unchanged (no Persian,
    a left-to-right part)."""
    cpu = time.process_time()
    for _ in range(count):
        _visual_order.cache_clear()
        _visual_order(LINE, "R", True)
    fresh = (time.process_time() - cpu) / count * 1000
    runs = [(LINE[:20], 1), (LINE[20:], 2)]
    cpu = time.process_time()
    for _ in range(count):
        reorder_runs(runs, "R")
    cached = (time.process_time() - cpu) / count * 1000
    cpu = time.process_time()
    for _ in range(count):
        reorder_runs([("buy 1-07  take W U G R K".ljust(80), 1)], "L")
    passed = (time.process_time() - cpu) / count * 1000
    return fresh, cached, passed


async def repaint(layout: TextLayout, frames: int) -> float:
    """ms of CPU a whole repaint of a 2-player table at 80x24."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    app.layout = layout
    state = new_game(GameSettings(2), 5)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(TableUpdate("t1", SEATS, 0, state.view(0), log=())))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause(0.2)
        screen = app.screen
        cpu = time.process_time()
        for _ in range(frames):
            for widget in screen.query("*"):
                widget.refresh()
            screen._compositor.render_update(full=True)
        return (time.process_time() - cpu) / frames * 1000


async def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--frames", type=int, default=200, help="repaints a measure (default 200)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of both (default 3)")
    args = p.parse_args()
    fresh, cached, passed = per_line(2000)
    print(f"a line of 80 cells: {fresh:.3f} ms laid out anew, {cached:.3f} ms cached, ", end="")
    print(f"{passed:.4f} ms passed unchanged")
    plain: list[float] = []
    rtl: list[float] = []
    for _ in range(args.rounds):
        plain.append(await repaint(TextLayout(), args.frames))
        rtl.append(await repaint(TextLayout.of("fa", "visual"), args.frames))
    for name, some in (("left to right", plain), ("fa, visual", rtl)):
        print(f"{name:>13}: " + ", ".join(f"{v:.2f}" for v in some) + " ms a whole repaint")
    added = statistics.median(rtl) - statistics.median(plain)
    print(f"right to left adds {added:.2f} ms (medians)")


if __name__ == "__main__":
    asyncio.run(main())
