"""examples/simple_bot.py, a program of its own (asyncssh and msgpack only), over the
`splendor` subsystem of a real server: a whole rated game against the server's `medium`
bot, and a whole game at a terminal player's table; its name marked as a program's
(`splendor-server bot-account`) shows with the bots' mark, and a human may hide the
tables where a program plays."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import asyncssh
from gamekit import KEYS, game_server, login, play_to_end, status
from sshkit import host_key
from test_ssh_invite import create_inviting

from client.club import ranked_cells
from server.commands.admin import bot_account
from shared.protocol import Ranked, TableUpdate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "simple_bot.py"
LIMIT = 120.0  # seconds a whole game may take, at most


async def start_bot(tmp: Path, port: int, *options: str) -> asyncio.subprocess.Process:
    """The example as its own process, logged in as robo with a key of its own."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp / "robo_key"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    known = tmp / "known_hosts"
    known.write_text(f"[127.0.0.1]:{port} {host_key().export_public_key().decode().strip()}\n")
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(EXAMPLE),
        "robo@127.0.0.1",
        "-p",
        str(port),
        "-i",
        str(key_file),
        "--known-hosts",
        str(known),
        *options,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": ""},  # not our packages: its own imports only
    )


async def finish(proc: asyncio.subprocess.Process) -> str:
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), LIMIT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    said = out.decode()
    assert proc.returncode == 0, said
    assert "logged in as robo, protocol 3" in said and "game over:" in said
    return said


def robo_seat(update: Any) -> Any:
    return next(s for s in update.seats if s.name == "robo")


async def test_the_example_program_plays_a_whole_rated_game_against_medium(tmp_path, bot_executor):
    async with game_server(tmp_path, bot_executor) as game:
        said = await bot_account(game.host.store, "robo", True)
        assert said.startswith("robo is a program's name (no key owns it yet: the first does)")
        await finish(await start_bot(tmp_path, game.port, "--quick", "medium", "--rated"))
        profile = await game.host.store.profile("robo")
        assert len(profile.recent) == 1 and profile.recent[0].status == "finished"
        assert profile.standing is not None and profile.standing.games == 1  # rated
        update = [m for m in game.tap.latest("robo").messages if isinstance(m, TableUpdate)][-1]
        assert robo_seat(update).program  # the bots' mark, for everyone at the table
        [row] = [s for s in await game.host.store.leaderboard(10) if s.player == "robo"]
        ranked = Ranked(row.rank, row.player, row.shown, row.games, row.wins, row.last, row.program)
        assert ranked_cells(ranked, "ann")[1] == "⚙ robo"  # on the leaderboard too


async def test_the_example_program_joins_a_humans_table_and_plays_it_to_the_end(
    tmp_path, bot_executor
):
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    async with game_server(tmp_path, bot_executor) as game:
        await game.host.store.mark_program("robo")
        ann, carol = await login(game.port, "ann", ann_key), await login(game.port, "carol")
        await ann.wait_for("you are ann")
        ann.press("c")
        await ann.wait_for("Create a table")
        ann.press(KEYS["enter"])  # two seats, the other open
        await ann.wait_for(lambda t: "waiting" in t)
        bot = await start_bot(tmp_path, game.port)  # it sits at the first open seat
        await ann.wait_for("ann, ⚙ robo")
        await carol.wait_for("ann, ⚙ robo")
        carol.press("h")  # humans only: the table goes from carol's list
        await carol.wait_for(lambda t: "humans only" in t and "⚙ robo" not in t)
        carol.press("h")
        await carol.wait_for("ann, ⚙ robo")
        ann.press("s")
        await ann.wait_for(lambda t: "turn 1 ·" in status(t))
        await ann.wait_for("⚙ robo")  # its panel at the table
        final = await play_to_end(ann, game.tap.latest("ann"))
        assert final.is_over
        await finish(bot)


async def test_the_example_program_accepts_an_invitation_and_plays_the_game(tmp_path, bot_executor):
    """robo waits in the lobby (no open seat anywhere); ann creates a table with seat 2
    "a player: robo" by keys; robo hears of it, accepts with `join`, and they play it out."""
    async with game_server(tmp_path, bot_executor) as game:
        await game.host.store.mark_program("robo")
        bot = await start_bot(tmp_path, game.port)
        for _ in range(500):  # its key owns the name once it has logged in
            if "robo" in game.tap.records and await game.host.store.name_owner("robo"):
                break
            await asyncio.sleep(0.02)
        ann = await login(game.port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
        await ann.wait_for("you are ann")
        await create_inviting(ann, "robo")
        await ann.wait_for(lambda t: "⚙ robo" in t and "s starts the game" in t)
        ann.press("s")
        await ann.wait_for(lambda t: "turn 1 ·" in status(t))
        final = await play_to_end(ann, game.tap.latest("ann"))
        assert final.is_over
        said = await finish(bot)
        assert "the host says: ann invites you to table" in said
