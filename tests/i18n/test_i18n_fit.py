"""Every screen fits like English (issue 34, items 5 and 6): the lobby, a 2- and a
4-player table, the game-over table, an error line and the help, in each language (Persian
in both ways of showing it) at 80x24 and 120x40, drawn by the app fed host messages
(`FakeConnection`: seeded positions, nothing waits on a host). Nothing is cut that the
English screen shows whole, no line is wider than the terminal, the key line keeps `?`
and `q`; Persian laid out by the app reads as the bidi algorithm orders the logical line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

import pytest
from bidi import get_display as rust_display
from bidi.algorithm import get_display as uba_display
from clientkit import FakeConnection, screen_text, wait_for
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from test_tui_snapshots import position, seats

from client.app import SplendorApp
from client.bidi import LRM, NOTATION, ZWNJ, reorder_runs, shape, visual
from client.screens.help import HelpScreen
from client.screens.lobby import LobbyScreen
from client.screens.lobby_text import invitation_line, my_table
from client.screens.table import TableScreen
from shared.deal import turns
from shared.i18n import L_, Reader, _, pgettext, use_reader
from shared.protocol import (
    LobbyList,
    LoggedTurn,
    Notice,
    SeatSummary,
    TableStatus,
    TableSummary,
    TableUpdate,
    Welcome,
    encode,
)
from shared.settings import GameSettings
from shared.social import LOBBY, ChatLine, ChatLines

Screens = dict[str, str]
READERS = [("en", None), ("fa", "visual"), ("fa", "logical"), ("cs", None), ("hu", None)]
SIZES = [(80, 24), (120, 40)]
CASES = [(lang, reading, size) for lang, reading in READERS for size in SIZES]
TABLES = (("2p", 2, "choose"), ("4p", 4, "choose"), ("over", 4, "over"))
ERROR = L_("you already hold {most} reserved cards (R9)", most=3)
OWN = TableSummary("t17", "Ann", TableStatus.WAITING, (SeatSummary("Ann"), *[SeatSummary()] * 3))
HELD = (SeatSummary("Bob"), SeatSummary("Ann", invited=True))
INVITED = (TableSummary("t9", "Bob", TableStatus.WAITING, HELD), OWN)
INVITED_LOBBY = LobbyList(INVITED, ("Ann", "Bob"), ("t9", "t17"))
_drawn: dict[tuple[str, str | None, tuple[int, int]], Screens] = {}


async def draw(language: str, reading: str | None, size: tuple[int, int]) -> Screens:
    """Each screen's text in one app of this reader and size (kept for the module)."""
    key = (language, reading, size)
    if key in _drawn:
        return _drawn[key]
    token = use_reader(Reader(language, reading))
    try:
        _drawn[key] = await _draw(size)
    finally:
        token.var.reset(token)
    return _drawn[key]


async def _draw(size: tuple[int, int]) -> Screens:
    conn = FakeConnection()
    app = SplendorApp(conn)
    out: Screens = {}
    async with app.run_test(size=size) as pilot:
        conn.deliver(encode(Welcome("Ann")))
        waiting = (SeatSummary("Bob"), SeatSummary(None))
        playing = (SeatSummary("Cy"), SeatSummary(None, bot="hard"))
        tables = (
            TableSummary("t9", "Bob", "waiting", waiting),
            TableSummary("t8", "Cy", "playing", playing, turn=7),
        )
        conn.deliver(encode(LobbyList(tables, ("Ann", "Bob", "Cy"), ())))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        out["lobby"] = screen_text(app)
        conn.deliver(encode(INVITED_LOBBY))
        await wait_for(pilot, lambda: getattr(app.screen, "lobby", None) == INVITED_LOBBY)
        await pilot.pause()
        out["lobby-invited"] = screen_text(app)  # at her own table, invited to Bob's
        for name, players, state in TABLES:
            pos = position(players, state)  # seeded playouts
            log = tuple(
                LoggedTurn(s, t) for s, t in turns(GameSettings(players), pos.seed, pos.moves)
            )
            seed = pos.seed if pos.state.is_over else None
            view = pos.state.view(0)
            conn.deliver(encode(TableUpdate(name, seats(players), 0, view, log, seed=seed)))
            await wait_for(
                pilot,
                lambda n=name: isinstance(app.screen, TableScreen) and app.screen.table_id == n,  # type: ignore[misc]
            )
            await pilot.pause()
            out[name] = screen_text(app)
            if name == "2p":
                conn.deliver(encode(Notice(ERROR.english(), "error", ERROR)))
                await wait_for(pilot, lambda: "R9" in screen_text(app))
                out["error"] = screen_text(app)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        out["help"] = screen_text(app)
    return out


