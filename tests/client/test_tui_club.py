"""The club's screens through Pilot, fed host messages directly (so they are exact): the
leaderboard, a profile, the lobby's keys and dialogs that ask for them, the rated choice,
the ratings at the end of a game, and a replay the host sends."""

from __future__ import annotations

import time

from clientkit import FakeConnection, play_to_end, screen_text, wait_for

from client.app import SplendorApp
from client.club import sparkline
from client.screens.club import LeaderboardScreen, PlayerPicker, ProfileScreen
from client.screens.lobby import LobbyScreen
from client.screens.replay import ReplayScreen
from client.screens.table import TableScreen
from shared.gamerecord import record_of, write_record
from shared.protocol import (
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Create,
    GameLine,
    GameRecordText,
    Leaderboard,
    LobbyList,
    PlayerProfile,
    Quick,
    Ranked,
    RatingChange,
    SeatSummary,
    TableStatus,
    TableSummary,
    TableUpdate,
    Welcome,
    encode,
)

NOW = time.time()
SIZE = (80, 24)


def ranked(rank: int, player: str, rating: int) -> Ranked:
    return Ranked(rank, player, rating, games=10 + rank, wins=rank % 4, last=NOW - 3600 * rank)


TOP = tuple(ranked(i + 1, f"p{i + 1:02}", 1600 - 10 * i) for i in range(20))


async def in_the_lobby(pilot, app: SplendorApp, conn: FakeConnection, guest: bool = False) -> None:
    conn.deliver(encode(Welcome("Ann", guest=guest)))
    table = TableSummary(
        "t1", "Bob", TableStatus.WAITING, (SeatSummary("Bob"), SeatSummary(bot="hard"))
    )
    conn.deliver(encode(LobbyList((table,), ("Ann", "Bob", "Cy"))))
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_the_leaderboard_marks_you_and_the_bots_and_pages() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        await in_the_lobby(pilot, app, conn)
        await pilot.press("r")
        assert conn.sent[-1] == AskLeaderboard(0)
        rows = (*TOP[:3], ranked(4, "bot:hard", 1570), *TOP[4:])
        me = ranked(57, "ann", 1012)  # not in the top rows: shown under them
        conn.deliver(encode(Leaderboard(rows, 0, me)))
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "⚙ hard bot" in text and "p01" in text
        lines = text.splitlines()
        assert any(line.lstrip().startswith("57") and "ann (you)" in line for line in lines)
        await pilot.press("end", "pagedown")  # past the last row: the next page
        assert conn.sent[-1] == AskLeaderboard(20)
        conn.deliver(encode(Leaderboard((), 20, me)))  # there is none: this page stays
        await pilot.pause()
        text = screen_text(app)
        assert "p20" in text and "rows 1–20" in text
        await pilot.press("m")  # the page with your own row
        assert conn.sent[-1] == AskLeaderboard(40)
        page = tuple(ranked(41 + i, f"q{i:02}", 1100 - i) for i in range(16))
        page = (*page, me, *(ranked(58 + i, f"r{i}", 1000 - i) for i in range(3)))
        conn.deliver(encode(Leaderboard(page, 40, me)))
        await pilot.pause()
        assert "You are #57 with 1012." in screen_text(app)
        await pilot.press("enter")  # the selection went to your row: your profile
        assert conn.sent[-1] == AskProfile("ann")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        conn.deliver(encode(PlayerProfile("ann", me)))  # too late: its screen was closed
        conn.deliver(encode(Leaderboard(rows, 0, me)))  # and nobody asked for this one
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_a_profile_shows_the_rating_course_and_replays_a_game() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        await in_the_lobby(pilot, app, conn)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, PlayerPicker))
        text = screen_text(app)
        assert all(who in text for who in ("Ann", "Bob", "hard bot", "Cy", "easy bot"))
        await pilot.press("down", "enter")  # the second pick: Bob, at the selected table
        assert conn.sent[-1] == AskProfile("Bob")
        games = (
            GameLine(
                "g7",
                3,
                "finished",
                NOW - 60,
                1,
                ("ann", "bob", "hard bot"),
                (15, 16, 9),
                (2, 1, 3),
                True,
            ),  # fmt: skip
            GameLine("g6", 2, "abandoned", NOW - 7200, 0, ("bob", "cy"), (), (), False),
        )
        history = (1000, 1010, 990, 1030, 1052)
        standing = ranked(3, "bob", 1052)
        conn.deliver(encode(PlayerProfile("bob", standing, history, ((2, 4, 1), (3, 7, 3)), games)))
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "#3 · rating 1052 · 13 rated games, 3 wins (23%)" in text
        assert sparkline(history) in text and "1000" in text
        assert "Rated games by player count: 2p 4 (1 won) · 3p 7 (3 won)" in text
        assert "1st" in text and "ann 15 · bob 16 · hard bot 9" in text
        assert "abandoned" in text
        await pilot.press("enter")
        assert conn.sent[-1] == AskRecord("g7")


async def test_a_guest_and_a_keyed_player_get_the_right_default_and_type_a_game_id() -> None:
    for guest, rated in ((False, True), (True, False)):
        conn = FakeConnection()
        app = SplendorApp(conn)
        async with app.run_test(size=SIZE) as pilot:
            await in_the_lobby(pilot, app, conn, guest)
            await pilot.press("g")
            await pilot.pause()
            assert ("rated" if rated else "casual") in screen_text(app)
            await pilot.press("enter")
            assert conn.sent[-1] == Quick(2, "medium", rated=rated)
            await pilot.press("c")
            await pilot.pause()
            await pilot.press("enter")
            assert isinstance(conn.sent[-1], Create) and conn.sent[-1].rated is rated
            await pilot.press("v")
            await pilot.pause()
            await pilot.press(*"g7", "enter")
            assert conn.sent[-1] == AskRecord("g7")


async def test_the_game_over_shows_the_ratings_and_v_replays_it() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    pos = play_to_end(2, 11)
    state, moves = pos.state, pos.moves
    async with app.run_test(size=(100, 32)) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        seats = (SeatSummary("Ann"), SeatSummary(bot="hard"))
        ratings = (RatingChange(1512, 14), RatingChange(1480, -14))
        update = TableUpdate("t5", seats, 0, state.view(0), ratings=ratings, seed=state.seed)
        conn.deliver(encode(update))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert "Ratings: Ann 1512 (+14) · Hard bot 2 1480 (−14)" in screen_text(app)
        await pilot.press("v")
        assert conn.sent[-1] == AskRecord("t5")
        tags = {"Game": "t5", "Seat1": "Ann", "Seat2": "hard bot"}
        text = write_record(record_of(2, state.seed, moves, **tags))
        conn.deliver(encode(GameRecordText("t5", text)))
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        assert f"After turn {state.turn} of {state.turn}" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        conn.deliver(encode(GameRecordText("t5", '[Players "5"]\n')))  # not a record
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)  # a notice, and the table stays
