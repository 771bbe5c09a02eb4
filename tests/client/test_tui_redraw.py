"""The table repaints only what changed, and a resize leaves no stale lines.

The server renders every session on one event loop, so how much of the screen a key
repaints is what makes it hold 50 players (README, Capacity). These tests watch the
regions the line-drawn widgets ask Textual to repaint, and the lines they render past
Textual's styles cache (`LineWidget.render_lines`) against the lines Textual renders.
"""

from __future__ import annotations

import random
from typing import Any

from clientkit import MakeOffline, find_position, go_to, load, screen_text, table, wait_for
from rich.segment import ControlType, Segment
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from rich.text import Text
from textual.app import App, ComposeResult
from textual.color import Color
from textual.filter import ANSIToTruecolor
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from client.widgets.lines import LineWidget, _all_rgb, strip
from shared.state import GameState

SIZE = (100, 30)  # wide cards, a blank line between the rows (client.layout)
ROW_TOP = {1: 3, 2: 7, 3: 11}  # first line of each card row (cursor rows 1-3): 2 lines of
# nobles, then a blank line before each row


def mid_game(state: GameState) -> bool:
    return state.turn >= 6 and state.current_player == 0


def watch(widget: Widget) -> list[Region]:
    """Record the regions `widget` asks to repaint from now on."""
    regions: list[Region] = []
    refresh = widget.refresh

    def recording(*args: Region, **kwargs: Any) -> Widget:
        regions.extend(args or [Region(0, 0, *widget.outer_size)])
        return refresh(*args, **kwargs)

    widget.refresh = recording  # type: ignore[method-assign]
    return regions


def lines(regions: list[Region]) -> set[int]:
    return {y for r in regions for y in range(r.y, r.y + r.height)}


async def test_a_cursor_move_repaints_only_the_card_rows_it_leaves_and_enters(
    offline: MakeOffline,
) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, mid_game))
        screen = table(app)
        await go_to(pilot, screen, (2, 2))  # level 2, the second card
        r = 2
        board, players, log = watch(screen.board), watch(screen.players), watch(screen.move_log)
        await pilot.press("l")  # along the row: only that row's three lines change
        await pilot.pause()
        assert lines(board) == set(range(ROW_TOP[r], ROW_TOP[r] + 3))
        board.clear()
        await pilot.press("down")  # to level 1: both rows change, nothing else
        await pilot.pause()
        assert lines(board) == set(range(ROW_TOP[2], ROW_TOP[2] + 3)) | set(
            range(ROW_TOP[3], ROW_TOP[3] + 3)
        )
        assert players == [] and log == []  # the players and the log stay as they are


async def test_picking_a_gem_repaints_the_bank_line_only(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, lambda s: mid_game(s) and s.bank[0] > 0))
        board = watch(table(app).board)
        await pilot.press("t", "w")
        await pilot.pause()
        assert lines(board) == {ROW_TOP[3] + 3 + 1}  # after level 1: a blank line, the bank
        assert "+1" in screen_text(app)


async def test_a_resize_there_and_back_draws_the_same_screen(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(3, mid_game))
        await pilot.press("right", "down")
        before = screen_text(app)
        for size in ((120, 40), (100, 30), (80, 24)):
            await pilot.resize_terminal(*size)
            await wait_for(pilot, lambda s=size: tuple(app.size) == s)
            await pilot.pause()
            text = screen_text(app)
            assert len(text.splitlines()) == size[1]
            assert ("╭" in text) == (size[1] >= 38)  # boxed cards only on tall terminals
        assert screen_text(app) == before


def crops(widget: Widget, rng: random.Random) -> list[Region]:
    """The whole widget, its last line and two beyond it, and pieces of it that start and
    end anywhere."""
    width, height = widget.region.size
    out = [Region(0, 0, width, height), Region(0, height - 1, width, 3)]  # past the bottom too
    for _ in range(6):
        x, y = rng.randrange(width), rng.randrange(height)
        out.append(Region(x, y, rng.randint(1, width - x), rng.randint(1, height - y)))
    return out


def textuals_lines(widget: Widget, crop: Region) -> list[Strip]:
    """What Textual's own rendering gives, through its styles cache emptied first."""
    widget._styles_cache.clear()
    return Widget.render_lines(widget, crop)


def check_lines(app: App[Any], rng: random.Random) -> int:
    """Every line widget on the screen renders what Textual would; how many were checked."""
    checked = 0
    for widget in app.screen.query(LineWidget):
        if widget.region.area:
            for crop in crops(widget, rng):
                assert widget.render_lines(crop) == textuals_lines(widget, crop), (widget, crop)
            checked += 1
    return checked


