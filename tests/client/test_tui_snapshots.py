"""Snapshots of the table at 80x24 and 120x40, the return dialog, help and results.

Positions come from seeded playouts of the engine with the host's fallback bot
(`server.bots.fallback_move`), so they do not depend on `shared.bots`.
SNAPSHOT_UPDATE=1 rewrites them.
"""

from __future__ import annotations

from clientkit import (
    MakeOffline,
    check_snapshot,
    find_position,
    finish,
    load,
    sensible,
    take_into_returns,
    wait_for,
)

from client.screens.help import HelpScreen
from client.screens.results import ResultsScreen
from shared.state import GameState


def mid_game(state: GameState) -> bool:
    return (
        4 * 4 <= state.turn <= 4 * 10 and len(state.reserved[0]) >= 1 and sum(state.tokens[0]) >= 4
    )


async def test_snapshot_table_80x24(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, mid_game, policy=sensible))
        check_snapshot(app, "table_80x24")


async def test_snapshot_table_120x40_four_players(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(120, 40)) as pilot:
        await load(pilot, kit, find_position(4, mid_game, policy=sensible))
        await pilot.press("t", "w")  # picking gems shows in the bank and the prompt
        check_snapshot(app, "table_120x40")


async def test_snapshot_return_dialog(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await take_into_returns(pilot, kit)
        most = max(range(5), key=lambda c: dialog.tokens[c])
        await pilot.press("wugrk"[most])
        check_snapshot(app, "return_dialog")


async def test_snapshot_help(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, lambda s: s.turn <= 2))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        check_snapshot(app, "help")


async def test_snapshot_results(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await finish(pilot, kit, 3, 1)
        await wait_for(pilot, lambda: isinstance(app.screen, ResultsScreen))
        check_snapshot(app, "results")
