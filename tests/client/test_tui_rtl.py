"""Right to left in the app (client/rtl.py): the reading question the first time, then
every line of the lobby laid out for a right-to-left reader in visual mode (prose and
lists mirrored), the parts that stay left to right, and nothing moved in logical mode."""

from __future__ import annotations

from clientkit import FakeConnection, screen_text, wait_for
from textual.geometry import Region

from client.app import SplendorApp
from client.bidi import reorder_runs, visual
from client.rtl import EXPLICIT, IMPLICIT, LEFT_TO_RIGHT, RIGHT_TO_LEFT, TextLayout, reorders
from client.screens.lobby import LobbyScreen
from client.screens.reading import ReadingScreen, sample
from client.widgets.board import Board
from client.widgets.chatbox import ChatBox
from client.widgets.listing import TableList
from client.widgets.panels import PromptLine
from shared.protocol import LobbyList, Welcome, encode
from shared.social import LOBBY, ChatLine, ChatLines

SAID = "کارت 1-07 را با سه گوهر و یک طلا خریدم"  # "I bought card 1-07 with three gems and a gold"


async def ask(app: SplendorApp, conn: FakeConnection, pilot: object) -> None:
    conn.deliver(encode(Welcome("Ann", guest=True)))
    conn.deliver(encode(LobbyList((), ("Ann", "Bob"), ())))
    await wait_for(pilot, lambda: isinstance(app.screen, ReadingScreen))  # type: ignore[arg-type]


async def test_the_first_time_persian_is_picked_the_player_is_asked() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    app.layout = TextLayout.of("fa_IR.UTF-8")
    async with app.run_test(size=(80, 24)) as pilot:
        await ask(app, conn, pilot)
        text = screen_text(app)
        assert visual(sample("1")) in text  # laid out by the app
        assert sample("2") in text  # as written, for the terminal to lay out
        await pilot.press("1")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.layout.mode == "visual" and not app.layout.must_ask
        assert app.get_line_filters()[-1] is RIGHT_TO_LEFT


async def test_persian_digit_keys_answer_too_and_logical_moves_nothing() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    app.layout = TextLayout.of("fa")
    async with app.run_test(size=(80, 24)) as pilot:
        await ask(app, conn, pilot)
        await pilot.press("۲")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.layout.mode == "logical"
        assert RIGHT_TO_LEFT not in app.get_line_filters()
        conn.deliver(encode(ChatLines(LOBBY, (ChatLine(1, "Bob", SAID),), whole=True)))
        await wait_for(pilot, lambda: SAID in screen_text(app))  # sent as written


async def test_visual_mode_lays_out_the_lobby_for_a_right_to_left_reader() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    app.layout = TextLayout.of("fa", "visual")  # the answer kept with the language
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann", guest=True)))
        conn.deliver(encode(LobbyList((), ("Ann", "Bob"), ())))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        conn.deliver(encode(ChatLines(LOBBY, (ChatLine(1, "Bob", SAID),), whole=True)))
        chat = app.screen.query_one(ChatBox)
        await wait_for(pilot, lambda: any(SAID in line.text for line in chat._strips))
        said = next(y for y, line in enumerate(chat._strips) if SAID in line.text)
        drawn = chat._strips[said]
        width = chat.region.width
        shown = chat.render_lines(Region(0, said, width, 1))[0]
        expected = reorder_runs([(s.text, s.style) for s in drawn], "R")
        assert expected is not None
        assert shown.text == "".join(text for text, _ in expected)
        assert visual(SAID) in shown.text and "1-07" in shown.text
        assert shown.text.rstrip().endswith(visual("Bob:")) or "Bob" in shown.text
        assert visual(SAID) in screen_text(app) and SAID not in screen_text(app)
        listing = app.screen.query_one(TableList)  # a list: mirrored, right-aligned
        assert RIGHT_TO_LEFT in listing.get_line_filters()


async def test_the_grid_the_panels_and_the_move_line_stay_left_to_right() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    app.layout = TextLayout.of("fa", "visual")
    async with app.run_test(size=(80, 24)):
        board, prompt = Board(), PromptLine()
        await app.screen.mount(board, prompt)
        assert LEFT_TO_RIGHT in board.get_line_filters()
        assert RIGHT_TO_LEFT not in board.get_line_filters()
        assert RIGHT_TO_LEFT in prompt.get_line_filters()  # a prompt's prose mirrors...
        prompt.edit(("buy 1-07", 8))
        assert LEFT_TO_RIGHT in prompt.get_line_filters()  # ...a move being typed does not


async def test_a_left_to_right_language_is_not_asked() -> None:
    conn = FakeConnection()
    app = SplendorApp(conn)
    async with app.run_test(size=(80, 24)) as pilot:
        conn.deliver(encode(Welcome("Ann", guest=True)))
        conn.deliver(encode(LobbyList((), ("Ann",), ())))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await app.use_language("cs_CZ.UTF-8")
        assert not app.layout.right_to_left and app.get_line_filters() == list(app._filters)
        await app.use_language("fa")
        await wait_for(pilot, lambda: isinstance(app.screen, ReadingScreen))


def test_what_each_layout_asks_of_the_lines_and_the_terminal() -> None:
    assert TextLayout().filters() == [] and not TextLayout().must_ask
    assert TextLayout.of("fa").must_ask and TextLayout.of("fa").filters() == []
    assert TextLayout.of("fa", "visual").filters() == [RIGHT_TO_LEFT]
    assert TextLayout.of("fa", "logical").filters() == []
    # A reader of another language who answered "visual" once: Persian chat still reads
    # right, in a left-to-right screen.
    assert TextLayout.of("en", "visual").filters() == [LEFT_TO_RIGHT]
    assert TextLayout.of("fa", "visual").sequence() == EXPLICIT
    assert TextLayout.of("fa", "logical").sequence() == IMPLICIT == TextLayout().sequence()


def test_which_changed_lines_are_refreshed_whole() -> None:
    """A line whose cells a filter moves is refreshed whole; a grid line with no Persian
    in it keeps refreshing only its changed columns (a cursor key's small frame, P18)."""
    assert not reorders([LEFT_TO_RIGHT], " 1-22  1W 1G 1R 2K ")
    assert reorders([LEFT_TO_RIGHT], " گوهر 1-22 ")
    assert reorders([RIGHT_TO_LEFT], "You are not at a table.")
    assert not reorders([], "گوهر") and reorders([RIGHT_TO_LEFT])
