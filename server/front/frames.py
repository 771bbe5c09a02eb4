"""How an update becomes the bytes a player's terminal receives (docs/design.md, P18).

Written against textual==8.2.8, like `server/front/compositing.py`: `server/front/tui_driver.py`
imports this module for its effect, which replaces `render_segments` of Textual's two
screen updates (`ChopsUpdate`, a partial one, and `LayoutUpdate`, the whole screen).

Textual writes every run of text as ``ESC[<its whole style>m text ESC[0m``, every piece
of a changed line from the piece's first column, and a cursor move before each piece.
Here the terminal's pen is kept in mind through the frame: the first run sets the whole
pen (whatever the terminal was left with), a run that keeps the pen writes no codes,
one that changes only a colour writes only that colour, and a change of attributes
(bold, reverse...) resets and sets the whole pen. A piece is written from the first
column the update covers (never cutting a wide character or an emoji), and the cursor
is moved only where it is not already. The screen shown is the same, in fewer bytes.

It also mends a leak between sessions: Textual keeps a style's codes in the `Style`
object itself (`Style._ansi`), computed for whichever colour system rendered it first,
and style objects are shared between sessions (Rich's caches, the board's cached
tiles). A player on a 256-colour terminal who came after a truecolor player got 24-bit
codes. Here a style's codes are worked out per colour system and kept in a cache of
this module's, never in the style.
"""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len, get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.strip import SGR_STYLES, Strip

Pen = tuple[str, str, str]  # the SGR codes of the attributes, the foreground, the background
PLAIN: Pen = ("", "", "")
UNKNOWN: Pen = ("?", "?", "?")  # a frame's start: whatever the terminal was left with
RESET = "\x1b[0m"


@lru_cache(maxsize=16384)
def pen(style: Style | None, system: ColorSystem) -> Pen:
    """The codes `style` asks of a terminal with colour system `system`."""
    if style is None:
        return PLAIN
    on = style._attributes & style._set_attributes
    attributes = ";".join(SGR_STYLES[bit] for bit in range(on.bit_length()) if on >> bit & 1)
    colour, background = style._color, style._bgcolor
    fg = ";".join(colour.downgrade(system).get_ansi_codes()) if colour is not None else ""
    bg = ";".join(background.downgrade(system).get_ansi_codes(False)) if background else ""
    return attributes, "" if fg == "39" else fg, "" if bg == "49" else bg  # 39, 49: default


def single_cells(text: str) -> bool:
    """Whether every character of `text` takes one cell: then it may be cut anywhere, and
    the terminal's cursor moves as far as its length (not so after an emoji, a wide or a
    combining character, or a variation selector)."""
    if text.isascii():
        return text.isprintable()
    return all(get_character_cell_size(c) == 1 for c in text)


@lru_cache(maxsize=16384)
def change(old: Pen, new: Pen) -> str:
    """The shortest sequence from pen `old` to pen `new`: nothing, the colours that
    differ (39 and 49 give back the terminal's own), or a reset and the whole pen when
    the attributes differ (or are not known)."""
    if old == new:
        return ""
    if old[0] != new[0]:
        codes = ["0", *(code for code in new if code)]
    else:
        codes = []
        if old[1] != new[1]:
            codes.append(new[1] or "39")
        if old[2] != new[2]:
            codes.append(new[2] or "49")
    return f"\x1b[{';'.join(codes)}m"


class Writer:
    """One frame's bytes, from pieces of lines, with the terminal's pen and cursor in mind."""

    __slots__ = ("system", "out", "pen", "at")

    def __init__(self, console: Console) -> None:
        self.system = console._color_system or ColorSystem.TRUECOLOR
        self.out: list[str] = []
        self.pen = UNKNOWN  # the first change of the frame resets
        self.at: tuple[int, int] | None = None  # where the cursor is, when known

    def piece(self, strip: Strip, x: int, y: int, start: int, stop: int) -> None:
        """The columns `start` to `stop` of `strip`, a piece of line `y` from column `x`.
        A run of text cut by `start` or `stop` is written whole unless every character
        of it takes one cell (the terminal must never get half of a wide character or of
        an emoji): Textual's own writes the whole piece."""
        out, system = self.out, self.system
        for text, style, control in strip._segments:
            if control:  # Textual counts no cells for it; where it leaves the cursor is unknown
                out.append(text)
                self.at = None
                continue
            cells = cell_len(text)
            end = x + cells
            if end <= start or not text:
                x = end
                continue
            if x >= stop:
                break
            at = x
            single = single_cells(text)
            if (x < start or end > stop) and single:
                cut = max(start - x, 0)
                text = text[cut : stop - x]
                at = x + cut
            if self.at != (at, y):
                out.append(f"\x1b[{y + 1};{at + 1}H")
            new = pen(style, system)
            if new != self.pen:
                out.append(change(self.pen, new))
                self.pen = new
            # the cursor's column is only sure after single cells: a terminal may count an
            # emoji or a character of ambiguous width otherwise than Rich does
            self.at = (at + len(text), y) if single else None
            if style is not None and style._link:
                text = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{text}\x1b]8;;\x1b\\"
            out.append(text)
            x = end

    def finish(self) -> str:
        if self.pen not in (PLAIN, UNKNOWN):
            self.out.append(RESET)
        return "".join(self.out)


def render_chops(self: ChopsUpdate, console: Console) -> str:
    """A partial update: the spans of its lines, from the pieces that overlap them."""
    writer = Writer(console)
    for y, x1, x2 in self.spans:
        for end, (x, strip) in zip(self.chop_ends[y], self.chops[y].items(), strict=False):
            if strip is not None and x < x2 and end > x1:
                writer.piece(strip, x, y, x1, x2)
    return writer.finish()


def render_layout(self: LayoutUpdate, console: Console) -> str:
    """The whole screen (or a region of it), line by line."""
    writer = Writer(console)
    for y, line in enumerate(self.strips, self.region.y):
        x = self.region.x
        for strip in line:
            writer.piece(strip, x, y, x, x + strip.cell_length)
            x += strip.cell_length
    return writer.finish()


_textual_chops = ChopsUpdate.render_segments  # kept for the tests' comparison
_textual_layout = LayoutUpdate.render_segments
setattr(ChopsUpdate, "render_segments", render_chops)  # noqa: B010
setattr(LayoutUpdate, "render_segments", render_layout)  # noqa: B010
