"""The lobby: fake host messages through a Connection; the screen and the commands sent."""

from __future__ import annotations

from typing import Any

from clientkit import FakeConnection, prompt, screen_text, wait_for

from client.app import SplendorApp
from client.screens.lobby import LobbyScreen
from client.screens.lobby_dialogs import CreateTableDialog, QuickGameDialog
from client.screens.table import TableScreen
from shared.codec import dumps, loads
from shared.deal import new_game, replay, turns
from shared.protocol import (
    PROTOCOL_VERSION,
    Create,
    Join,
    Leave,
    LobbyList,
    LoggedTurn,
    Quick,
    SeatSummary,
    Start,
    TableStatus,
    TableSummary,
    TableUpdate,
    Watch,
    Welcome,
    Where,
    encode,
)
from shared.settings import GameSettings


def lobby(
    *tables: TableSummary,
    online: tuple[str, ...] = ("Ann", "Bob", "Cy"),
    mine: tuple[str, ...] = (),
) -> bytes:
    return encode(LobbyList(tables, online, mine))


WAITING = TableSummary(
    "t1",
    "Bob",
    TableStatus.WAITING,
    (SeatSummary("Bob"), SeatSummary(None), SeatSummary(None, bot="easy")),
)
PLAYING = TableSummary(
    "t2", "Cy", TableStatus.PLAYING, (SeatSummary("Cy"), SeatSummary(None, bot="hard")), turn=12
)


async def test_the_selection_stays_on_its_table_as_the_list_changes() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(100, 12)) as pilot:  # room for 5 tables of 30
        conn.deliver(encode(Welcome("Ann", guest=True)))
        conn.deliver(lobby(WAITING, PLAYING))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        await pilot.press("down")
        assert screen.selected_id() == "t2"
        more = [
            TableSummary(
                f"n{i:02}", "Dee", TableStatus.WAITING, (SeatSummary("Dee"), SeatSummary())
            )
            for i in range(28)
        ]
        conn.deliver(lobby(*more[:3], WAITING, PLAYING, *more[3:]))  # new tables around it
        await pilot.pause()
        assert screen.selected_id() == "t2"
        await pilot.press("end")
        await pilot.pause()
        assert screen.selected_id() == "n27" and "n27" in screen_text(app)  # scrolled to it
        conn.deliver(lobby(WAITING))  # the selected table is gone: the nearest one is selected
        await pilot.pause()
        assert screen.selected_id() == "t1"
        conn.deliver(lobby(WAITING, PLAYING))
        await pilot.pause()
        await pilot.click("#tables", offset=(3, 2))  # a click selects the second row...
        assert screen.selected_id() == "t2"
        await pilot.click("#tables", offset=(3, 2), times=2)  # ...and a double click opens it
        assert conn.sent[-1] == Watch("t2")
        await pilot.click("#tables", offset=(3, 1))
        assert screen.selected_id() == "t1"
        sent = len(conn.sent)
        await pilot.press("w")  # acts on the selected table: t1 is waiting, not playing
        assert conn.sent[sent:] == []
        await pilot.press("j")  # and j joins it
        assert conn.sent[-1] == Join("t1")


