"""Refusals before a session's app runs, in the player's language (issue 34): at login
and when a channel opens the SSH client's LANG has not come yet, so a key that owns its
name hears its saved language, anyone else the server's `default_language`
(server/front/refusals.py; docs/design.md, "Languages" and P19). The catalogs are the
project's own."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import asyncssh
import pytest
from sshkit import WAIT, KeylessClient, Player, connect, running_server

CS_BANNED = "jméno „mal“ nebo klíč, se kterým se připojujete, tu má zákaz (spam v chatu)"
EN_BANNED = "the name 'mal', or the key you connect with, is banned here (spam v chatu)"


async def claim(server, name: str, key: asyncssh.SSHKey) -> None:  # type: ignore[no-untyped-def]
    """`name` logs in once with `key`, which makes the key its owner."""
    player = await Player.login(server.port, name, key)
    await player.wait_for(f"hello {name} guest=False")
    await player.close()


async def test_a_banned_player_is_told_in_their_saved_language(tmp_path, new_key) -> None:
    async with running_server(tmp_path) as server:
        await claim(server, "mal", new_key)
        await server.store.set_language("mal", "cs")
        await server.store.ban("mal", "spam v chatu")
        client = KeylessClient()
        with pytest.raises(asyncssh.PermissionDenied) as refused:
            await connect(server.port, "mal", new_key, client=client)
        assert refused.value.reason == CS_BANNED
        assert client.banners == [CS_BANNED + "\r\n"]  # what OpenSSH prints unescaped (P19)


async def test_another_key_is_not_told_the_names_saved_language(tmp_path, new_key) -> None:
    """The saved language is the name's owner's: a key that does not own the name (here a
    banned name's, then an owned name's) hears the server's default."""
    async with running_server(tmp_path, default_language="en") as server:
        await claim(server, "mal", new_key)
        await claim(server, "ann", new_key)
        for name in ("mal", "ann"):
            await server.store.set_language(name, "cs")
        await server.store.ban("mal", "spam v chatu")
        other = asyncssh.generate_private_key("ssh-ed25519")
        with pytest.raises(asyncssh.PermissionDenied) as refused:
            await connect(server.port, "mal", other)
        assert refused.value.reason == EN_BANNED
        with pytest.raises(asyncssh.PermissionDenied) as refused:
            await connect(server.port, "ann", other)  # the guest door: the name is owned
        assert refused.value.reason.startswith("the name 'ann' belongs to another player's")


async def test_english_stays_english_and_says_no_banner(tmp_path, new_key) -> None:
    async with running_server(tmp_path, max_sessions=1) as server:
        await claim(server, "mal", new_key)
        await server.store.ban("mal", "spamming")
        client = KeylessClient()
        with pytest.raises(asyncssh.PermissionDenied) as refused:
            await connect(server.port, "mal", new_key, client=client)
        assert refused.value.reason == (
            "the name 'mal', or the key you connect with, is banned here (spamming)"
        )
        assert client.banners == []  # plain ASCII: the reason alone reads well
        ann = await Player.login(server.port, "ann")
        await ann.wait_for("hello guest-ann")
        with pytest.raises(asyncssh.ChannelOpenError) as full:
            await Player.login(server.port, "bob")
        assert full.value.reason == "the server is full; try again later"
        await ann.close()


async def test_a_full_server_tells_a_guest_in_its_default_language(tmp_path) -> None:
    async with running_server(tmp_path, max_sessions=1, default_language="hu") as server:
        ann = await Player.login(server.port, "ann")
        await ann.wait_for("hello guest-ann")
        with pytest.raises(asyncssh.ChannelOpenError) as full:
            await Player.login(server.port, "bob", env={"LANG": "cs_CZ.UTF-8"})
        assert full.value.reason == "a szerver megtelt; próbáld újra később"
        await ann.close()


async def test_a_cap_is_said_in_the_saved_language_with_its_plural(tmp_path, new_key) -> None:
    async with running_server(tmp_path, max_sessions_per_identity=2) as server:
        await claim(server, "ann", new_key)
        await server.store.set_language("ann", "cs")
        conn = await connect(server.port, "ann", new_key)
        players = [await Player.open(conn), await Player.open(conn)]
        for _ in range(2):  # the language is looked up once per connection
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await Player.open(conn)
            assert refused.value.reason == "ann už má otevřená 2 sezení"
        for player in players:
            await player.wait_for("hello ann")
        conn.close()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client")
async def test_openssh_shows_a_refusal_at_login_readable(tmp_path: Path, new_key) -> None:
    """OpenSSH escapes a disconnect's reason outside ASCII but prints a banner as it came:
    a Czech player reads the ban in Czech (P19)."""
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(new_key.export_private_key())
    key_file.chmod(0o600)
    async with running_server(tmp_path) as server:
        await claim(server, "mal", new_key)
        await server.store.set_language("mal", "cs")
        await server.store.ban("mal", "spam v chatu")
        options = ["-F", "/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes"]
        options += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
        ssh = await asyncio.create_subprocess_exec(
            "ssh",
            *options,
            "-i",
            str(key_file),
            "-p",
            str(server.port),
            "mal@127.0.0.1",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env={"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8", "HOME": str(tmp_path)},
        )
        try:
            _, err = await asyncio.wait_for(ssh.communicate(), WAIT)
        finally:
            if ssh.returncode is None:
                ssh.kill()
                await ssh.wait()
        said = err.decode("utf-8")
        assert ssh.returncode == 255
        assert CS_BANNED in said.splitlines()
