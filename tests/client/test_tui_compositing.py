"""The server's compositor (server/front/compositing.py, docs/design.md P17) and its frames
(server/front/frames.py, P18) show what Textual's own show; the compositor renders only the
widgets an update shows, and a frame writes only the cells that changed.

The same game is played twice by keys, once on each compositor alone, every frame
written to a terminal emulator: cursor moves over the board, the players and the moves,
gems picked and put back, a dialog over the table, a resize, moves played and the bots'
answers. The two terminals must hold the same cells (characters and their colours and
attributes) after every step. An app of layers, clips, dialogs and wide characters does
the same under random changes, where a change starts and ends inside the pieces of a
line, in 24-bit and in 256 colours.

Importing `server.front.compositing` and `server.front.frames` installs them for the whole test
process, as the server's driver does (`server.front.tui_driver` imports them): other client
tests in the same worker may then draw with them too. `textuals_own` puts Textual's
functions back for a while.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, Literal

import pyte
import pytest
from clientkit import (
    MakeOffline,
    Offline,
    find_position,
    frame_display,
    load,
    my_turn,
    sensible,
    wait_for,
)
from rich.color import ColorSystem
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import OptionList, Static

from client.widgets.board import Board
from client.widgets.lines import LineWidget
from server.front import compositing, frames
from shared.state import GameState

SIZE = (110, 36)


_render_style = Strip.render_style.__func__  # type: ignore[attr-defined]


def _without_the_leak(cls: type[Strip], style: Style, text: str, color_system: ColorSystem) -> str:
    """Textual's `Strip.render_style`, told to forget the codes it kept in the style for
    whichever colour system came first (the leak server/front/frames.py mends, P18)."""
    style._ansi = None
    return str(_render_style(cls, style, text, color_system))


@contextmanager
def textuals_own() -> Iterator[None]:
    """Textual's compositor functions, as they are without the server's, and Textual's
    own writing of a frame (its codes worked out for the colour system asked)."""
    ours = Compositor.render_partial_update, Compositor._render_chops
    written = ChopsUpdate.render_segments, LayoutUpdate.render_segments
    render_style = Strip.__dict__["render_style"]
    Strip.render_style = classmethod(_without_the_leak)  # type: ignore[method-assign, assignment]
    Compositor.render_partial_update = compositing._textual_partial_update  # type: ignore[method-assign]
    Compositor._render_chops = compositing._textual_render_chops  # type: ignore[method-assign]
    ChopsUpdate.render_segments = frames._textual_chops  # type: ignore[method-assign]
    LayoutUpdate.render_segments = frames._textual_layout  # type: ignore[method-assign]
    try:
        yield
    finally:
        Compositor.render_partial_update, Compositor._render_chops = ours  # type: ignore[method-assign]
        ChopsUpdate.render_segments, LayoutUpdate.render_segments = written  # type: ignore[method-assign]
        Strip.render_style = render_style  # type: ignore[method-assign]


def mid_game(state: GameState) -> bool:
    return state.turn >= 9 and state.current_player == 0


Cells = list[list[Any]]


class Emulator:
    """A terminal emulator fed every frame the app under test sends (one app at a time)."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        width: int,
        height: int,
        colours: Literal["truecolor", "256"] = "truecolor",
    ) -> None:
        self.term = pyte.Screen(width, height)
        self.frames: list[str] = []
        stream = pyte.ByteStream(self.term)

        def sent(frame: str) -> None:
            self.frames.append(frame)
            stream.feed(frame.encode())

        monkeypatch.setattr(App, "_display", frame_display(colours, sent))

    def cells(self) -> Cells:
        """Every cell: its character, colours and attributes."""
        rows = [self.term.buffer[y] for y in range(self.term.lines)]
        return [[row[x] for x in range(self.term.columns)] for row in rows]


Steps = list[tuple[str, Cells]]


async def on_both(
    run: Callable[[pytest.MonkeyPatch], Awaitable[Steps]], monkeypatch: pytest.MonkeyPatch
) -> Steps:
    """`run` on the server's compositor, then on Textual's alone: the same cells after
    every step. The server's steps."""
    with monkeypatch.context() as patched:
        ours = await run(patched)
    with monkeypatch.context() as patched, textuals_own():
        theirs = await run(patched)
    assert [label for label, _ in ours] == [label for label, _ in theirs]
    for (label, mine), (_, textuals) in zip(ours, theirs, strict=True):
        differ = [y for y, (a, b) in enumerate(zip(mine, textuals, strict=True)) if a != b]
        assert not differ, f"after {label}, lines {differ} differ"
    return ours


