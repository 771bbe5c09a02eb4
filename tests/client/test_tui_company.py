"""The app with clocks and company (issue 12), fed host messages directly: each clock in its
panel counting down here, the bell, chat at the table (beside the moves, never among them:
issue 32) and in the lobby (mute, markup shown as typed), the vote, the rematch, your
moves, and the dialogs' clocks."""

from __future__ import annotations

import re

from clientkit import FakeConnection, play_to_end, screen_text, table, wait_for

from client.app import SplendorApp
from client.screens.lobby import LobbyScreen
from client.screens.table import TableScreen
from shared.clock import ClockView, parse_time_control
from shared.deal import new_game
from shared.protocol import (
    Absent,
    ChatLine,
    ChatLines,
    Create,
    LobbyList,
    NextGame,
    Notice,
    Quick,
    Rematch,
    RematchOffer,
    Say,
    SeatSummary,
    TableStatus,
    TableSummary,
    TableUpdate,
    Vote,
    Welcome,
    Where,
    encode,
)
from shared.settings import GameSettings
from shared.state import GameState

SEATS = (SeatSummary("Ann"), SeatSummary("Bob"))
FIVE = parse_time_control("5+10")


def turn_of(state: GameState, seat: int) -> GameState:
    """The game from its start until it is `seat`'s move."""
    while state.current_player != seat:
        state = state.apply(state.legal_moves()[0])
    return state


def update(state: GameState, seat: int | None = 0, **extra: object) -> bytes:
    return encode(TableUpdate("t1", SEATS, seat, state.view(seat), log=(), **extra))  # type: ignore[arg-type]


