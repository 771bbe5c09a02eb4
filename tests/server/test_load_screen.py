"""The load generator's screen (`bench/textscreen.py`) reads what pyte reads: the same
character in every cell and the cursor in the same place, on the bytes of a whole
game over SSH and on the edge cases of drawing (wide characters at the right edge,
autowrap off, combining marks, characters of no width, another character set,
insert mode, sequences cut between writes, sequences pyte fails on). And the load
generator's players (`bench/loadclient.py`) tell a refused move on a real table."""

from __future__ import annotations

import sys
from pathlib import Path

import pyte
import pytest
from gamekit import game_server, login, play_to_end, quick_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from loadclient import choose, refusal  # noqa: E402
from loadkit import Terminal  # noqa: E402
from textscreen import TextScreen, TextStream  # noqa: E402


def read(ours: bool, chunks: list[bytes], size: tuple[int, int]) -> tuple:
    """Every cell's character and the cursor once `chunks` are written to our screen
    and stream, or to pyte's; a write pyte refuses with an exception is given up, as
    the caller of either would, and the next one goes on."""
    screen = TextScreen(*size) if ours else pyte.Screen(*size)
    stream = TextStream(screen) if ours else pyte.ByteStream(screen)
    for chunk in chunks:
        try:
            stream.feed(chunk)
        except Exception as e:
            screen.draw(f"<{type(e).__name__}>")
    cells = [[screen.buffer[y][x].data for x in range(screen.columns)] for y in range(screen.lines)]
    return cells, (screen.cursor.x, screen.cursor.y)


async def test_a_whole_game_reads_the_same_as_pyte(tmp_path, bot_executor):
    async with game_server(tmp_path, bot_executor) as game:
        player = await login(game.port, "ann")
        await quick_game(player, "easy")
        for key in "lljjhk":
            player.press(key)
        await play_to_end(player, game.tap.latest("guest-ann"))
        await player.close()
    raw = bytes(player.term.raw)
    assert b"\x1b[38;5;" in raw and "✓".encode() in raw  # colours and wide-ish glyphs drawn
    chunks = [raw[i : i + 1500] for i in range(0, len(raw), 1500)]  # cut anywhere
    text, cursor = read(True, chunks, (110, 36))
    assert (text, cursor) == read(False, chunks, (110, 36))
    assert any("Game over" in "".join(row) for row in text)


EDGES: dict[str, str | bytes] = {
    "wide at the right edge": "\x1b[1;9Hab界c\x1b[2;10H界界x",
    "wraps past the last column": "\x1b[3;1H" + "0123456789" * 3,
    "autowrap off": "\x1b[?7l\x1b[4;8Habcdefg界h\x1b[?7h",
    "a combining mark": "\x1b[5;1Hcafe\u0301 e\u0301t\u00e9\x1b[6;1H\u0301x",
    "characters of no width": "\x1b[6;3Ha\u200bb\x07c\u00adde",
    "another character set": "\x1b%@\x1b(0\x1b[7;1Habqx\x1b(Bqx\x1b)0\x0eqx\x0fq",
    "insert mode": "\x1b[8;1Habcdef\x1b[8;3H\x1b[4hXY界\x1b[4lZ",
    "colours between letters": "\x1b[9;1H\x1b[1;31ma\x1b[0;38;5;200mb\x1b[48;2;1;2;3mc\x1b[m",
    "a reverse line feed at the top": "\x1b[1;1H\x1bMtop",
    "sequences cut between writes": "\x1b[3;|4Hab\x1b|[1mc\x1b[?|7l0123456789x\x1b[?7h\x1b|",
    "odd sequences": "\x1b[>c\x1b[5;2H\x1b[1;2$pz\x1b[2 qy\x1b[99999;3Hw\x1b[;5H\x1b[9~v",
    "controls inside a sequence": "\x1b[4;\r5Hq\x1b[2\x08;2Hr\x1b[3\x18s",
    "a title and a cut character": b"\x1b]2;title\x07\x1b[2;2Hx\xe7|\x95\xa1\x1b[K",
    "UTF-8 off": b"\x1b%@\x1b[3;3H\xe9t\xe9\x1b%Gok",
    "erasing": "abcdefghij\x1b[1;5H\x1b[1K\x1b[2;1Hxyz\x1b[2;2H\x1b[X\x1b[J",
}


@pytest.mark.parametrize("name", EDGES)
def test_drawing_edge_cases_read_the_same_as_pyte(name):
    """Each case is written in the pieces its "|" marks (a sequence or a character cut)."""
    case = EDGES[name]
    raw = case if isinstance(case, bytes) else case.encode()
    chunks = raw.split(b"|")
    assert read(True, chunks, (10, 9)) == read(False, chunks, (10, 9))


@pytest.mark.parametrize(
    "chunks",
    [
        [b"\x1b[?1mX"],  # pyte's colours take no private mark: an error, nothing drawn
        [b"\x1b[?1", b"mX"],
        [b"\x1b", b"[m\x1b[3K", "\u200bX".encode()],  # pyte fails on erase 3, then starts over
        [b"\x1b", b"[m\x1b[?5A", "\u200bX".encode()],
    ],
)
def test_a_sequence_pyte_fails_on_fails_the_same_and_what_follows_reads_the_same(chunks):
    assert read(True, chunks, (10, 3)) == read(False, chunks, (10, 3))


CARD_IDS = [
    f"{level}-{n:02}" for level, count in ((1, 40), (2, 30), (3, 20)) for n in range(1, count + 1)
]


def seen_by_load_generator(player) -> Terminal:
    """A load generator's terminal, sent all that `player`'s terminal was sent."""
    term = Terminal()
    term.stream.feed(bytes(player.term.raw))
    return term


async def test_the_load_generator_sees_a_refused_move_and_does_not_type_it_again(
    tmp_path, bot_executor
):
    """bench/loadclient.py on a real table: a refused move is told from the next turn,
    and `choose` offers another."""
    async with game_server(tmp_path, bot_executor) as game:
        player = await login(game.port, "ann")
        await quick_game(player, "easy")
        await player.wait_for(lambda t: "your turn" in t.splitlines()[0])
        term = seen_by_load_generator(player)
        assert not refusal(term)
        first = choose(term, set())
        assert first is not None and first != "pass"  # takes are legal: pass is not (R12)
        player.press(":pass\r")
        await player.wait_for("(R12)")
        term = seen_by_load_generator(player)
        assert refusal(term)
        assert choose(term, {first}) not in (first, None)
        assert choose(term, {first, "pass"} | {f"reserve {c}" for c in CARD_IDS}) is None
        await player.close()