async def test_the_tables_lines_past_the_styles_cache_are_textuals_own(
    offline: MakeOffline,
) -> None:
    kit = await offline()
    app = kit.app
    rng = random.Random(7)
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(3, mid_game))
        screen = table(app)
        assert all(w._plain() for w in app.screen.query(LineWidget))  # the fast path is taken
        assert app.get_line_filters()  # and the colour filter with it
        for keys in ((), ("l", "down"), ("t", "w", "u"), ("escape", "tab", "j"), ("tab", "k")):
            await pilot.press(*keys)
            await pilot.pause()
            assert check_lines(app, rng) >= 5  # board, players, moves, status, prompt, keys
        await pilot.resize_terminal(84, 26)
        await wait_for(pilot, lambda: tuple(app.size) == (84, 26))
        await pilot.pause()
        assert check_lines(app, rng) >= 5
        assert screen.board.render_lines(Region(0, 0, 1, 1))  # a corner alone


class Lines(LineWidget):
    """Lines of wide and narrow characters in colours (some the terminal's own, which
    Textual's filter turns into true colours), one line fewer than its height."""

    DEFAULT_CSS = "Lines { height: 6; background: #24304a; }"

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.word = "first"

    def draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        lines = []
        for y in range(height - 1):
            text = Text(f"{self.word} {y} ", style="bold #ffd23f")
            text.append("é✓漢" * y, style="dim red" if y % 2 else "blue")  # ANSI colours: filtered
            lines.append(strip(text, width, None if y == 1 else base))  # line 1: no background
        return lines


class Boxes(App[None]):
    CSS = """
    #boxed { border: round red; padding: 0 1; }
    #tinted { tint: blue 30%; }
    #faded { opacity: 0.5; }
    #thin { text-opacity: 0.5; }
    """

    def compose(self) -> ComposeResult:
        for name in ("plain", "boxed", "tinted", "faded", "thin"):
            yield Lines(id=name)


async def test_a_styled_line_widget_is_rendered_by_textual_and_a_plain_one_past_it() -> None:
    app = Boxes()
    rng = random.Random(3)
    async with app.run_test(size=(40, 32)) as pilot:
        for widget in app.query(Lines):
            widget.redraw()
        await pilot.pause()
        plain = {w.id for w in app.query(LineWidget) if w._plain()}
        assert plain == {"plain"}
        assert check_lines(app, rng) == 5
        # the same lines on a new background are filtered anew (a dim colour is mixed
        # with the background it lies on)
        app.query_one("#plain").styles.background = "#402020"
        await pilot.pause()
        assert check_lines(app, rng) == 5
        # a plain widget given a border and back, drawn anew in between: no stale line
        widget = app.query_one("#plain", Lines)
        steps = ((("round", "green"), "second"), (None, "third"), (("ascii", "red"), "fourth"))
        for border, word in steps:
            widget.styles.border = border
            widget.word = word
            widget.redraw()
            await pilot.pause()
            assert widget._plain() == (border is None)
            assert check_lines(app, rng) == 5
            second = widget.render_lines(Region(0, 0, *widget.region.size))[1]
            assert word in "".join(segment.text for segment in second)


def test_a_line_the_colour_filter_would_leave_as_it_is_is_told_apart() -> None:
    """The RGB shortcut (`_all_rgb`) says a line is unchanged exactly when Textual's
    `ANSIToTruecolor` gives it back unchanged: palette colours, either side, dim
    coloured text and control codes are changed; RGB colours, no style and dim without a
    colour are not."""
    styles = [
        None,
        Style(),
        Style(bold=True),
        Style(color="#102030"),
        Style(color="#102030", bgcolor="#405060", bold=True),
        Style(bgcolor="#405060", dim=True),  # dim, no colour to blend
        Style(color="red"),
        Style(color="color(200)"),
        Style(bgcolor="blue"),
        Style(color="#102030", bgcolor="green"),
        Style(color="#102030", dim=True),
        Style(color="default"),
    ]
    bell = Segment("", None, [(ControlType.BELL,)])  # the filter drops control codes
    ansi = ANSIToTruecolor(DEFAULT_TERMINAL_THEME)
    outcomes = set()
    for first in styles:
        for second in styles:
            for extra in ([], [bell]):
                line = Strip([Segment("ab", first), Segment("c", second), *extra])
                unchanged = ansi.apply(list(line), Color(10, 20, 30)) == list(line)
                assert _all_rgb(line) == unchanged, (first, second, extra)
                outcomes.add(unchanged)
    assert outcomes == {True, False}
