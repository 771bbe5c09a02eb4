"""The tournament screens through Pilot at 80x24, fed host messages directly: the list
from the lobby's `o`, a tournament's page (standings with tie-breaks and paths, the
rounds' tables), entering, withdrawing, watching and replaying a table."""

from __future__ import annotations

from dataclasses import replace

from clientkit import FakeConnection, screen_text, wait_for
from test_tui_club import SIZE, in_the_lobby

from client.app import SplendorApp
from client.screens.club import ProfileScreen
from client.screens.lobby import LobbyScreen
from client.screens.tourneys import CreateTourneyDialog, TourneyListScreen, TourneyScreen
from shared.i18n import L_, Ln_, Reader, use_reader
from shared.protocol import AskProfile, AskRecord, PlayerProfile, Watch, encode
from shared.tourney_messages import (
    AskTourney,
    AskTourneys,
    CreateTourney,
    EnterTourney,
    TourneyLine,
    TourneyPage,
    TourneyRow,
    Tourneys,
    TourneyTable,
    WithdrawTourney,
)

CUP = TourneyLine("abc123", "Club night", "swiss, 4 rounds, tables of 3", "running", 9, 2, True)
OPEN = TourneyLine("def456", "Spring cup", "knockout, tables of 2", "open", 3, 0, False, "at 8")
PAGE = TourneyPage(
    CUP,
    "clock 10+5 · casual · to 15 · at most 64 · bots welcome",
    (
        TourneyRow(1, "ann", "1.5", "1.25", 1, 2, "R1 1/3 · R2 2/3"),
        TourneyRow(2, "medium-1", "1.5", "1", 1, 2, "R1 2/3 · R2 1/3"),
        TourneyRow(3, "bob", "0", "1.5", 0, 2, "R1 3/3 · R2 playing", out=True),
    ),
    (
        TourneyTable("0a0b0c", 2, ("bob", "easy-1", "cy"), "playing"),
        TourneyTable("1a1b1c", 1, ("ann", "medium-1", "bob"), "over", "1. ann 16, 2. medium-1 12"),
    ),
)


async def test_the_list_the_page_and_its_keys() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        await in_the_lobby(pilot, app, conn)
        await pilot.press("o")
        assert conn.sent[-1] == AskTourneys()
        conn.deliver(encode(Tourneys((CUP, OPEN))))
        await wait_for(pilot, lambda: isinstance(app.screen, TourneyListScreen))
        text = screen_text(app)
        assert "Club night ✓" in text and "Spring cup" in text and "knockout" in text
        await pilot.press("down", "e")
        assert conn.sent[-1] == EnterTourney("def456")
        await pilot.press("up", "enter")
        assert conn.sent[-1] == AskTourney("abc123")
        conn.deliver(encode(PAGE))
        await wait_for(pilot, lambda: isinstance(app.screen, TourneyScreen))
        await pilot.pause()
        text = screen_text(app)
        assert all(len(line) <= 80 for line in text.splitlines())
        for shown in ("Club night", "round 2", "clock 10+5", "R1 1/3 · R2 2/3", "bob ✗",
                      "1. ann 16, 2. medium-1 12", "bob, easy-1, cy"):  # fmt: skip
            assert shown in text, shown
        await pilot.press("v")  # the latest round's table is playing: nothing to replay
        assert conn.sent[-1] == AskTourney("abc123")
        await pilot.press("down", "v")
        assert conn.sent[-1] == AskRecord("1a1b1c")
        await pilot.press("up", "w")
        assert conn.sent[-1] == Watch("0a0b0c")
        await pilot.press("x")
        assert conn.sent[-1] == WithdrawTourney("abc123")
        assert "you are in it" in screen_text(app)
        out = TourneyLine(CUP.id, CUP.name, CUP.format, CUP.status, 9, 2, entered=False)
        conn.deliver(encode(TourneyPage(out, PAGE.about, PAGE.rows, PAGE.tables)))
        await wait_for(pilot, lambda: "you are in it" not in screen_text(app))
        assert isinstance(app.screen, TourneyScreen) and len(app.screen_stack) == 4
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TourneyListScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_a_profile_lists_the_player_s_tournaments() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        await in_the_lobby(pilot, app, conn)
        app.send(AskProfile("ann"))
        places = ("Club night: 2nd of 9", "Spring cup: entered")
        conn.deliver(encode(PlayerProfile("ann", None, tournaments=places)))
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await pilot.pause()
        assert "Tournaments: Club night: 2nd of 9 · Spring cup: entered" in screen_text(app)


