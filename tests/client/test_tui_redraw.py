"""The table repaints only what changed, and a resize leaves no stale lines.

The server renders every session on one event loop, so how much of the screen a key
repaints is what makes it hold 50 players (README, Capacity). These tests watch the
regions the line-drawn widgets ask Textual to repaint.
"""

from __future__ import annotations

from typing import Any

from clientkit import MakeOffline, find_position, go_to, load, screen_text, table, wait_for
from textual.geometry import Region
from textual.widget import Widget

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
