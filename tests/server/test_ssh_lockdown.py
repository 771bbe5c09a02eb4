"""Deny by default: every channel type and request but an interactive session is
refused, and the caps hold."""

from __future__ import annotations

import asyncio
import logging
import subprocess

import asyncssh
import pytest
from asyncssh.packet import Boolean, String, UInt32
from sshkit import WAIT, KeylessClient, Player, connect, running_server

from server.front.ssh import CIPHERS, KEX_ALGS


async def test_exec_is_refused_with_one_line_and_status_1(server, new_key, caplog):
    caplog.set_level(logging.INFO, logger="splendor.ssh")
    conn = await connect(server.port, "Bob", new_key)  # the hint keeps the name as typed
    play = f"ssh -t -p {server.port} Bob@127.0.0.1"
    answers = {
        None: f"this server needs an interactive terminal: {play}",  # ssh host cmd
        "xterm": f"commands are not run here; to play: {play}",  # ssh -t host cmd
    }
    for term_type, line in answers.items():
        result = await conn.run("cat /etc/passwd", term_type=term_type, encoding=None)
        assert result.exit_status == 1
        assert line.encode() in (result.stderr or b"") + (result.stdout or b"")
        assert b"root:" not in (result.stdout or b"")
    assert server.host.links == []  # no app ever ran
    assert caplog.text.count("bob: command refused: 'cat /etc/passwd'") == 2
    assert "session ended" not in caplog.text  # a refusal is one line
    conn.close()


async def test_sftp_and_other_subsystems_are_refused(server, new_key):
    conn = await connect(server.port, "ann", new_key)
    with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError)):
        await conn.start_sftp_client()
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_session(asyncssh.SSHClientSession, subsystem="anything")
    conn.close()


async def test_port_forwarding_is_refused_both_ways(server, new_key):
    conn = await connect(server.port, "ann", new_key)
    with pytest.raises(asyncssh.ChannelOpenError) as refused:  # ssh -L / -D
        await conn.open_connection("127.0.0.1", server.port)
    assert "port forwarding is disabled" in refused.value.reason
    with pytest.raises(asyncssh.ChannelListenError):  # ssh -R
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
    with pytest.raises(asyncssh.ChannelOpenError):  # UNIX sockets, either way
        await conn.open_unix_connection("/run/anything.sock")
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_path("/tmp/splendor-test.sock", "/tmp/x.sock")
    with pytest.raises(asyncssh.ChannelOpenError):  # tun/tap
        await conn.open_tun()
    conn.close()


async def test_agent_and_x11_forwarding_are_refused(server, new_key):
    player = await Player.login(server.port, "ann", new_key)
    await player.wait_for("hello ann")
    chan = player.chan
    assert not await chan._make_request(b"auth-agent-req@openssh.com")
    cookie = String(b"MIT-MAGIC-COOKIE-1"), String(b"00" * 16), UInt32(0)
    assert not await chan._make_request(b"x11-req", Boolean(False), *cookie)
    (session,) = server.service.sessions.live
    assert session._chan.get_agent_path() is None
    assert session._chan.get_x11_display() is None
    player.press("k")  # the session itself goes on
    await player.wait_for("keys: k")
    await player.close()


async def test_sessions_per_identity_are_capped(tmp_path, new_key):
    async with running_server(tmp_path, max_sessions_per_identity=2) as server:
        conn = await connect(server.port, "ann", new_key)
        players = [await Player.open(conn), await Player.open(conn)]
        with pytest.raises(asyncssh.ChannelOpenError) as refused:
            await Player.open(conn)
        assert "ann already has 2 sessions open" in refused.value.reason
        players[0].press("q")
        await players[0].closed()
        await server.settle(lambda: len(server.service.sessions.live) == 1)
        third = await Player.open(conn)  # a freed slot is free again
        await third.wait_for("hello ann")
        conn.close()


async def test_sessions_per_address_are_capped(tmp_path, new_key):
    async with running_server(tmp_path, max_sessions_per_address=2) as server:
        a = await Player.login(server.port, "ann", new_key)
        b = await Player.login(server.port, "bob", new_key)
        with pytest.raises(asyncssh.ChannelOpenError) as refused:
            await Player.login(server.port, "cat", new_key)
        assert "too many sessions from 127.0.0.1" in refused.value.reason
        await a.close()
        await b.close()


async def test_unauthenticated_connections_are_capped(tmp_path, new_key):
    async with running_server(tmp_path, max_unauthenticated=2) as server:
        idle = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(2)]
        await server.settle(lambda: server.service.gate.unauthenticated == 2)
        with pytest.raises((asyncssh.Error, OSError)):
            await connect(server.port, "ann", new_key)
        for _, writer in idle:
            writer.close()
        await server.settle(lambda: server.service.gate.unauthenticated == 0)
        player = await Player.login(server.port, "ann", new_key)  # room again
        await player.wait_for("hello ann")
        await player.close()


async def test_connections_per_address_are_capped(tmp_path, new_key):
    async with running_server(tmp_path, max_connections_per_address=2) as server:
        conns = [await connect(server.port, n, new_key) for n in ("ann", "bob")]
        with pytest.raises((asyncssh.Error, OSError)):
            await connect(server.port, "cat", new_key)
        for conn in conns:
            conn.close()


async def test_a_silent_login_times_out(tmp_path):
    async with running_server(tmp_path, login_timeout=0.3) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"SSH-2.0-silent\r\n")
        data = await asyncio.wait_for(reader.read(), 5.0)  # the server hangs up
        assert data.startswith(b"SSH-2.0-Splendor")
        writer.close()
        await server.settle(lambda: server.service.gate.unauthenticated == 0)