async def played(kit: Offline, monkeypatch: pytest.MonkeyPatch) -> Steps:
    """A scripted game on `kit`; the emulator's cells after each step."""
    emulator = Emulator(monkeypatch, *SIZE)
    steps: Steps = []
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:

        async def step(label: str, *keys: str, then: Callable[[], Any] | None = None) -> None:
            await pilot.press(*keys)
            if then is not None:
                await then()
            await pilot.pause()
            await pilot.pause()
            steps.append((label, emulator.cells()))

        await load(pilot, kit, find_position(3, mid_game))
        for turn in range(4):
            await wait_for(pilot, lambda: my_turn(app))
            for key in (*"lljjhkk", "tab", "j", "l", "tab", "k", "tab", "t", "w", "u"):
                await step(f"{turn} {key}", key)
            await step(f"{turn} put back", "backspace", "escape")
            if turn == 1:
                await step(f"{turn} help", "question_mark")
                await step(f"{turn} help closed", "escape")
            if turn == 2:
                emulator.term.resize(26, 84)
                await pilot.resize_terminal(84, 26)
                await step(f"{turn} resized")
            state = kit.state
            assert state is not None
            move = str(sensible(state, random.Random(turn)))

            async def answered(t: int = turn) -> None:
                await wait_for(pilot, lambda: len(kit.moves) > t * 3)

            await step(f"{turn} {move}", "colon", *move, "enter", then=answered)
    return steps


async def test_a_game_shows_the_same_on_both_compositors(
    offline: MakeOffline, monkeypatch: pytest.MonkeyPatch
) -> None:

    async def run(patched: pytest.MonkeyPatch) -> Steps:
        return await played(await offline(), patched)

    ours = await on_both(run, monkeypatch)
    assert len(ours) > 60
    last = ["".join(cell.data for cell in row) for row in ours[-1][1]]
    assert any(line.startswith("Bank") for line in last), last  # the frames reached the screen


async def test_a_cursor_key_renders_the_board_and_the_prompt_line_alone(
    offline: MakeOffline, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[Widget] = []
    for cls in (Widget, LineWidget):  # the table's widgets render past Textual's styles cache
        monkeypatch.setattr(cls, "render_lines", recording(cls.render_lines, rendered))
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, mid_game))
        shown = {}
        for key, own in (("l", False), ("h", True), ("l", False)):
            with textuals_own() if own else nullcontext():
                await pilot.pause()
                rendered.clear()
                await pilot.press(key)
                await pilot.pause()
                shown[own] = {type(w).__name__ for w in rendered}
        assert shown[False] == {"Board", "PromptLine"}
        # Textual's own renders the players, the moves and the containers behind them too
        assert {"Players", "MoveLog", "Horizontal"} <= shown[True], shown[True]


def recording(
    render_lines: Callable[[Widget, Region], list[Strip]], rendered: list[Widget]
) -> Callable[[Widget, Region], list[Strip]]:
    def record(widget: Widget, crop: Region) -> list[Strip]:
        rendered.append(widget)
        return render_lines(widget, crop)

    return record