def rows(text: str) -> list[str]:
    return text.rstrip("\n").split("\n")


def cut_words(text: str) -> list[str]:
    """The words a screen ends in "…" (cut to fit)."""
    return re.findall(r"\S*…", text)


def key_line(text: str) -> str:
    return next(row for row in reversed(rows(text)) if row.strip())


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    use_reader(Reader())


@pytest.mark.parametrize(
    ("language", "reading", "size"),
    CASES,
    ids=[f"{lang}{'-' + r if r else ''}-{w}x{h}" for lang, r, (w, h) in CASES],
)
async def test_every_screen_fits_like_english(
    language: str, reading: str | None, size: tuple[int, int]
) -> None:
    english = await draw("en", None, size)
    screens = await draw(language, reading, size)
    width, height = size
    assert screens.keys() == english.keys()
    for name, text in screens.items():
        lines = rows(text)
        assert len(lines) <= height, name
        wide = [row for row in lines if cell_len(row) > width]
        assert not wide, f"{name}: past the right edge: {wide}"
        cut, whole = cut_words(text), cut_words(english[name])
        assert len(cut) <= len(whole), f"{name}: cut where English is whole: {cut} ({whole})"
        if name == "help":
            continue
        keys = key_line(text)
        assert re.search(r"(^|\s)q(\s|$)", keys) and "?" in keys, f"{name}: {keys!r}"
        use_reader(Reader(language, reading))
        words = [_("Quit"), _("Help")]
        use_reader(Reader())
        shown = [visual(w) if reading == "visual" else w for w in words]
        assert all(w in keys for w in shown), f"{name}: the key line {keys!r} lacks {shown}"


def by_the_algorithm(line: str) -> str:
    """python-bidi's pure-Python reordering of a joined logical line (notation marked as
    reading left to right), without the characters that are not drawn."""
    marked = NOTATION.sub(lambda m: LRM + m.group(0), shape(line))
    return "".join(ch for ch in uba_display(marked, base_dir="R") if ch not in (ZWNJ, LRM))


def unmarked(text: str) -> str:
    """`text` without combining marks: the app puts a mark back after its letter (rule L3,
    tests/client/test_bidi.py), which the library leaves before it."""
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def by_rust(line: str) -> str:
    """python-bidi's Rust algorithm (which pairs brackets, rule N0, but mirrors nothing):
    its order, each bracket shown as `|` (its mirroring is checked apart)."""
    marked = NOTATION.sub(lambda m: LRM + m.group(0), shape(line))
    shown = "".join(ch for ch in rust_display(marked, base_dir="R") if ch not in (ZWNJ, LRM))
    return re.sub(r"[()]", "|", shown)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_persian_laid_out_is_the_algorithms_order(size: tuple[int, int]) -> None:
    """Lines of prose the app laid out (visual) are python-bidi's reordering of the same
    lines as the logical screen shows them, brackets paired (R9, a move's card)."""
    logical = await draw("fa", "logical", size)
    laid_out = await draw("fa", "visual", size)
    use_reader(Reader("fa"))
    error = str(ERROR)
    hint = next(row.strip() for row in rows(logical["lobby"]) if "c " in row and "j " in row)
    use_reader(Reader())
    assert error in logical["error"]
    for line in (error, hint):
        screen = laid_out["error" if line == error else "lobby"]
        assert unmarked(by_the_algorithm(line)) in unmarked(screen)
    bought = next(
        part.strip() for row in rows(logical["2p"]) for part in row.split("│") if "1-19 (R)" in part
    )
    expected = visual(bought)
    assert expected in laid_out["2p"]
    assert re.sub(r"[()]", "|", expected) == by_rust(bought)
    assert "1-19 (R)" in expected  # a card and its bonus read as typed, brackets and all