async def test_key_exchange_offers_curve25519_first(server, new_key):
    assert KEX_ALGS[0] == "curve25519-sha256"
    assert not any(alg.endswith("sha1") or alg.startswith("gss") for alg in KEX_ALGS)
    conn = await connect(server.port, "ann", new_key, kex_algs=["curve25519-sha256"])
    conn.close()


async def test_openssh_gets_aes_and_a_client_offering_only_chacha20_is_refused(server, new_key):
    """The server offers AES only (`server.front.ssh.CIPHERS`: asyncssh's ChaCha20 costs the
    server CPU on every frame); a client offering OpenSSH's own default order (asked of
    the `ssh` here) lands on the first AES cipher of it (aes128-ctr)."""
    settings = subprocess.run(
        ["ssh", "-F", "/dev/null", "-G", "localhost"], capture_output=True, text=True, check=True
    ).stdout
    openssh = next(line for line in settings.splitlines() if line.startswith("ciphers "))
    offered = openssh.split()[1].split(",")
    expected = next(c for c in offered if c in CIPHERS)
    assert expected.startswith("aes")
    conn = await connect(server.port, "ann", new_key, encryption_algs=offered)
    assert conn.get_extra_info("send_cipher") == expected
    assert conn.get_extra_info("recv_cipher") == expected
    if expected.endswith("-ctr"):  # GCM needs no MAC of its own; CTR gets encrypt-then-MAC
        assert conn.get_extra_info("send_mac").endswith("-etm@openssh.com")
    conn.close()
    with pytest.raises(asyncssh.KeyExchangeFailed):
        await connect(
            server.port, "ann", new_key, encryption_algs=["chacha20-poly1305@openssh.com"]
        )
    await server.settle(lambda: not server.service.gate.connections)


# -- logged in, no session: ssh -N ----------------------------------------------------------

# The login timeout of these tests. It bounds the handshake too (asyncssh's own timer, from
# the TCP connect to a good signature): a few milliseconds here, but once over a second on
# a loaded CI machine, so it is kept well above that.
LOGIN = 3.0


async def test_a_login_that_opens_no_session_is_closed(tmp_path, new_key, caplog):
    caplog.set_level(logging.INFO, logger="splendor.ssh")
    async with running_server(tmp_path, login_timeout=LOGIN) as server:
        client = KeylessClient()
        conn = await connect(server.port, "eve", new_key, client=client)  # ssh -N: opens nothing
        await asyncio.wait_for(conn.wait_closed(), WAIT)
        assert client.lost is None  # a disconnect "by application", not a dropped line
        line = f"eve from 127.0.0.1: no session within {LOGIN:g} s of logging in; connection closed"
        assert line in caplog.text
        await server.settle(lambda: not server.service.gate.connections)
        assert not server.service.gate.idle


async def test_a_session_opened_after_the_login_timeout_is_too_late(tmp_path, new_key):
    async with running_server(tmp_path, login_timeout=LOGIN) as server:
        conn = await connect(server.port, "eve", new_key)
        await server.settle(lambda: not server.service.gate.connections)  # closed by then
        with pytest.raises((asyncssh.Error, OSError)):
            await Player.open(conn)
        assert server.service.sessions.live == set()


async def test_a_connection_whose_sessions_ended_is_closed_when_idle(tmp_path, new_key, caplog):
    caplog.set_level(logging.INFO, logger="splendor.ssh")
    async with running_server(tmp_path, login_timeout=LOGIN) as server:
        conn = await connect(server.port, "ann", new_key)
        player = await Player.open(conn)
        await player.wait_for("hello ann")
        await asyncio.sleep(LOGIN + 1.0)  # past the login timeout: an open session keeps it
        player.press("k")
        await player.wait_for("keys: k")
        assert server.service.gate.idle == set()
        second = await Player.open(conn)  # a session ending while another is open...
        await second.wait_for("hello ann")
        second.press("q")
        await second.closed()
        await asyncio.sleep(LOGIN + 1.0)
        player.press("j")  # ...leaves the connection busy
        await player.wait_for("keys: k j")
        player.press("q")  # the last one ends
        await player.closed()
        await asyncio.wait_for(conn.wait_closed(), WAIT)
        line = f"no session within {LOGIN:g} s of its last session; connection closed"
        assert f"ann from 127.0.0.1: {line}" in caplog.text


async def test_idle_logins_are_capped(tmp_path, new_key, caplog):
    caplog.set_level(logging.INFO, logger="splendor.ssh")
    async with running_server(tmp_path, max_idle_logins=1) as server:
        idle = await connect(server.port, "ann", new_key)
        await server.settle(lambda: len(server.service.gate.idle) == 1)
        client = KeylessClient()
        refused = await connect(server.port, "bob", new_key, client=client)  # logged in...
        await asyncio.wait_for(refused.wait_closed(), WAIT)  # ...then the server hangs up
        assert "the server is busy" in client.lost.reason
        line = "login bob from 127.0.0.1 refused: 1 logged-in connections have no session open"
        assert line in caplog.text
        player = await Player.open(idle)  # ann opens a session: she is not idle any more
        await player.wait_for("hello ann")
        assert server.service.gate.idle == set()
        bob = await Player.login(server.port, "bob", new_key)  # room again
        await bob.wait_for("hello bob")
        await bob.close()
        await player.close()