class Short(Static):
    """A widget that gives fewer lines than it is asked for (Textual leaves the rest)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        return super().render_lines(crop)[:1]


class Dialog(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a dialog", id="said")


class Layers(App[None]):
    """Widgets over widgets, where changes start and end inside the pieces of a line: a
    row of bordered, padded, tinted boxes; a scrolled column of bordered lines; a
    translucent overlay that moves about (partly off the screen too); a list on a layer
    of its own; a widget short of lines; a dialog with a translucent background over it
    all."""

    CSS = """
    Screen { layers: base over; }
    .box { border: heavy green; padding: 1 2; width: 1fr; height: 7; tint: red 20%; }
    #column { height: 9; border: solid yellow; }
    #column Static { height: 3; border: ascii white; width: 60; }
    #overlay { layer: over; width: 18; height: 5; border: round red; background: $panel 50%; }
    #list { layer: over; width: 14; height: 5; offset: 2 14; }
    Short { height: 3; }
    Dialog { background: #00000080; align: center middle; }
    Dialog > Static { width: 28; height: 5; border: double cyan; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            for i in range(3):
                yield Static(f"box {i}", classes="box", id=f"box{i}")
        with VerticalScroll(id="column"):
            for i in range(10):
                yield Static(f"line {i}", id=f"line{i}")
        yield Static("over", id="overlay")
        yield OptionList(*[f"option {i}" for i in range(6)], id="list")
        yield Short("short\nof\nlines", id="short")

    def change(self, rng: random.Random) -> str:
        """One random change; what it was."""
        base = self.screen_stack[0]
        n = rng.randrange(1000)
        match rng.randrange(7):
            case 0:
                base.query_one(f"#box{n % 3}", Static).update(f"box {n}")
                return "box"
            case 1:
                word = "宝石" if n % 3 else f"line {n}"  # wide characters too
                base.query_one(f"#line{n % 10}", Static).update(f"{word} " * (1 + n % 7))
                return "line"
            case 2:
                base.query_one("#column").scroll_to(x=n % 20, y=n % 30, animate=False)
                return "scroll"
            case 3:
                base.query_one("#overlay").styles.offset = (n % 70 - 5, n % 25 - 2)
                return "overlay moved"
            case 4:
                options = base.query_one("#list", OptionList)
                if n % 2:
                    options.add_option(f"new {n}")
                options.highlighted = n % options.option_count
                return "list"
            case 5:
                if isinstance(self.screen, Dialog) and (n % 2 or len(self.screen_stack) > 2):
                    self.pop_screen()
                    return "dialog closed"
                self.push_screen(Dialog())
                return "dialog"
            case _:
                if isinstance(self.screen, Dialog):
                    self.screen.query_one("#said", Static).update(f"said {n}")
                base.query_one("#overlay", Static).update(f"over {n}")
                base.query_one("#short", Short).update(f"short {n}\nof\nlines")
                return "texts"


async def changed(
    seed: int, colours: Literal["truecolor", "256"], monkeypatch: pytest.MonkeyPatch
) -> Steps:
    emulator = Emulator(monkeypatch, 70, 24, colours)
    app = Layers()
    rng = random.Random(seed)
    steps = []
    async with app.run_test(size=(70, 24)) as pilot:
        for i in range(40):
            what = app.change(rng)
            for _ in range(3):
                await pilot.pause()
            steps.append((f"{i}: {what}", emulator.cells()))
    return steps


@pytest.mark.parametrize(("seed", "colours"), [(1, "truecolor"), (2, "256")])
async def test_layers_clips_and_dialogs_show_the_same_on_both_compositors(
    seed: int, colours: Literal["truecolor", "256"], monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = await on_both(lambda patched: changed(seed, colours, patched), monkeypatch)
    assert {what.split(": ")[1] for what, _ in ours} >= {"overlay moved", "dialog", "scroll"}


def written(frame: str, width: int, height: int) -> set[tuple[int, int]]:
    """The cells `frame` writes: (line, column)."""
    term = pyte.Screen(width, height)
    for y in range(height):
        row = term.buffer[y]
        for x in range(width):
            row[x] = row[x]._replace(data="\x7f")
    pyte.Stream(term).feed(frame)
    return {(y, x) for y in range(height) for x in range(width) if term.buffer[y][x].data != "\x7f"}


async def test_a_cursor_key_writes_the_cards_it_changes_and_no_more_of_the_board(
    offline: MakeOffline, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P18: a cursor key sends the cells of the cards whose marker moved, not the board's
    whole lines (Textual's own rewrites every line of the row from its first column)."""
    emulator = Emulator(monkeypatch, *SIZE)
    kit = await offline()
    app = kit.app
    async with app.run_test(size=SIZE) as pilot:
        await load(pilot, kit, find_position(2, mid_game))
        await pilot.pause()
        board = app.screen.query_one(Board)
        lines = range(board.region.y, board.region.bottom)
        slack = board.geometry.card + board.geometry.gap  # a card and the gap beside it
        for key in "lljhk":
            before, sent = emulator.cells(), len(emulator.frames)
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            after = emulator.cells()
            cells = written("".join(emulator.frames[sent:]), *SIZE)
            for y in lines:
                changed = [x for x in range(SIZE[0]) if before[y][x] != after[y][x]]
                sent_here = sorted(x for line, x in cells if line == y)
                if not changed:
                    assert not sent_here, f"{key}: line {y} unchanged but written"
                    continue
                assert changed[0] - slack <= sent_here[0], (key, y, changed, sent_here)
                assert sent_here[-1] <= changed[-1] + slack, (key, y, changed, sent_here)
            assert any(y in lines for y, _ in cells), key  # the marker moved on the board
