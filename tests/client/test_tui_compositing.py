"""The server's compositor (server/compositing.py, docs/design.md P17) sends the frames
Textual's own sends, and renders only the widgets an update shows.

Every frame of a game played by keys (cursor moves over the board, the players and the
moves, gems picked and put back, moves played and the bots' answers, a dialog over the
table, resizes) is rendered both ways and compared.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import pytest
from clientkit import MakeOffline, find_position, load, my_turn, sensible, wait_for
from rich.console import Console
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from server import compositing
from shared.state import GameState

# Textual moves the cursor to a piece of a line that starts where a change ends, and then
# writes nothing there; the server's compositor leaves that piece out. A move followed by
# another move (or a line's end) paints nothing, so it is not part of what is seen.
IDLE_MOVE = re.compile(r"\x1b\[\d+;\d+H(?=\x1b\[\d+;\d+H|\n|$)")


def seen(update: ChopsUpdate | LayoutUpdate | None, console: Console) -> str | None:
    return None if update is None else IDLE_MOVE.sub("", update.render_segments(console))


@contextmanager
def textuals_own() -> Iterator[None]:
    """Textual's compositor functions, as they are without the server's."""
    ours = Compositor.render_partial_update, Compositor._render_chops
    Compositor.render_partial_update = compositing._textual_partial_update  # type: ignore[method-assign]
    Compositor._render_chops = compositing._textual_render_chops  # type: ignore[method-assign]
    try:
        yield
    finally:
        Compositor.render_partial_update, Compositor._render_chops = ours  # type: ignore[method-assign]


class BothWays:
    """Installed over the compositor: every update rendered by Textual's functions and by
    the server's, from the same changes; the server's is the one shown. Both are written
    by the app's own console (a strip keeps what it wrote the first time)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, console: Console) -> None:
        self.console = console
        self.partial = self.full = 0
        self.differ: list[tuple[str | None, str | None]] = []
        ours_partial, full = Compositor.render_partial_update, Compositor.render_full_update

        def partial(compositor: Compositor) -> ChopsUpdate | None:
            changes = set(compositor._dirty_regions)
            with textuals_own():
                theirs = compositor.render_partial_update()
            compositor._dirty_regions.update(changes)
            ours = ours_partial(compositor)
            self._compare(theirs, ours)
            self.partial += 1
            return ours

        def whole(compositor: Compositor, simplify: bool = False) -> LayoutUpdate:
            with textuals_own():
                theirs = full(compositor, simplify)
            ours = full(compositor, simplify)
            self._compare(theirs, ours)
            self.full += 1
            return ours

        monkeypatch.setattr(Compositor, "render_partial_update", partial)
        monkeypatch.setattr(Compositor, "render_full_update", whole)

    def _compare(self, theirs: Any, ours: Any) -> None:
        theirs, ours = seen(theirs, self.console), seen(ours, self.console)
        if theirs != ours:
            self.differ.append((theirs, ours))


def mid_game(state: GameState) -> bool:
    return state.turn >= 9 and state.current_player == 0


async def test_every_frame_of_a_game_is_the_frame_textual_draws(
    offline: MakeOffline, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit = await offline()
    app = kit.app
    both = BothWays(monkeypatch, app.console)
    async with app.run_test(size=(110, 36)) as pilot:
        await load(pilot, kit, find_position(3, mid_game))
        for turn in range(4):
            await wait_for(pilot, lambda: my_turn(app))
            await pilot.press(*"lljjhkk", "tab", "j", "l", "tab", "k", "tab")
            await pilot.press("t", "w", "u", "backspace", "escape")
            if turn == 1:
                await pilot.press("question_mark")
                await pilot.pause()
                await pilot.press("escape")
            if turn == 2:
                await pilot.resize_terminal(84, 26)
            state = kit.state
            assert state is not None
            await pilot.press("colon", *str(sensible(state, random.Random(turn))), "enter")
            await wait_for(pilot, lambda t=turn: len(kit.moves) > t * 3)
            await pilot.pause()
    assert both.partial > 50 and both.full > 1, (both.partial, both.full)
    assert both.differ == []


async def test_a_cursor_key_renders_the_board_and_the_prompt_line_alone(
    offline: MakeOffline, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[Widget] = []
    render_lines = Widget.render_lines

    def recording(widget: Widget, crop: Region) -> list[Strip]:
        rendered.append(widget)
        return render_lines(widget, crop)

    monkeypatch.setattr(Widget, "render_lines", recording)
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(110, 36)) as pilot:
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
