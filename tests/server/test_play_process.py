"""`splendor play` as a player runs it: in a real terminal (tmux), on the server's own game
host with its bot worker processes; quitting leaves the terminal and no process behind."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest
from processkit import Tmux, process_tree, running

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not shutil.which("tmux"), reason="needs tmux (.ci/run installs it)")
async def test_splendor_play_in_a_terminal_plays_against_real_bot_workers(tmp_path: Path) -> None:
    log = tmp_path / "play.log"
    command = (
        f"cd {REPO} && {sys.executable} -m server.commands.play play --players 2 --bots medium "
        f"--seed 7 --name Ann --bot-delay 0 --log {log}; echo EXIT=$?; sleep 60"
    )
    tmux = Tmux(f"splendor-play-{os.getpid()}-{tmp_path.name}")
    try:
        tmux.open("ann", command)
        await tmux.wait_for("ann", "your turn")
        shell = int(tmux.run("display-message", "-p", "-t", "ann", "#{pane_pid}"))
        tree = {p: c for p, c in process_tree(shell).items() if p[0] != shell}
        workers = [p for p, command in tree.items() if "multiprocessing.forkserver" in command]
        assert len(workers) >= 2, "the bots run in worker processes, as on a server"
        tmux.keys("ann", ":")
        await tmux.wait_for("ann", "a move: take W U G")
        tmux.keys("ann", "take w u g", "Enter")
        await tmux.wait_for("ann", "Ann took W U G")
        await tmux.wait_for("ann", "Medium bot 2 ")  # the bot's move in the log
        tmux.keys("ann", "q")
        await tmux.wait_for("ann", "Leave this game and quit?")
        tmux.keys("ann", "y")
        screen = await tmux.wait_for("ann", "EXIT=0")
        assert "Splendor" not in screen  # the app's screen is gone
        for _ in range(100):  # the bot workers end with the game, within a few seconds
            if not any(map(running, tree)):
                break
            await asyncio.sleep(0.1)
        assert [tree[p] for p in tree if running(p)] == []
        text = log.read_text()
        assert "game start" in text and "fallback" not in text and "Traceback" not in text
    finally:
        tmux.close()
