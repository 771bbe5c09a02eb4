"""A hostile game record (tests/hostile.py in its tags and comments) replayed: the replay
shows its text safe while the record keeps it as written, the viewer's screen holds
none of it, and `splendor replay FILE` run under a real pseudo-terminal sends the
terminal none of it (the raw bytes read back, and a pyte screen)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte
from clientkit import screen_text
from hostile import HOSTILE, leaks

from client.replay import Replay
from client.screens.replay import ReplayApp
from shared.deal import new_game
from shared.gamerecord import Record, parse_record, record_of, write_record
from shared.settings import GameSettings

EVIL_SEATS = ("\x1b]0;PWNED\x07\x1b[2Jann\x1b[41;1337m", "bob\u202e\u2066live\x9b2J")
EVIL_GAME = "g7\x1b[5;1337m\u202e"
LAST_NOTE = "\x1b]2;PWNED\x1b\\well \u202eplayed\x9b1337m, ann"
WAIT = 30.0  # seconds a screen may take to show what is awaited


def utf8(text: str) -> bool:
    """Whether a file may hold `text` (a lone surrogate cannot be written)."""
    return not any("\ud800" <= ch <= "\udfff" for ch in text)


def hostile_record() -> Record:
    """A 2-player game of six turns, not over: hostile seats and game id, the whole corpus
    in turn 1's comment, and a short hostile comment on the last turn."""
    state, moves = new_game(GameSettings(2), 11), []
    for _ in range(6):
        move = state.legal_moves()[0]
        moves.append(str(move))
        state = state.apply(move)
    seats = {"Seat1": EVIL_SEATS[0], "Seat2": EVIL_SEATS[1], "Game": EVIL_GAME}
    record = record_of(2, 11, moves, **seats)
    corpus = " ".join(said for said, _ in HOSTILE.values() if utf8(said))
    return Record(record.tags, record.moves, {0: (corpus,), 5: (LAST_NOTE,)})


def test_a_replay_shows_a_hostile_record_safe_and_keeps_it_as_written() -> None:
    record = parse_record(write_record(hostile_record()))
    assert (record.tags["Seat1"], record.tags["Seat2"]) == EVIL_SEATS  # the data: as written
    replay = Replay.of(record)
    assert [s.name for s in replay.seats] == ["ann", "boblive"]
    assert replay.title == "game g7" and replay.game == "g7"
    assert replay.notes[-1] == "well played, ann"
    corpus = replay.notes[0]
    for said, seen in HOSTILE.values():
        assert seen in corpus or not utf8(said)
    assert not leaks("".join(replay.notes).encode())


async def test_the_replay_viewer_shows_none_of_it() -> None:
    app = ReplayApp(Replay.of(hostile_record()), at=1)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "ann" in text and "boblive" in text and "(replay of game g7)" in text
        assert "adminguest" in text  # from the corpus, in turn 1's comment
        assert not leaks(text.encode())
        await pilot.press("end")
        assert "{well played, ann}" in screen_text(app)


class Terminal:
    """A program on a real pseudo-terminal: every byte it writes, and a pyte screen."""

    def __init__(self, argv: list[str], width: int = 110, height: int = 40) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color"}
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.raw = b""
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def read(self, until: Callable[[str], bool], timeout: float = WAIT) -> str:
        """Read until the screen satisfies `until` (or the program ends, or `timeout`)."""
        deadline = time.monotonic() + timeout
        while not until(self.text()) and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the program ended: the pty is closed
                break
            if not data:
                break
            self.raw += data
            self.stream.feed(data)
        return self.text()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(WAIT)
        os.close(self.master)


def test_splendor_replay_sends_a_real_terminal_none_of_it(tmp_path: Path) -> None:
    path = tmp_path / "hostile.txt"
    path.write_text(write_record(hostile_record()), encoding="utf-8")
    splendor = Path(sys.executable).with_name("splendor")  # the installed command itself
    term = Terminal([str(splendor), "replay", str(path)])
    try:
        screen = term.read(lambda t: "After turn 6 of 6" in t and "well played" in t)
        assert "ann" in screen and "boblive" in screen and "(replay of game g7)" in screen
        assert "{well played, ann}" in screen
        os.write(term.master, b"\x1b[H")  # Home: the deal; then a turn on, to turn 1's comment
        term.read(lambda t: "The deal" in t)
        os.write(term.master, b"\x1b[C")
        screen = term.read(lambda t: "After turn 1 of 6" in t and "adminguest" in t)
        assert "adminguest" in screen
        os.write(term.master, b"q")
        term.read(lambda t: False, timeout=5.0)  # to the end: the terminal restored
        assert term.proc.wait(WAIT) == 0
    finally:
        term.close()
    assert term.raw and not leaks(term.raw), leaks(term.raw)
    assert b"\x1b]0;PWNED" not in term.raw and b"\xc2\x9b" not in term.raw
    assert "\u202e".encode() not in term.raw
