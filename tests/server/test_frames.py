"""How an update becomes bytes (server/front/frames.py, docs/design.md P18): the shortest
change of the terminal's pen, and a style's codes for each colour system of its own.
The frames themselves are compared with Textual's cell by cell in
tests/client/test_tui_compositing.py."""

from __future__ import annotations

from rich.color import ColorSystem
from rich.console import Console
from rich.segment import ControlType, Segment
from rich.style import Style
from textual.strip import Strip

from server.front.frames import PLAIN, RESET, Writer, change, pen

TRUE, EIGHT = ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT


def test_a_pen_is_the_codes_of_a_style_for_one_colour_system() -> None:
    style = Style(color="#ff8800", bgcolor="#102030", bold=True, reverse=True)
    assert pen(style, TRUE) == ("1;7", "38;2;255;136;0", "48;2;16;32;48")
    assert pen(style, EIGHT) == ("1;7", "38;5;208", "48;5;17")
    assert pen(Style(), TRUE) == PLAIN
    assert pen(None, EIGHT) == PLAIN


def test_a_style_first_drawn_in_truecolor_keeps_256_colours_for_another_terminal() -> None:
    style = Style(color="#123456", bgcolor="#abcdef")
    strip = Strip([Segment("x", style)])
    truecolor = Console(color_system="truecolor", force_terminal=True, legacy_windows=False)
    assert "38;2;18;52;86" in strip.render(truecolor)  # Textual keeps these in the style
    colours = Console(color_system="256", force_terminal=True, legacy_windows=False)
    assert "38;2;" in Strip([Segment("x", style)]).render(colours)  # the leak, in Textual
    writer = Writer(colours)
    writer.piece(Strip([Segment("x", style)]), 0, 0, 0, 1)
    written = writer.finish()
    assert "38;2;" not in written
    assert written == "\x1b[1;1H\x1b[0;38;5;23;48;5;153mx" + RESET


def test_the_pen_changes_only_what_differs() -> None:
    blue_on_black = ("", "38;5;21", "48;5;16")
    assert change(blue_on_black, blue_on_black) == ""
    assert change(blue_on_black, ("", "38;5;196", "48;5;16")) == "\x1b[38;5;196m"
    assert change(blue_on_black, ("", "38;5;21", "")) == "\x1b[49m"  # the terminal's own
    assert change(blue_on_black, ("", "", "48;5;17")) == "\x1b[39;48;5;17m"
    bold = ("1", "38;5;21", "48;5;16")
    assert change(blue_on_black, bold) == "\x1b[0;1;38;5;21;48;5;16m"
    assert change(bold, blue_on_black) == "\x1b[0;38;5;21;48;5;16m"  # bold off: a reset
    assert change(bold, PLAIN) == "\x1b[0m"


def test_a_frame_starts_with_a_reset_and_ends_plain() -> None:
    """Whatever the terminal was left with (a stray underline from before the session)
    never colours the frame: its first change of pen is a whole one."""
    console = Console(color_system="256", force_terminal=True, legacy_windows=False)
    writer = Writer(console)
    writer.piece(Strip([Segment("ab", Style(color="red")), Segment("cd")]), 0, 0, 0, 4)
    assert writer.finish() == "\x1b[1;1H\x1b[0;31mab\x1b[39mcd"  # plain at the end
    assert Writer(console).finish() == ""  # nothing to write


def test_a_line_of_runs_writes_each_code_once_and_moves_the_cursor_once() -> None:
    red, plain = Style(color="red", bgcolor="black"), Style(bgcolor="black", color="red")
    strip = Strip([Segment("ab", red), Segment("cd", plain), Segment("ef", Style(bold=True))])
    writer = Writer(Console(color_system="256", force_terminal=True, legacy_windows=False))
    writer.piece(strip.crop(0, 3), 4, 2, 4, 7)
    writer.piece(strip.crop(3), 7, 2, 7, 10)  # the next piece, where the cursor already is
    assert writer.finish() == "\x1b[3;5H\x1b[0;31;40mabcd\x1b[0;1mef" + RESET


def test_a_piece_is_cut_at_the_columns_asked_but_never_inside_a_wide_character() -> None:
    console = Console(color_system="256", force_terminal=True, legacy_windows=False)
    strip = Strip([Segment("abcdef"), Segment("宝石"), Segment("ghij")])  # 6 + 4 + 4 cells
    writer = Writer(console)
    writer.piece(strip, 10, 0, 13, 18)  # columns 13..17: "def", a wide run cut at 17
    assert writer.finish() == "\x1b[1;14H\x1b[0mdef宝石"
    writer = Writer(console)
    writer.piece(strip, 10, 0, 17, 22)  # starts inside the wide run: written whole, from 16
    assert writer.finish() == "\x1b[1;17H\x1b[0m宝石\x1b[1;21Hgh"  # and a move after the wide run


def test_an_emoji_is_never_cut_and_the_cursor_is_placed_again_after_one() -> None:
    """A skin-tone emoji or a heart with its variation selector takes as many cells as
    characters, yet cutting it would leave half of it; and terminals count such
    characters differently, so the next piece gets a cursor move of its own."""
    console = Console(color_system="256", force_terminal=True, legacy_windows=False)
    writer = Writer(console)
    writer.piece(Strip([Segment("ab👍🏽cd")]), 0, 0, 3, 6)  # from inside the emoji
    writer.piece(Strip([Segment("x❤️")]), 6, 0, 6, 9)
    writer.piece(Strip([Segment("YZ")]), 9, 0, 9, 11)  # just after the heart
    assert writer.finish() == "\x1b[1;1H\x1b[0mab👍🏽cd\x1b[1;7Hx❤️\x1b[1;10HYZ"


def test_a_control_segment_takes_no_column() -> None:
    console = Console(color_system="256", force_terminal=True, legacy_windows=False)
    hide = Segment("\x1b[?25l", None, [(ControlType.HIDE_CURSOR,)])
    writer = Writer(console)
    writer.piece(Strip([hide, Segment("abc")], 3), 0, 0, 1, 3)
    assert writer.finish() == "\x1b[?25l\x1b[1;2H\x1b[0mbc"