def test_brackets_pair_and_mirror_as_the_algorithm_says() -> None:
    """Rule N0: a bracket pair takes the direction of the text it encloses and its
    context; a pair in a right-to-left run is drawn mirrored, never twice."""
    assert visual("(خالی)") == "(" + shape("خالی")[::-1] + ")"
    assert visual("Ann (شما)", "L") == "Ann (" + shape("شما")[::-1] + ")"
    runs = reorder_runs([("█▶Ann", None), (" (شما)", None), ("      1★", None)], "L")
    assert runs is not None
    ann = "".join(part for part, _ in runs)  # a player's panel line, by columns
    assert ann.count("(") == ann.count(")") == 1 and ann.index("(") < ann.index(")")


SAID = "کارت 1-07 را خریدم (با طلا)"  # "I bought card 1-07 (with gold)"


async def chat_seen(language: str, reading: str | None) -> str:
    """The lobby as a reader sees it once Bob said `SAID` in Persian."""
    token = use_reader(Reader(language, reading))
    try:
        conn = FakeConnection()
        app = SplendorApp(conn)
        async with app.run_test(size=(80, 24)) as pilot:
            conn.deliver(encode(Welcome("Ann")))
            conn.deliver(encode(LobbyList((), ("Ann", "Bob"), ())))
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            conn.deliver(encode(ChatLines(LOBBY, (ChatLine(1, "Bob", SAID),), whole=True)))
            await wait_for(pilot, lambda: "Bob" in screen_text(app) and "1-07" in screen_text(app))
            return screen_text(app)
    finally:
        token.var.reset(token)


async def test_a_persian_chat_line_reads_right_either_way_it_is_shown() -> None:
    """Item 5: a Persian player's chat line reads right for a reader whose terminal lays
    lines out (sent as python-bidi orders it) and for one whose terminal does not (sent
    as written, for the terminal's own algorithm), and for a Czech reader too."""
    laid_out = await chat_seen("fa", "visual")
    assert by_the_algorithm(SAID) in laid_out and SAID not in laid_out
    assert "1-07" in laid_out and "(" + shape("با طلا")[::-1] + ")" in laid_out
    logical = await chat_seen("fa", "logical")
    assert SAID in logical and by_the_algorithm(SAID) not in logical
    assert SAID in await chat_seen("cs", None)  # no way of showing asked: as written


@pytest.mark.parametrize("language", ["en", "fa", "cs", "hu"])
def test_the_deck_columns_words_have_four_cells_at_most(language: str) -> None:
    """The board's deck column (4 cells at 80 columns) has its own words (`pgettext`),
    apart from the lobby's clock cell's "none"."""
    use_reader(Reader(language))
    for message in ("deck", "none"):
        word = pgettext("deck column", message)
        assert word and cell_len(word) <= 4, (language, message, word)


@pytest.mark.parametrize(("language", "reading"), READERS, ids=[f"{r[0]}-{r[1]}" for r in READERS])
def test_the_lobby_says_ones_table_and_an_invitation_within_its_three_lines(
    language: str, reading: str | None
) -> None:
    """#my-table has 3 lines (client/splendor.tcss): at 80 columns, less its padding, a
    table of 4 seats one sits at and another's invitation fit them, the invitation last."""
    use_reader(Reader(language, reading))
    invitation = INVITED[0]
    text = my_table("Ann", OWN, (), (), invitation)
    console = Console(width=78, color_system=None)
    lines = console.render_lines(Text.from_markup(text), pad=False)
    shown = ["".join(segment.text for segment in line) for line in lines]
    assert len(shown) == 3, shown
    assert shown[2] == Text.from_markup(invitation_line(invitation)).plain