async def test_announcing_a_tournament_from_the_list() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=SIZE) as pilot:
        await in_the_lobby(pilot, app, conn)
        await pilot.press("o")
        conn.deliver(encode(Tourneys(())))
        await wait_for(pilot, lambda: isinstance(app.screen, TourneyListScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTourneyDialog))
        await pilot.press("enter")  # no name yet: refused, the dialog stays
        assert isinstance(app.screen, CreateTourneyDialog)
        await pilot.press(*"Friday", "down", "down", "right", "down", "right", "enter")
        assert conn.sent[-1] == CreateTourney("Friday", "swiss", 5, 3)
        await wait_for(pilot, lambda: isinstance(app.screen, TourneyListScreen))
        # when it starts even if fewer came, and the most entrants, as the admin command has
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTourneyDialog))
        assert "Starts in" in screen_text(app) and "Most" in screen_text(app)
        # name, format, rounds, seats, clock, starts at; then starts in (30 min), most (32)
        await pilot.press(*"Evening", *["down"] * 6, "right", "down", "left", "enter")
        assert conn.sent[-1] == CreateTourney("Evening", most=32, start_in=30)


async def test_a_czech_reader_sees_the_tournament_words_in_czech() -> None:
    """Issue 34: the host sends a tournament's format, start, settings line, paths and a
    profile's lines as `Text` beside their English; the client words them in Czech."""
    tables = L_("tables of {n}", n=3)
    line = replace(
        CUP,
        format_said=L_("swiss, {rounds}, {tables}", rounds=Ln_("{n} round", "{n} rounds", 4),
                       tables=tables),
    )  # fmt: skip
    about = L_(
        "clock {clock} · {rating} · to {target} · at most {n} · {bots}",
        clock="10+5", rating=L_("casual"), target=15, n=64, bots=L_("bots welcome"),
    )  # fmt: skip
    steps = (L_("R{round} {rank}/{of}", round=1, rank=1, of=3), L_("R{round} bye", round=2))
    rows = (replace(PAGE.rows[0], path_said=steps), *PAGE.rows[1:])
    page = replace(PAGE, line=line, about_said=about, rows=rows)
    places = (L_("{name}: {rank} of {n} so far", name="Club night", rank=2, n=9),)
    use_reader(Reader("cs"))
    try:
        conn = FakeConnection()
        app = SplendorApp(conn)
        async with app.run_test(size=SIZE) as pilot:
            await in_the_lobby(pilot, app, conn)
            await pilot.press("o")
            conn.deliver(encode(Tourneys((line,))))
            await wait_for(pilot, lambda: isinstance(app.screen, TourneyListScreen))
            await pilot.press("enter")
            conn.deliver(encode(page))
            await wait_for(pilot, lambda: isinstance(app.screen, TourneyScreen))
            await pilot.pause()
            text = screen_text(app)
            for shown in ("švýcarský systém, 4 kola, stoly po 3", "tempo 10+5 · přátelská",
                          "nejvýš 64 · boti vítáni", "K1 1/3 · K2 volno"):  # fmt: skip
                assert shown in text, shown
            app.send(AskProfile("ann"))
            english = ("Club night: 2 of 9 so far",)
            conn.deliver(encode(PlayerProfile("ann", None, tournaments=english,
                                              tournaments_said=places)))  # fmt: skip
            await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
            await pilot.pause()
            assert "Turnaje: Club night: 2 z 9 (průběžně)" in screen_text(app)
    finally:
        use_reader(Reader())
