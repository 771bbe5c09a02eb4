"""A longer game in the app (issue 32): the dialogs and `splendor play` choose the target of
R15, the lobby lists it, and the table, its results and the help's rules name it."""

from __future__ import annotations

from dataclasses import replace

from clientkit import (
    FakeConnection,
    MakeOffline,
    screen_text,
    table,
    wait_for,
)

from client.app import SplendorApp
from client.screens.help import HelpScreen
from client.screens.lobby import LobbyScreen
from client.screens.results import end_note
from client.screens.setup import GameSetup, SetupScreen
from client.screens.table import TableScreen
from server.commands.play import parse_args, setup_from
from shared import GameSettings, Outcome, new_game
from shared.protocol import (
    Create,
    LobbyList,
    Quick,
    SeatSummary,
    TableStatus,
    TableSummary,
    TableUpdate,
    Welcome,
    encode,
)

LONG = GameSettings(2, target=21)
SEATS = (SeatSummary("Ann"), SeatSummary(None, bot="easy"))


async def test_the_dialogs_create_a_table_to_21() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)

    async def dialog(key: str, first: str, downs: int) -> None:
        await pilot.press(key)
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == first)
        for k in (*["down"] * downs, "right", "enter"):
            await pilot.press(k)
            await pilot.pause()  # the focus moves after the key

    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(LobbyList()))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        # seats, seat 2, clock, patience, rated, play to: 21
        await dialog("c", "seats", 5)
        assert conn.sent[-1] == Create(2, (None, None), rated=True, target=21)
        await dialog("g", "players", 4)  # players, bots, clock, rated, play to: 21
        assert conn.sent[-1] == Quick(2, "medium", rated=True, target=21)


async def test_the_lobby_lists_a_tables_target_when_it_is_not_15() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    long = TableSummary("t1", "Ann", TableStatus.WAITING, SEATS, target=21)
    usual = TableSummary("t2", "Bob", TableStatus.PLAYING, (SeatSummary("Bob"), SEATS[1]), 4)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(LobbyList((long, usual), ("Ann", "Bob"), ("t1",))))
        await wait_for(pilot, lambda: "Your table t1" in screen_text(app))
        lines = screen_text(app).splitlines()
        assert "casual 21" in next(line for line in lines if " t1 " in line)
        assert "21" not in next(line for line in lines if " t2 " in line)
        assert "Your table t1 (waiting, to 21)" in screen_text(app)


async def test_the_table_its_results_and_the_rules_name_the_target() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(100, 40)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(LobbyList()))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        conn.deliver(encode(TableUpdate("t1", SEATS, 0, new_game(LONG, 4).view(0))))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert "◆ Splendor to 21 · round 1" in screen_text(app).splitlines()[0]
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        for _ in range(2):  # the keys of the moment, how to read the table, the rules
            await pilot.press("tab")
        await pilot.pause()
        text = screen_text(app)
        assert "Reaching 21 at the end of your turn" in " ".join(text.split())
        assert "In the rules it is 15" in " ".join(text.split())
        await pilot.press("escape")
        conn.deliver(encode(TableUpdate("t1", SEATS, 0, new_game(GameSettings(2), 4).view(0))))
        await wait_for(pilot, lambda: "to 21" not in screen_text(app).splitlines()[0])
        assert "◆ Splendor round 1" in screen_text(app).splitlines()[0]


def test_the_end_note_names_the_games_target() -> None:
    names = ["Ann", "Bob"]
    over = replace(new_game(LONG, 2).view(None), is_over=True, final_round=True)
    reached = replace(over, outcome=Outcome(scores=(22, 16), ranks=(1, 2)))
    assert end_note(reached, names).startswith("Ann reached 21 prestige")
    passed = replace(over, final_round=False, outcome=Outcome(scores=(16, 9), ranks=(1, 2)))
    assert "(R18)" in end_note(passed, names)  # 16 is not the target of this game
    usual = replace(passed, target=15, final_round=True)
    assert end_note(usual, names).startswith("Ann reached 15 prestige")


def test_splendor_play_takes_a_target() -> None:
    assert setup_from(parse_args(["play", "--target", "21"])) == GameSetup(target=21)
    assert setup_from(parse_args(["play", "--seed", "3"])) == GameSetup(seed=3, target=15)


async def test_an_offline_game_to_21_from_the_setup_screen(offline: MakeOffline) -> None:
    kit = await offline()
    app = kit.app
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.press("down", "down", "down", "right", "enter")  # bot, seed, play to: 21
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert kit.state is not None and kit.state.target == 21
        await wait_for(pilot, lambda: table(app).view is not None)
        assert "to 21" in screen_text(app).splitlines()[0]
