"""`splendor-server` as its own process: killed with SIGKILL and restarted, it resumes
the game; killed with SIGKILL, it leaves no process behind; and the OpenSSH client,
driven inside tmux, plays it end to end."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest
from gamekit import SIZE, login, quick_game, status, turn_shown
from processkit import ServerProcess, Tmux, process_tree, running, three_colours, type_move

from client.layout import geometry


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "data")
    try:
        yield server
    finally:
        server.stop()


def game_state(screen: str) -> list[str]:
    """The bank and both players' tokens, cards and last moves, as the screen shows them
    (not the move log: a reconnected screen starts a new one). The players' panels are a
    column right of the board (client/layout.py)."""
    board = geometry(*SIZE).width
    rows = screen.splitlines()
    bank = [r[:board].rstrip() for r in rows if r.startswith("Bank")]
    panels = [r[board:].strip() for r in rows]
    return bank + [r for r in panels if re.match(r"\W*(gem|crd|last:) ", r)]


async def test_a_game_survives_sigkill_and_restart(server_process):
    key = asyncssh.generate_private_key("ssh-ed25519")
    port = await asyncio.to_thread(server_process.start)
    player = await login(port, "ann", key)
    host_key = player.conn.get_server_host_key().get_fingerprint()
    await quick_game(player, "easy")  # the seed decides who starts: ann or the bot
    screen = await player.wait_for(lambda t: "your turn" in status(t))
    first = turn_shown(screen)
    await type_move(player, "take W U G")
    # The bank and both players' gem, crd and last: rows, once the whole frame has come.
    screen = await player.wait_for(
        lambda t: "your turn" in status(t) and turn_shown(t) > first and len(game_state(t)) == 7
    )
    turn = turn_shown(screen)
    before = game_state(screen)

    assert await asyncio.to_thread(server_process.kill) == -signal.SIGKILL
    await player.closed()

    port = await asyncio.to_thread(server_process.start)
    again = await login(port, "ann", key)
    assert again.conn.get_server_host_key().get_fingerprint() == host_key  # same host key
    # The same turn and the same bank and players (a frame may arrive in several packets:
    # the screen is read once it has settled on that state, or the wait fails).
    screen = await again.wait_for(
        lambda t: f"turn {turn} · your turn" in status(t) and game_state(t) == before
    )
    await type_move(again, three_colours(screen))  # and the game goes on
    await again.wait_for(lambda t: turn_shown(t) > turn)
    await again.close()
    assert await asyncio.to_thread(server_process.kill, signal.SIGTERM) == 0
    log = server_process.log.read_text()
    assert "game resumed" in log and "stopped" in log


# -- what a killed server leaves -------------------------------------------------------------

GONE_WAIT = 10.0  # seconds a killed server's helpers get to end


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
async def test_sigkill_leaves_no_process_behind(server_process):
    key = asyncssh.generate_private_key("ssh-ed25519")
    port = await asyncio.to_thread(server_process.start)
    player = await login(port, "ann", key)
    await quick_game(player, "easy")
    screen = await player.wait_for(lambda t: "your turn" in status(t))
    first = turn_shown(screen)
    await type_move(player, "take W U G")  # and the bot answers
    await player.wait_for(lambda t: "your turn" in status(t) and turn_shown(t) > first)
    tree = process_tree(server_process.proc.pid)
    commands = " | ".join(tree.values())
    # The server, its resource tracker, its forkserver and the bot workers forked from it.
    assert len(tree) >= 4 and "resource_tracker" in commands and "forkserver" in commands, tree

    assert await asyncio.to_thread(server_process.kill) == -signal.SIGKILL
    await player.closed()
    deadline = time.monotonic() + GONE_WAIT
    while any(map(running, tree)) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert [tree[p] for p in tree if running(p)] == []


async def test_ctrl_c_in_the_servers_terminal_stops_it_cleanly(server_process):
    """Ctrl-C where the server runs sends SIGINT to its whole process group: the server,
    its forkserver, resource tracker and bot workers. The server shuts down (exit 0) and
    its log has no trace from a bot worker interrupted mid-wait."""
    port = await asyncio.to_thread(server_process.start)
    player = await login(port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
    await quick_game(player, "easy")
    screen = await player.wait_for(lambda t: "your turn" in status(t))
    await type_move(player, "take W U G")  # and the bot answers
    await player.wait_for(lambda t: "your turn" in status(t) and turn_shown(t) > turn_shown(screen))
    tree = process_tree(server_process.proc.pid)
    for pid, _ in tree:  # as the terminal does: every process of the foreground group
        os.kill(pid, signal.SIGINT)
    assert await asyncio.to_thread(server_process.proc.wait, 30) == 0
    await player.closed()
    deadline = time.monotonic() + GONE_WAIT
    while any(map(running, tree)) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert [tree[p] for p in tree if running(p)] == []
    log = server_process.log.read_text()
    assert "stopped" in log and "Traceback" not in log and "KeyboardInterrupt" not in log, log


# -- OpenSSH in tmux -----------------------------------------------------------------------


def ssh_command(port: int, key: Path, name: str) -> str:
    return (
        f"ssh -F /dev/null -p {port} -i {key} -o IdentitiesOnly=yes "
        "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR "
        f"{name}@127.0.0.1; echo EXIT=$?; sleep 60"
    )


@pytest.mark.skipif(
    not (shutil.which("tmux") and shutil.which("ssh")),
    reason="needs tmux and the OpenSSH client (.ci/run installs them)",
)
async def test_openssh_in_tmux_plays_and_leaves_a_clean_terminal(server_process, tmp_path):
    keys = []
    for name in ("ann", "mallory"):
        path = tmp_path / f"{name}_ed25519"
        asyncssh.generate_private_key("ssh-ed25519").write_private_key(str(path))
        os.chmod(path, 0o600)
        keys.append(path)
    port = await asyncio.to_thread(server_process.start)
    tmux = Tmux(f"splendor-test-{os.getpid()}")
    try:
        tmux.open("ann", ssh_command(port, keys[0], "ann"))
        await tmux.wait_for("ann", "Splendor lobby — you are ann")
        tmux.keys("ann", "g")
        await tmux.wait_for("ann", "Quick game against bots")
        tmux.keys("ann", "Down", "Left")
        await tmux.wait_for("ann", "easy")
        tmux.keys("ann", "Enter")
        await tmux.wait_for("ann", "your turn")  # ann's, or after the bot's first move
        tmux.keys("ann", ":")
        await tmux.wait_for("ann", "a move: take W U G")
        tmux.keys("ann", "take w u g", "Enter")
        await tmux.wait_for("ann", "ann took W U G")
        # The bot's answer, whatever the deal makes it (a take, a reservation or a buy).
        await tmux.wait_for("ann", re.compile(r"Easy bot 2 (took|reserved|bought)"))
        tmux.keys("ann", "q")  # quit asks first during a game
        await tmux.wait_for("ann", "Leave this game and quit?")
        tmux.keys("ann", "y")
        screen = await tmux.wait_for("ann", "EXIT=0")
        assert "Splendor" not in screen  # back on the main screen: the app's is gone

        tmux.open("mallory", ssh_command(port, keys[1], "ann"))  # another key, same name
        screen = await tmux.wait_for("mallory", "EXIT=255")
        assert "belongs to another player's SSH key" in screen.replace("\n", "")
    finally:
        tmux.close()
