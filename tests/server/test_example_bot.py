"""examples/simple_bot.py, a program of its own (asyncssh and msgpack only), plays a whole
game against the server's `medium` bot over the `splendor` subsystem of a real server."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import asyncssh
from gamekit import game_server
from sshkit import host_key

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "simple_bot.py"
LIMIT = 120.0  # seconds the whole game may take, at most


async def test_the_example_program_plays_a_whole_game_against_medium(tmp_path, bot_executor):
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "robo_key"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    async with game_server(tmp_path, bot_executor) as game:
        known = tmp_path / "known_hosts"
        public = host_key().export_public_key().decode().strip()
        known.write_text(f"[127.0.0.1]:{game.port} {public}\n")
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(EXAMPLE),
            "robo@127.0.0.1",
            "-p",
            str(game.port),
            "-i",
            str(key_file),
            "--known-hosts",
            str(known),
            "--quick",
            "medium",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": ""},  # not our packages: its own imports only
        )
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), LIMIT)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        said = out.decode()
        assert proc.returncode == 0, said
        assert "logged in as robo, protocol 3" in said
        assert "game over:" in said
        recent = (await game.host.store.profile("robo")).recent
        assert len(recent) == 1 and recent[0].status == "finished"
