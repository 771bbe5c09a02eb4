"""A pyte screen and stream that keep the text alone: what the load generator reads.

`bench/load.py`'s players look for words on their screens (a prompt, a count, a
card's id), never at a colour; pyte spends most of a load generator's time on what
they never read. Its screen makes every character drawn a new `Char` with the pen's
colours and attributes (`Char._replace`) and makes a new pen at each colour change;
its parser reads every escape sequence one character at a time through a generator.
`TextScreen` keeps the pen at pyte's default (a colour change is read and ignored)
and draws each character as one `Char` made once per character; `TextStream` matches
a whole CSI sequence at once (the cursor moves and colours that make up most of a
frame) and calls the screen as pyte's parser would. The text is pyte's, cell for
cell, and the cursor too (tests/server/test_load_screen.py), for about a fifth of
the time (this script, on a recorded stream, prints the ratios).

Anything out of the ordinary goes to pyte's own code: to its `draw`, a character set other than
the default (G1 or DEC graphics, once UTF-8 is turned off), insert mode, and from
the first character that is not one or two cells wide (a combining mark joins the
cell before it, a character of no width ends the run); to its parser, a sequence cut
between two writes, one with a private or intermediate character past its start, OSC,
and every other escape.

    .venv/bin/python bench/textscreen.py     # pyte's against ours, one recorded stream
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path

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

    def select_graphic_rendition(self, *attrs: int) -> None:  # no `private`, as pyte's
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


class _CsiAtOnce(pyte.Stream):
    """pyte's text stream with a shortcut for whole CSI sequences (see `TextStream`)."""

    _CSI = re.compile(r"\x1b\[(\??)([0-9;]*)([@A-Za-z`])")

    def attach(self, screen: pyte.Screen) -> None:
        super().attach(screen)
        self._handlers = {final: getattr(screen, name) for final, name in self.csi.items()}

    def feed(self, data: str) -> None:
        assert self.listener is not None
        draw = self.listener.draw
        debug = self.listener.debug
        handlers = self._handlers
        match_text = self._text_pattern.match
        match_csi = self._CSI.match
        send = self._send_to_parser
        plain = self._taking_plain_text
        offset, length = 0, len(data)
        while offset < length:
            if plain:
                found = match_text(data, offset)
                if found:
                    draw(data[offset : found.end()])
                    offset = found.end()
                    continue
                found = match_csi(data, offset)
                if found:  # the parser is at rest: a whole sequence, its way
                    private, params, final = found.groups()
                    try:
                        args = [min(int(p or 0), 9999) for p in params.split(";")]
                        handler = handlers.get(final, debug)
                        if private:
                            handler(*args, private=True)
                        else:
                            handler(*args)
                    except BaseException:
                        self._taking_plain_text = True  # as pyte's parser starts again
                        raise
                    offset = found.end()
                    continue
            plain = send(data[offset])
            offset += 1
        self._taking_plain_text = plain


class TextStream(pyte.ByteStream, _CsiAtOnce):
    """pyte's byte stream (its decoding, then the text to `_CsiAtOnce.feed`) with a
    shortcut for whole CSI sequences (a cursor move, a colour, an erase): matched at
    once and given to the screen as pyte's parser would, instead of one character at a
    time through it. Anything else (a sequence cut between two writes, private or
    intermediate characters, OSC, other escapes) goes through pyte's parser as before."""


async def record(seed: int, keys: int) -> list[bytes]:
    """The bytes a 256-colour player's table screen is sent (the server's frames,
    `server.front.frames`) for `keys` keys: cursor keys, Tab, the move line's letters, and a
    new view after every eighth key (a move played)."""
    import random

    from clientkit import FakeConnection, frame_display, sensible, wait_for
    from textual.app import App

    from client.app import SplendorApp
    from client.screens.table import TableScreen
    from shared.deal import new_game
    from shared.protocol import SeatSummary, TableUpdate, Welcome, encode
    from shared.settings import GameSettings

    written: list[bytes] = []
    display = App._display
    App._display = frame_display("256", lambda frame: written.append(frame.encode()))  # type: ignore[method-assign]
    try:
        seats = (SeatSummary("Ann"), SeatSummary("Bob"))
        rng = random.Random(seed)
        state = new_game(GameSettings(2), seed)
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


KINDS = (
    (pyte.Screen, pyte.ByteStream),
    (TextScreen, pyte.ByteStream),
    (TextScreen, TextStream),
)


def compare(rounds: int) -> None:
    """pyte's screen and stream, `TextScreen` alone, and with `TextStream`: side by
    side on one recorded stream."""
    chunks = asyncio.run(record(seed=1, keys=240))
    print(f"{len(chunks)} writes, {sum(map(len, chunks)) / 1024:.0f} KB")
    for _ in range(rounds):
        spent = []
        for screen_kind, stream_kind in KINDS:
            screen = screen_kind(110, 36)
            stream = stream_kind(screen)
            start = time.process_time()
            for chunk in chunks:
                stream.feed(chunk)
            spent.append(time.process_time() - start)
        print(
            f"pyte {spent[0] * 1000:.0f} ms; text screen {spent[1] * 1000:.0f} ms"
            f" (×{spent[1] / spent[0]:.2f}); and its stream {spent[2] * 1000:.0f} ms"
            f" (×{spent[2] / spent[0]:.2f})"
        )


if __name__ == "__main__":
    ROOT = Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "client")]
    compare(rounds=3)