async def test_lobby_lists_tables_and_sends_commands() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann", guest=True)))
        conn.deliver(lobby(WAITING, PLAYING))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "you are Ann (guest)" in text
        assert "t1" in text and "Bob, easy bot, open" in text and "waiting" in text
        assert "t2" in text and "Cy, hard bot" in text and "playing" in text and "12" in text
        for name in ("Ann", "Bob", "Cy"):
            assert name in text
        assert "You are not at a table" in text

        await pilot.press("j")  # the cursor starts on t1, which is waiting
        assert conn.sent[-1] == Join("t1")
        await pilot.press("down", "w")
        assert conn.sent[-1] == Watch("t2")
        await pilot.press("up", "enter")  # Enter joins a waiting table
        assert conn.sent[-1] == Join("t1")

        await pilot.press("c")
        assert isinstance(app.screen, CreateTableDialog)
        await pilot.press(
            "right", "down", "down", "right", "right", "enter"
        )  # 3 seats, seat 3 medium
        assert conn.sent[-1] == Create(3, (None, None, "medium"))
        await pilot.press("g")
        assert isinstance(app.screen, QuickGameDialog)
        await pilot.press("right", "right", "down", "left", "enter")  # 4 players, easy
        assert conn.sent[-1] == Quick(4, "easy")

        sent = len(conn.sent)
        await pilot.press("s")  # not at a table: nothing sent, a notice instead
        assert len(conn.sent) == sent

        mine = TableSummary(
            "t3", "Ann", TableStatus.WAITING, (SeatSummary("Ann"), SeatSummary(None, bot="easy"))
        )
        conn.deliver(lobby(WAITING, PLAYING, mine, online=("Ann", "Bob", "Cy", "Di"), mine=("t3",)))
        await wait_for(pilot, lambda: "Your table t3" in screen_text(app))
        text = screen_text(app)
        assert "Di" in text and "s starts the game" in text
        assert "s Start" in text  # the host's key line offers it
        theirs = TableSummary(
            "t3", "Bob", TableStatus.WAITING, (SeatSummary("Bob"), SeatSummary("Ann"))
        )
        conn.deliver(lobby(WAITING, PLAYING, theirs, mine=("t3",)))
        await wait_for(pilot, lambda: "waiting for Bob to start" in screen_text(app))
        assert "s Start" not in screen_text(app)  # only the host starts a table
        conn.deliver(lobby(WAITING, PLAYING, mine, mine=("t3",)))
        await wait_for(pilot, lambda: "s Start" in screen_text(app))
        await pilot.press("s")
        assert conn.sent[-1] == Start()
        await pilot.press("l")
        assert conn.sent[-1] == Leave()


async def test_a_table_the_host_puts_you_at_opens_and_leaving_returns_to_the_lobby() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(lobby(PLAYING))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("w")
        state = new_game(GameSettings(2), 4)
        seats = (SeatSummary("Cy"), SeatSummary(None, bot="hard"))
        conn.deliver(encode(TableUpdate("t2", seats, None, state.view(None))))  # a spectator
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "(watching)" in text and "Cy" in text and "Hard bot 2" in text
        await pilot.press("b")
        assert "watching" in prompt(app)
        await pilot.press("escape")  # nothing to cancel: a spectator goes back to the lobby
        assert conn.sent[-1] == Leave()
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)  # until the host says where it is now
        conn.deliver(encode(Where()))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        conn.auto_where = False
        conn.deliver(encode(TableUpdate("t2", seats, None, state.view(None))))  # late: ignored
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
    assert conn.closed


