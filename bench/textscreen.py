"""A pyte screen that keeps the text alone: what the load generator's players read.

`bench/load.py`'s players look for words on their screens (a prompt, a count, a
card's id), never at a colour; pyte's own `Screen` spends most of a load
generator's time on what they never read: every character drawn becomes a new
`Char` with the pen's colours and attributes (`Char._replace`), and every colour
change makes a new pen. `TextScreen` keeps the pen at pyte's default (a colour
change is read and ignored) and draws each character as one `Char` made once per
character: its text is the same as pyte's, cell for cell
(tests/server/test_load_screen.py), for about a third of the time (this script, on a
recorded stream, prints the ratio).

Anything out of the ordinary goes to pyte's own `draw`: a character set other than
the default (G1 or DEC graphics, once UTF-8 is turned off), insert mode, and from
the first character that is not one or two cells wide (a combining mark joins the
cell before it, a character of no width ends the run): pyte's rules, unchanged.

    .venv/bin/python bench/textscreen.py     # stock against text screen, one stream
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pyte
from pyte import charsets, modes
from pyte.screens import Char
from wcwidth import wcwidth


class TextScreen(pyte.Screen):
    """pyte's screen with the text kept and the pen left at its default."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        # per character: (cells wide, its Char, the stub Char after a wide one)
        self._cells: dict[str, tuple[int, Char, Char]] = {}

    def select_graphic_rendition(self, *attrs: int, private: bool = False) -> None:
        """Colours and attributes are not kept: the pen stays pyte's default."""

    def draw(self, data: str) -> None:
        if self.charset or self.g0_charset is not charsets.LAT1_MAP or modes.IRM in self.mode:
            super().draw(data)
            return
        cells = self._cells
        cursor = self.cursor
        columns = self.columns
        line = self.buffer[cursor.y]
        x = cursor.x
        for i, char in enumerate(data):
            cell = cells.get(char)
            if cell is None:
                width = wcwidth(char)
                if width != 1 and width != 2:
                    cursor.x = x
                    super().draw(data[i:])
                    return
                cell = cells[char] = (width, Char(char), Char(""))
            width = cell[0]
            if x == columns:  # past the last column: wrap (DECAWM) or overwrite the end
                if modes.DECAWM in self.mode:
                    self.dirty.add(cursor.y)
                    cursor.x = x
                    self.carriage_return()
                    self.linefeed()
                    x = cursor.x
                    line = self.buffer[cursor.y]
                else:
                    x -= width
            line[x] = cell[1]
            if width == 2 and x + 1 < columns:
                line[x + 1] = cell[2]
            x = x + width if x + width < columns else columns
        cursor.x = x
        self.dirty.add(cursor.y)


async def record(seed: int, keys: int) -> list[bytes]:
    """The bytes a 256-colour player's table screen is sent (the server's frames,
    `server.frames`) for `keys` keys: cursor keys, Tab, the move line's letters, and a
    new view after every eighth key (a move played)."""
    import random

    from clientkit import FakeConnection, sensible, wait_for
    from rich.console import Console
    from textual._compositor import CompositorUpdate
    from textual.app import App

    import server.tui_driver  # noqa: F401  (the server's frames)
    from client.app import SplendorApp
    from client.screens.table import TableScreen
    from shared.deal import new_game
    from shared.protocol import SeatSummary, TableUpdate, Welcome, encode

    console = Console(color_system="256", force_terminal=True, legacy_windows=False)
    written: list[bytes] = []
    display = App._display

    def shown(app: Any, screen: Any, update: Any) -> None:
        if isinstance(update, CompositorUpdate):
            written.append(update.render_segments(console).encode())
        display(app, screen, update)

    App._display = shown  # type: ignore[method-assign]
    try:
        seats = (SeatSummary("Ann"), SeatSummary("Bob"))
        rng = random.Random(seed)
        state = new_game(2, seed)
        conn = FakeConnection()
        app = SplendorApp(conn)
        pressed = ["l", "l", "j", "j", "h", "k", "tab", "colon", "t", "a", "escape"]
        async with app.run_test(size=(110, 36)) as pilot:
            conn.deliver(encode(Welcome("Ann")))
            conn.deliver(encode(TableUpdate("t1", seats, 0, state.view(0), log=())))
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            for i in range(keys):
                await pilot.press(pressed[i % len(pressed)])
                if i % 8 == 7 and not state.is_over:
                    state = state.apply(sensible(state, rng))
                    conn.deliver(encode(TableUpdate("t1", seats, 0, state.view(0), log=())))
                await pilot.pause(0.005)
    finally:
        App._display = display  # type: ignore[method-assign]
    return written


def compare(rounds: int) -> None:
    """pyte's screen against `TextScreen`, side by side on one recorded stream."""
    chunks = asyncio.run(record(seed=1, keys=240))
    print(f"{len(chunks)} writes, {sum(map(len, chunks)) / 1024:.0f} KB")
    for _ in range(rounds):
        spent = []
        for kind in (pyte.Screen, TextScreen):
            screen = kind(110, 36)
            stream = pyte.ByteStream(screen)
            start = time.process_time()
            for chunk in chunks:
                stream.feed(chunk)
            spent.append(time.process_time() - start)
        print(
            f"pyte {spent[0] * 1000:.0f} ms, text screen {spent[1] * 1000:.0f} ms:"
            f" ×{spent[1] / spent[0]:.2f}"
        )


if __name__ == "__main__":
    ROOT = Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "client")]
    compare(rounds=3)
