"""The transport with real parts: a real server, real SSH clients with a PTY, a pyte
screen. The app is the small EchoApp (sshkit.py); the game itself is tested in
test_ssh_game.py."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import sys
from pathlib import Path

import asyncssh
import pytest
from sshkit import EchoApp, FakeHost, Player, TerminalSession, connect, running_server
from textual._xterm_parser import XTermParser
from textual.app import App

from server.front.terminal import RESTORE_SEQUENCE, choose_colors


async def test_first_screen_a_key_and_host_messages(server, new_key):
    stdout, stderr = sys.stdout, sys.stderr
    player = await Player.login(server.port, "ann", new_key)
    screen = await player.wait_for("host: welcome ann")
    assert (sys.stdout, sys.stderr) == (stdout, stderr)  # no process-wide swap by the app
    assert "hello ann guest=False" in screen
    assert "size: 80x24" in screen
    player.press("a")
    await player.wait_for("keys: a")
    player.press("s")  # app -> host -> app, through the bridge
    await player.wait_for("echo ping")
    assert server.host.links[0].sent == [b"ping"]
    raw = bytes(player.term.raw)
    assert b"\x1b[?1000h" in raw and b"\x1b[?1006h" in raw  # mouse: clicks, SGR coordinates
    assert b"\x1b[?1002h" not in raw and b"\x1b[?1003h" not in raw  # never motion reports
    assert b"\x1b[>" not in raw  # the kitty keyboard protocol is never asked for
    await player.close()


async def test_a_lone_escape_arrives_and_sequences_still_parse(server, new_key):
    player = await Player.login(server.port, "ann", new_key)
    await player.wait_for("hello ann")
    player.press("\x1b")  # nothing follows: only the parser's timeout can report it
    await player.wait_for("keys: escape")
    player.press("\x1b[A")  # an escape sequence in one write is the up arrow, not Escape
    await player.wait_for("keys: escape up")
    player.press("\x1b")
    await asyncio.sleep(0.3)
    player.press("b")  # Escape, then later a key: two keys, neither lost
    await player.wait_for("keys: escape up escape b")
    await player.close()


async def test_resize_follows_the_window_and_is_clamped(server, new_key):
    player = await Player.login(server.port, "ann", new_key, size=(100, 30))
    await player.wait_for("size: 100x30")
    player.resize(120, 40)
    await player.wait_for("size: 120x40")
    # The app draws at the clamped size (our pyte screen is made just big enough to read).
    player.term.screen.resize(150, 400)
    player.chan.change_terminal_size(9999, 9999)
    await player.wait_for("size: 400x150")
    player.term.screen.resize(24, 80)
    player.chan.change_terminal_size(3, 2)
    await player.wait_for("size: 20x8")
    await player.close()


async def test_zero_size_pty_gets_a_default(server, new_key):
    conn = await connect(server.port, "ann", new_key)
    chan, term = await conn.create_session(
        lambda: TerminalSession(80, 24), term_type="xterm", term_size=(0, 0), encoding=None
    )
    player = Player(conn, chan, term)
    await player.wait_for("size: 80x24")
    await player.close()


async def test_session_without_pty_gets_one_line_and_status_1(server, new_key, caplog):
    caplog.set_level(logging.INFO, logger="splendor.ssh")
    conn = await connect(server.port, "ann", new_key)
    player = await Player.open(conn, term_type=None)  # ssh -T
    await player.closed()
    assert player.term.exit_status == 1
    port = server.port
    assert bytes(player.term.stderr) == (
        f"this server needs an interactive terminal: ssh -t -p {port} ann@127.0.0.1\n".encode()
    )
    assert server.host.links == []  # no app, no host link
    refusals = [r for r in caplog.records if r.name == "splendor.ssh" and "ann: " in r.message]
    assert [(r.levelno, r.message) for r in refusals] == [
        (logging.INFO, "ann: session without a terminal refused (ssh -T)")
    ]
    conn.close()


async def test_quit_restores_the_terminal_and_frees_the_seat(server, new_key):
    player = await Player.login(server.port, "ann", new_key)
    await player.wait_for("hello ann")
    assert player.term.screen.cursor.hidden
    player.press("q")
    await player.closed()
    assert player.term.exit_status == 0
    assert bytes(player.term.raw).endswith(RESTORE_SEQUENCE.encode())
    assert not player.term.screen.cursor.hidden
    assert server.host.links[0].closed
    await server.settle(lambda: not server.service.sessions.live)
    await player.close()


async def test_closing_the_client_ends_the_app_and_frees_the_seat(server, new_key):
    player = await Player.login(server.port, "ann", new_key)
    await player.wait_for("hello ann")
    player.conn.abort()
    await server.settle(lambda: not server.service.sessions.live)
    assert server.host.links[0].closed


async def test_each_session_end_is_logged_with_its_length(server, new_key, caplog):
    caplog.set_level(logging.INFO, logger="splendor.ssh")
    ann = await Player.login(server.port, "ann", new_key)
    bob = await Player.login(server.port, "bob", new_key)
    await ann.wait_for("hello ann")
    await bob.wait_for("hello bob")
    ann.press("q")  # ann quits
    await ann.closed()
    bob.conn.abort()  # bob's connection drops
    await server.settle(lambda: not server.service.sessions.live)
    ended = [r for r in caplog.records if "session ended" in r.message]
    assert sorted(r.message.split(":")[0] for r in ended) == ["ann", "bob"]
    for record in ended:
        assert record.levelno == logging.INFO
        assert re.fullmatch(r"(ann|bob): session ended after \d+ s", record.message)
    await ann.close()


async def test_no_app_is_left_behind_after_sessions_end(server, new_key):
    cached = XTermParser._parse_extended_key.cache_info().currsize
    players = [await Player.login(server.port, f"p{i}", new_key) for i in range(4)]
    for p in players:
        await p.wait_for("hello")
        p.press("\x1b[1;5A")  # ctrl+up: an extended key, the parser's cached path upstream
        await p.wait_for("ctrl+up")
    players[0].press("q")
    players[1].press("x")  # a crash
    players[2].conn.abort()
    await players[3].close()
    await server.settle(lambda: not server.service.sessions.live)
    for p in players:
        p.conn.close()
    del players, p
    gc.collect()
    assert [o for o in gc.get_objects() if isinstance(o, App)] == []
    assert XTermParser._parse_extended_key.cache_info().currsize == cached


async def test_a_crash_ends_one_session_with_an_apology_and_not_the_others(server, new_key, caplog):
    caplog.set_level(logging.ERROR, "splendor.ssh")
    ann = await Player.login(server.port, "ann", new_key)
    bob = await Player.login(server.port, "bob", new_key)
    await ann.wait_for("hello ann")
    await bob.wait_for("hello bob")
    ann.press("x")
    await ann.closed()
    assert ann.term.exit_status == 1
    assert b"Sorry: something went wrong on the server" in bytes(ann.term.raw)
    assert not ann.term.screen.cursor.hidden
    assert "session crashed" in caplog.text and "a bug in one session" in caplog.text
    bob.press("z")
    await bob.wait_for("keys: z")
    await bob.close()
    await ann.close()


async def test_a_slow_reader_is_cut_off(tmp_path, new_key, caplog):
    caplog.set_level(logging.WARNING, "splendor.ssh")
    settings = {"write_buffer_high": 8192, "write_buffer_low": 2048, "slow_reader_timeout": 0.3}
    async with running_server(tmp_path, **settings) as server:
        conn = await connect(server.port, "ann", new_key, window=8192)
        player = await Player.open(conn)
        await player.wait_for("hello ann")
        other = await Player.login(server.port, "bob", new_key)
        await other.wait_for("hello bob")
        player.chan.pause_reading()  # the player's terminal stops reading
        for i in range(60):  # every resize is a full repaint
            player.chan.change_terminal_size(60 + i % 40, 20 + i % 10)
            await asyncio.sleep(0.01)
        await server.settle(lambda: len(server.service.sessions.live) == 1)
        assert "slow reader" in caplog.text
        other.press("k")  # the others are not held up
        await other.wait_for("keys: k")
        conn.abort()
        await other.close()


async def test_the_app_writes_no_file(tmp_path, new_key, monkeypatch):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(downloads))

    class ScreenshotApp(EchoApp):
        BINDINGS = [*EchoApp.BINDINGS, ("p", "screenshot", "Screenshot")]

    def files() -> set[Path]:
        return {p for p in tmp_path.rglob("*") if p.is_file()}

    async with running_server(tmp_path, app_factory=ScreenshotApp) as server:
        before = files()
        player = await Player.login(server.port, "ann", new_key)
        await player.wait_for("hello ann")
        player.press("p")  # Textual's screenshot action: delivery is refused by the driver
        player.press("\x10")  # ctrl+p: the command palette (and its screenshot command) is off
        player.press("z")
        screen = await player.wait_for(lambda t: "keys: p" in t and " z\n" in t)
        assert "Search for commands" not in screen
        player.press("q")
        await player.closed()
        await server.settle(lambda: not server.service.sessions.live)
        written = {p for p in files() - before if not p.name.startswith("splendor.db")}
        assert written == set()
        await player.close()


@pytest.mark.parametrize(
    ("term", "env", "expected"),
    [
        ("xterm-256color", {}, ("256", False)),
        ("xterm", {"COLORTERM": "truecolor"}, ("truecolor", False)),
        ("xterm-256color", {"NO_COLOR": "1"}, ("standard", True)),
        ("xterm-256color", {"NO_COLOR": ""}, ("256", False)),  # no-color.org: empty is unset
        ("dumb", {}, ("standard", True)),
        ("linux", {}, ("standard", False)),
    ],
)
def test_colours_come_from_the_session(term, env, expected, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")  # the server's own environment never counts
    monkeypatch.setenv("COLORTERM", "truecolor")
    assert choose_colors(term, env) == expected


async def test_colour_system_per_session_on_the_wire(server, new_key):
    plain = await Player.login(server.port, "ann", new_key, env={"NO_COLOR": "1"})
    rich = await Player.login(server.port, "bob", new_key, env={"COLORTERM": "truecolor"})
    default = await Player.login(server.port, "cat", new_key)
    for p in (plain, rich, default):
        await p.wait_for("hello")
    assert b"\x1b[38;2;" in bytes(rich.term.raw)  # 24-bit colour codes
    assert b"\x1b[38;2;" not in bytes(default.term.raw)
    assert b"\x1b[38;5;" in bytes(default.term.raw)  # 256-colour codes
    assert b"38;5;" not in bytes(plain.term.raw) and b"38;2;" not in bytes(plain.term.raw)
    for p in (plain, rich, default):
        await p.close()


async def test_input_flood_ends_the_session(tmp_path, new_key):
    async with running_server(tmp_path, input_bytes_per_second=1000) as server:
        player = await Player.login(server.port, "ann", new_key)
        await player.wait_for("hello ann")
        player.press(b"z" * 20_000)
        await player.closed()
        assert b"too much input" in bytes(player.term.raw)
        assert player.term.exit_status == 1
        await player.close()


async def test_sigterm_path_tells_sessions_and_restores_terminals(tmp_path, new_key):
    async with running_server(tmp_path, host=FakeHost()) as server:
        players = [await Player.login(server.port, n, new_key) for n in ("ann", "bob")]
        for p in players:
            await p.wait_for("hello")
        await server.service.stop("The server is restarting; your game is saved.")
        for p in players:
            await p.closed()
            raw = bytes(p.term.raw)
            assert RESTORE_SEQUENCE.encode() in raw
            assert raw.endswith(b"The server is restarting; your game is saved.\r\n")
            assert not p.term.screen.cursor.hidden
        assert all(link.closed for link in server.host.links)
        with pytest.raises((OSError, asyncssh.Error)):
            await connect(server.port, "cat", new_key)


async def test_ctrl_z_and_ctrl_c_are_keys_never_signals(tmp_path, new_key):
    class SuspendingApp(EchoApp):
        BINDINGS = [*EchoApp.BINDINGS, ("ctrl+z", "suspend_process", "Suspend")]

    async with running_server(tmp_path, app_factory=SuspendingApp) as server:
        player = await Player.login(server.port, "ann", new_key)
        await player.wait_for("hello ann")
        player.press("\x1a")  # the driver cannot suspend: no SIGTSTP to the server process
        player.press("\x03")  # Ctrl+C: a key for the app
        player.press("k")
        await player.wait_for("ctrl+c k")
        await player.close()