async def test_the_receiver_only_posts_messages() -> None:
    """The host may call the receiver from another app's task: it must not touch widgets."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        calls: list[Any] = []
        original = app.post_message
        app.post_message = lambda m: calls.append(m) or original(m)  # type: ignore[method-assign]
        conn.deliver(encode(Welcome("Ann")))  # and `Where`, as a host does
        assert len(calls) == 2 and app.player_name == ""  # handled later, in the app's task
        await wait_for(pilot, lambda: app.player_name == "Ann")


async def test_mine_marks_a_game_to_rejoin_and_enter_rejoins_it() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Cy")))
        conn.deliver(lobby(PLAYING, online=("Cy",), mine=("t2",)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        assert "your game" in screen_text(app)
        await pilot.press("enter")
        assert conn.sent[-1] == Join("t2")


async def test_a_table_joined_mid_game_shows_its_moves_so_far() -> None:
    moves = ["take W U G", "take R K W", "take U G R", "reserve deck 1"]
    state = replay(GameSettings(2), 4, moves)
    history = tuple(LoggedTurn(seat, turn) for seat, turn in turns(GameSettings(2), 4, moves))
    seats = (SeatSummary("Ann"), SeatSummary("Bob"))
    said = ("took W U G", "took W R K", "took U G R", "reserved a level 1")
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(110, 36)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(lobby())
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        # A table update with a log that is not one is refused whole: the app stays put.
        update = encode(TableUpdate("t9", seats, 0, state.view(0), history))
        junk = dumps({**loads(update), "log": ("junk",)})
        conn.deliver(junk)
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.is_running
        conn.deliver(update)
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        text = screen_text(app)
        assert [s for s in said if s in text] == list(said), text


async def test_a_host_of_another_protocol_version_is_left_with_a_message() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann", protocol=PROTOCOL_VERSION + 1)))
        await wait_for(pilot, lambda: app.return_code is not None)
    assert app.bye_text is not None and f"version {PROTOCOL_VERSION + 1}" in app.bye_text
    assert "update the older one" in app.bye_text


async def test_the_lobby_fits_80x24_with_its_keys_and_help() -> None:
    """Issue 13: at 80x24 the lobby keeps its Turn column and its ? key in view, and ?
    opens help at the lobby's own page, where a key's description too long for the line
    goes on under the description, not under the keys."""
    from client.screens.help import HelpScreen

    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(lobby(WAITING, PLAYING))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "Turn" in text and "12" in text and "? Help" in text and "q Quit" in text
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        lines = screen_text(app).splitlines()
        assert any("In the lobby" in line for line in lines)
        at = next(i for i, line in enumerate(lines) if "Enter          join the" in line)
        assert lines[at + 1].startswith("│" + " " * 17 + "your own game")  # under the words


FOUR = TableSummary(
    "t4",
    "Ann",
    TableStatus.WAITING,
    (
        SeatSummary("Ann"),
        SeatSummary("Bob", connected=False),
        SeatSummary(None, bot="medium"),
        SeatSummary(None),
    ),
)


async def seats_row(table: TableSummary, width: int) -> str:
    """The lobby's line for `table` on a terminal `width` columns wide."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(width, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(lobby(table))
        await wait_for(pilot, lambda: table.id in screen_text(app))
        return next(line for line in screen_text(app).splitlines() if table.id in line)


async def test_a_tables_seats_are_said_as_fully_as_the_width_allows() -> None:
    """The Seats column: every seat in full on a wide terminal; bots by level and open
    seats counted when that fits; at 80 columns, the first player, how many others, and
    the open seats."""
    assert "Ann, Bob (away), medium bot, open" in await seats_row(FOUR, 160)
    assert "Ann, Bob (away), medium, 1 open" in await seats_row(FOUR, 104)
    narrow = await seats_row(FOUR, 80)
    assert "Ann +2, 1 open" in narrow and "…" not in narrow


async def test_at_80_columns_the_seats_name_the_player_before_the_bots() -> None:
    """Issue 32: a game whose first seat is a bot's shows its player's name first, not
    "easy +1"; a table without a clock says "none" in the Clock column."""
    bot_first = TableSummary(
        "t5", "Ann", TableStatus.PLAYING, (SeatSummary(None, bot="easy"), SeatSummary("Ann"))
    )
    row = await seats_row(bot_first, 80)
    assert "Ann" in row and "easy +1" not in row
    assert "none" in row.split("Ann")[-1]  # the Clock column, after the seats
    assert "Ann, easy bot" in await seats_row(bot_first, 160)


async def test_the_key_line_shows_join_and_watch_and_a_rematch_to_accept() -> None:
    """Issue 32: j and w show on the lobby's key line at 80 columns (the club's keys give
    way first, ? and q stay); offered a rematch, j accepts it."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(lobby(WAITING, PLAYING))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        keys = screen_text(app).splitlines()[-1]
        for shown in ("⏎ Open", "j Join", "w Watch", "g Quick", "? Help", "q Quit"):
            assert shown in keys
        offer = TableSummary(
            "t9",
            "Bob",
            TableStatus.WAITING,
            (SeatSummary("Bob"), SeatSummary("Ann", invited=True)),
        )
        conn.deliver(lobby(offer, PLAYING, mine=("t9",)))
        await wait_for(pilot, lambda: "j Accept" in screen_text(app).splitlines()[-1])