async def test_the_running_clock_counts_down_in_its_panel_and_the_others_stand() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    state = turn_of(new_game(GameSettings(2), 5), 0)
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(update(state, clock=ClockView(FIVE, (3.5, 300.0), 0)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        # 3.5 s shows as 0:04 for half a second, then 0:03 and 0:02: a loaded machine may
        # read the screen late
        assert re.search(r"\b0:0[234]\b", screen_text(app)) and "5:00" in screen_text(app)
        await wait_for(pilot, lambda: "0:02" in screen_text(app))  # counted here: no message
        assert "5:00" in screen_text(app) and len(conn.sent) == 0
        conn.deliver(update(state, clock=ClockView(FIVE, (0.0, 300.0), None)))
        await wait_for(pilot, lambda: "0:00" in screen_text(app))


async def test_the_bell_rings_when_it_becomes_your_turn_unless_turned_off() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    rang: list[int] = []
    app.bell = lambda: rang.append(1)  # type: ignore[method-assign]
    theirs, mine = turn_of(new_game(GameSettings(2), 5), 1), None
    mine = turn_of(theirs.apply(theirs.legal_moves()[0]), 0)
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(update(theirs))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        conn.deliver(update(mine))
        await wait_for(pilot, lambda: rang == [1])
        app.talk.bell = False
        conn.deliver(update(theirs))
        conn.deliver(update(mine))
        await pilot.pause()
        assert rang == [1]


async def test_chat_at_the_table_shows_beside_the_moves_and_mute_hides_a_name() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(update(new_game(GameSettings(2), 5)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("c", *"good luck", "enter")
        assert conn.sent[-1] == Say("good luck")
        lines = (ChatLine(1, "Ann", "good luck", 1), ChatLine(2, "Bob", "[b]thanks[/b] 2-14", 1))
        conn.deliver(encode(ChatLines("t1", lines, whole=True)))
        await wait_for(pilot, lambda: "Bob: [b]thanks[/b] 2-14" in screen_text(app))
        await pilot.press("c", *"/mute bob", "enter")
        await wait_for(pilot, lambda: "Bob: [b]thanks" not in screen_text(app))
        assert "bob is muted for you" in screen_text(app) and conn.sent[-1] == Say("good luck")
        await pilot.press("c", *"/unmute bob", "enter")
        await wait_for(pilot, lambda: "Bob: [b]thanks" in screen_text(app))


async def test_chat_beside_the_moves_never_pushes_a_move_out_of_view_at_80x24() -> None:
    """One move and six lines of chat: the log counts one move and shows it; the chat's
    newest lines show beside it, wrapped, the oldest giving way; news is not a move."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    start = new_game(GameSettings(2), 5)
    first = start.apply(start.legal_moves()[0])
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(update(start))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        conn.deliver(encode(TableUpdate("t1", SEATS, 0, first.view(0))))  # the move played
        said = [f"line {i} of the chat, long enough to wrap" for i in range(1, 7)]
        lines = tuple(ChatLine(i, "Ann" if i % 2 else "Bob", t, 2) for i, t in enumerate(said, 1))
        conn.deliver(encode(ChatLines("t1", lines, whole=True)))
        conn.deliver(encode(Notice("Bob's time ran out: a medium bot plays this turn", "info")))
        await wait_for(pilot, lambda: "Bob: line 6 of the" in screen_text(app))
        log = screen_text(app).splitlines()[16:22]  # under the board, above the prompt
        assert log[0].startswith(" Moves  1 · ") and "│ Chat" in log[0]
        moves = [line.split("│")[0] for line in log[1:]]
        assert any(table(app).log_lines[0] in line for line in moves)  # the one move
        assert any("Bob's time ran out" in line for line in moves)  # news, not counted
        assert "line 1 of" not in screen_text(app) and "line 6 of" not in " ".join(moves)


async def test_news_of_a_time_out_stays_in_the_move_log() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(update(new_game(GameSettings(2), 5)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        conn.deliver(encode(Notice("Bob's time ran out: a medium bot plays this turn", "info")))
        await pilot.pause()
        conn.deliver(
            update(
                new_game(GameSettings(2), 5).apply(new_game(GameSettings(2), 5).legal_moves()[0])
            )
        )
        await wait_for(pilot, lambda: "Bob's time ran out" in screen_text(app))


async def test_a_bot_standing_in_for_you_leaves_you_watching() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    state = turn_of(new_game(GameSettings(2), 5), 0)
    seats = (SeatSummary("Ann", standin="medium", timeouts=1), SeatSummary("Bob"))
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(TableUpdate("t1", seats, 0, state.view(0), log=())))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "a medium bot plays for you" in text and "Ann (you) (bot)" in text
        await pilot.press("t")
        assert "a bot plays your seat" in screen_text(app) and not conn.sent


async def test_a_player_away_past_the_patience_can_be_voted_on() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    state = turn_of(new_game(GameSettings(2), 5), 1)
    away = (SeatSummary("Ann"), SeatSummary("Bob", connected=False))
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        early = (Absent(1, 100.0, 600.0),)
        conn.deliver(encode(TableUpdate("t1", away, 0, state.view(0), log=(), absent=early)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("v")
        assert "no vote now" in screen_text(app) and not conn.sent
        late = (Absent(1, 720.0, 600.0, ("Cy",)),)
        conn.deliver(encode(TableUpdate("t1", away, 0, state.view(0), absent=late)))
        await wait_for(pilot, lambda: "Bob away 12 min: v votes" in screen_text(app))
        await pilot.press("v")
        assert conn.sent == [Vote(1)]


async def test_r_at_the_end_offers_a_rematch_and_the_prompt_follows_the_offer() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    over = play_to_end(2, 3).state
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(TableUpdate("t1", SEATS, 0, over.view(0), log=(), seed=over.seed)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("r")
        assert conn.sent == [Rematch()]
        offer = RematchOffer("t2", (SeatSummary("Bob", invited=True), SeatSummary("Ann")))
        conn.deliver(
            encode(TableUpdate("t1", SEATS, 0, over.view(0), seed=over.seed, rematch=offer))
        )
        await wait_for(pilot, lambda: "Rematch at table t2: waiting for Bob" in screen_text(app))


async def test_the_lobby_shows_your_moves_clocks_and_chat() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    seats = (SeatSummary("Ann"), SeatSummary(None, "easy"))
    tables = (
        TableSummary("t1", "Ann", TableStatus.PLAYING, seats, 4, clock=parse_time_control("3d")),
        TableSummary("t2", "Ann", TableStatus.PLAYING, seats, 9, clock=FIVE),
    )
    async with app.run_test(size=(100, 30)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(LobbyList(tables, ("Ann",), ("t1", "t2"), ("t1",))))
        conn.deliver(encode(ChatLines("", (ChatLine(7, "Bob", "hello [i]all[/i]"),), True)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await wait_for(pilot, lambda: "Bob: hello [i]all[/i]" in screen_text(app))
        text = screen_text(app)
        assert "Your move at 1 table: t1" in text and "your move" in text and "3d" in text
        await pilot.press("m")
        assert conn.sent == [NextGame()]
        await pilot.press("t", *"hi q?", "enter")  # q and ? are typed, not keys
        assert conn.sent[-1] == Say("hi q?") and isinstance(app.screen, LobbyScreen)


async def test_the_dialogs_choose_a_clock_and_a_patience() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)

    async def dialog(key: str, first: str, keys: tuple[str, ...]) -> None:
        await pilot.press(key)
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == first)
        for k in (*keys, "enter"):
            await pilot.press(k)
            await pilot.pause()  # the focus moves after the key

    async with app.run_test(size=(100, 40)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(LobbyList()))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await dialog("c", "seats", ("down", "down", "down", "left"))  # hidden seats skipped
        assert conn.sent[-1] == Create(2, (None, None), patience=5, rated=True)  # a key: rated
        await dialog("c", "seats", ("down", "down", "right", "right", "down", "right"))
        five = parse_time_control("5+10")  # a clock: no patience (it is hidden), then casual
        assert conn.sent[-1] == Create(2, (None, None), clock=five)
        await dialog("g", "players", ("down", "down", "left"))
        assert conn.sent[-1] == Quick(2, "medium", clock=parse_time_control("7d"), rated=True)


async def test_a_game_the_host_abandons_goes_to_the_lobby_and_says_so() -> None:
    """A lone player's bank runs dry: a bot would stand in, but with no human left the
    host abandons the game and sends the session to the lobby, then says why: the lobby
    shows it, and nothing says any more that a bot plays for you."""
    conn = FakeConnection()
    app = SplendorApp(conn)
    state = turn_of(new_game(GameSettings(2), 5), 0)
    stood = (SeatSummary("Ann", standin="medium", timeouts=1), SeatSummary(None, "medium"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        conn.deliver(encode(TableUpdate("t1", stood, 0, state.view(0), log=())))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await wait_for(pilot, lambda: "a medium bot plays for you" in screen_text(app))
        conn.deliver(encode(Where()))
        conn.deliver(encode(LobbyList()))
        conn.deliver(encode(Notice("the game at table t1 was abandoned", "info")))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await wait_for(pilot, lambda: "was abandoned" in screen_text(app), 50)
        assert "plays for you" not in screen_text(app)
