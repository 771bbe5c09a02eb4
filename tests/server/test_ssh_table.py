"""The table over real SSH at 80x24, four players, read off a pyte screen (issue 13): the
lobby fits with its keys, and at the table every panel, the board, the bank and the keys
of the moment are on screen. The screens are compared with stored text snapshots
(tests/server/__snapshots__, SNAPSHOT_UPDATE=1 rewrites them; read the diff first).

The host deals seeds 1000, 1001, ... (hostkit), and seat 0 starts with seed 1000, so the
first screen at the table comes before any bot has moved: it is the same every run."""

from __future__ import annotations

import os
import re
from pathlib import Path

from gamekit import KEYS, game_server, status
from sshkit import Player

SNAPSHOTS = Path(__file__).parent / "__snapshots__"
SIZE = (80, 24)


def check_text(text: str, name: str) -> None:
    """Compare a screen's text with its stored snapshot (SNAPSHOT_UPDATE=1 rewrites it)."""
    SNAPSHOTS.mkdir(exist_ok=True)
    stored = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("SNAPSHOT_UPDATE") or not stored.exists():
        stored.write_text(text + "\n", encoding="utf-8")
        if not os.environ.get("SNAPSHOT_UPDATE"):
            raise AssertionError(f"new snapshot {stored.name} written: check it and run again")
        return
    assert text + "\n" == stored.read_text(encoding="utf-8"), f"{name}: the screen changed"


def player_column(text: str) -> list[str]:
    return [line[61:] for line in text.splitlines()]


async def test_four_players_at_80x24_over_ssh(tmp_path, bot_executor):
    async with game_server(tmp_path, bot_executor) as game:
        ann = await Player.login(game.port, "ann", size=SIZE)
        lobby = await ann.wait_for(lambda t: "q Quit" in t and "you are guest-ann" in t)
        assert "? Help" in lobby and "Turn" in lobby  # the lobby fits 80x24
        check_text(lobby, "ssh_lobby_80x24")
        ann.press("g")
        await ann.wait_for("Quick game against bots")
        ann.press(KEYS["right"] * 2)  # 4 players
        await ann.wait_for(lambda t: re.search(r"Players\s+◀\s+4\s+▶", t) is not None)
        ann.press(KEYS["down"] + KEYS["left"])  # medium -> easy
        await ann.wait_for(lambda t: re.search(r"Bots\s+◀\s+easy\s+▶", t) is not None)
        ann.press(KEYS["enter"])
        screen = await ann.wait_for(
            lambda t: "turn 1 · your turn" in status(t) and t.count("gem ") == 4
        )
        column = player_column(screen)
        assert sum(bool(re.match(r"\W?gem( +\d+){7}$", line.strip())) for line in column) == 4
        for name in ("guest-ann", "Easy bot 2", "Easy bot 3", "Easy bot 4"):
            assert name in screen
        assert "Bank" in screen and "Hand" in screen and "b Buy" in screen and "? Help" in screen
        check_text(screen, "ssh_table_80x24_4p")
        ann.press("t")  # picking gems: the key line says so
        await ann.wait_for("Pick  ⌫ Put back")
        ann.press("\x1b")
        await ann.wait_for("b Buy")
        ann.press("?")
        helped = await ann.wait_for("Your turn: choose a move")
        assert "Tab ← →: next page" in helped  # the first page of help fits 80x24
        await ann.close()
