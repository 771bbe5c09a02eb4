"""The app around the table: setup, help, quitting, the results and a new game, the CLI."""

from __future__ import annotations

import dataclasses

import pytest
from clientkit import (
    MakeOffline,
    find_position,
    finish,
    help_text,
    load,
    play_to_end,
    prompt,
    screen_text,
    table,
    wait_for,
)

from client.app import SplendorApp
from client.screens.help import HelpScreen
from client.screens.results import tie_notes
from client.screens.setup import GameSetup, SetupScreen
from client.screens.table import TableScreen
from server.commands.play import parse_args, player_name, setup_from
from shared.state import Outcome


async def test_setup_screen_starts_a_local_game_with_the_chosen_seed(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        # 3 players; seat 2 medium -> hard; the seed field; 42; Enter.
        await pilot.press("right", "down", "right", "down", "down", *"42")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert kit.table is not None and kit.state is not None and kit.state.seed == 42
        assert [s.bot for s in kit.table.seats] == [None, "hard", "medium"]
        assert table(app).view is not None and table(app).view.num_players == 3  # type: ignore[union-attr]


async def test_escape_on_the_setup_screen_quits(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.return_code is not None)


async def test_help_lists_the_rules_and_every_table_key(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(100, 40)) as pilot:
        await load(pilot, kit, find_position(2, lambda s: s.turn <= 2))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = help_text(app)
        for rule in ("R7", "R8", "R9", "R10", "R13", "R14", "R15", "R17", "R18"):
            assert rule in text
        for binding in TableScreen.BINDINGS:
            assert binding.tooltip or binding.description or binding.key == "k"  # type: ignore[union-attr]
        assert "Pick a white gem" in text and "Type a move" in text and "Cursor up" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))


async def test_q_in_a_game_asks_first(offline: MakeOffline) -> None:
    """The question is asked on the prompt line: the table stays in view (issue 13)."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await load(pilot, kit, find_position(2, lambda s: s.turn <= 2))
        await pilot.press("q")
        assert table(app).quitting and "Leave this game and quit?" in prompt(app)
        assert "local game ends" in screen_text(app) and "Bank" in screen_text(app)
        assert "y Yes, leave" in screen_text(app)  # the key line says how to answer
        await pilot.press("n")
        assert isinstance(app.screen, TableScreen) and app.return_code is None
        assert not table(app).quitting and "Buy" in screen_text(app)
        await pilot.press("ctrl+c")
        assert table(app).quitting
        await pilot.press("y")
        await wait_for(pilot, lambda: app.return_code is not None)


def over(app: SplendorApp) -> bool:
    main = app.main_screen
    return isinstance(main, TableScreen) and main.view is not None and main.view.is_over


async def test_results_then_a_new_game_goes_back_to_setup(offline: MakeOffline) -> None:
    """The results show on the table itself (issue 13): the final board, each player's
    rank and points from cards and nobles, the winning move, the seed; the cursor can
    still look at everything; Enter starts a new game."""
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await finish(pilot, kit, 2, 0)
        await wait_for(pilot, lambda: over(app))
        screen = table(app)
        view = screen.view
        assert view is not None and view.outcome is not None
        text = screen_text(app)
        assert "Game over" in text and f"seed {kit.state.seed}" in text  # type: ignore[union-attr]
        assert "Winning move:" in prompt(app) and "Bank" in text  # the final table, in view
        for p in view.players:  # each player's rank, and points from cards and nobles (R16)
            nobles = 3 * len(p.nobles)
            assert f"{view.outcome.ranks[p.seat]}." in text
            assert f"cards {p.prestige - nobles}★" in text and f"{nobles}★" in text
        assert "⏎ New game" in text and "Buy" not in text  # the keys of the moment
        await pilot.press("tab", "down")  # the cursor still looks at the players
        assert screen.look.area == "players"
        await pilot.press("escape")  # back to the board, still at the table
        assert isinstance(app.screen, TableScreen) and screen.look.area == "board"
        await pilot.press("enter")  # a new game
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert kit.table is None  # the host was told to leave the table


def test_r17_tie_notes_say_how_ties_were_broken() -> None:
    view = play_to_end(3, 5).state.view(0)
    names = ["Ann", "Bob", "Cy"]
    players = list(view.players)
    players[0] = dataclasses.replace(players[0], bought=players[1].bought[:3])
    players[1] = dataclasses.replace(players[1], bought=players[1].bought[:5])
    players[2] = dataclasses.replace(players[2], bought=players[1].bought[:5])
    tied = dataclasses.replace(
        view, players=tuple(players), outcome=Outcome(scores=(16, 16, 12), ranks=(1, 2, 3))
    )
    assert tie_notes(tied, names) == [
        "Ann and Bob tie on 16 prestige: fewer cards bought ranks higher (Ann 3, Bob 5) (R17)."
    ]
    shared_rank = dataclasses.replace(tied, outcome=Outcome(scores=(12, 16, 16), ranks=(3, 1, 1)))
    assert tie_notes(shared_rank, names) == [
        "Bob and Cy tie on 16 prestige and 5 cards bought: they share rank 1 (R17)."
    ]


def test_cli_options_make_a_setup() -> None:
    assert setup_from(parse_args(["play"])) is None
    assert setup_from(parse_args(["play", "--seed", "3"])) == GameSetup(2, ("medium",), 3)
    setup = setup_from(parse_args(["play", "--players", "4", "--bots", "easy,hard"]))
    assert setup == GameSetup(4, ("easy", "hard", "hard"), None)
    assert setup_from(parse_args(["play", "--bots", "easy,easy"])) == GameSetup(3, ("easy", "easy"))
    with pytest.raises(ValueError):
        setup_from(parse_args(["play", "--players", "2", "--bots", "easy,hard"]))
    with pytest.raises(ValueError):
        setup_from(parse_args(["play", "--bots", "genius"]))
    with pytest.raises(ValueError, match="a seed is an integer"):
        setup_from(parse_args(["play", "--seed", str(1 << 63)]))  # a 64-bit signed integer
    assert player_name("  Ann   Lee ") == "Ann Lee"
    for bad in ("", "   ", "x" * 21, "bell\x07"):
        with pytest.raises(ValueError):
            player_name(bad)


def test_nothing_in_the_app_is_unsafe_on_a_server() -> None:
    """docs/design.md, P10 and P15: no command palette (it writes files), no suspend key,
    no print."""
    import pathlib

    from client.app import SplendorApp
    from client.screens.lobby import LobbyScreen

    assert SplendorApp.ENABLE_COMMAND_PALETTE is False
    for owner in (SplendorApp, TableScreen, LobbyScreen, HelpScreen, SetupScreen):
        for binding in owner.BINDINGS:
            keys = binding.key.split(",")  # type: ignore[union-attr]
            assert "ctrl+z" not in keys and "suspend" not in binding.action  # type: ignore[union-attr]
    root = pathlib.Path(__file__).parents[2] / "client"
    for path in root.rglob("*.py"):
        assert "print(" not in path.read_text(), path
