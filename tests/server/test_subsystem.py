"""The `splendor` SSH subsystem over a real server and the real host (docs/protocol.md):
the handshake, the game through it, the terminal's caps, and hostile streams that close
their own channel and nothing else."""

from __future__ import annotations

from collections.abc import Callable

import asyncssh
import msgpack
import pytest
from gamekit import game_server, login
from hostkit import pick
from sshkit import connect
from wirekit import Wire

from shared.codec import FORMAT_VERSION
from shared.protocol import (
    PROTOCOL_VERSION,
    Bye,
    Hello,
    Join,
    LobbyList,
    PlayMove,
    Quick,
    Say,
    TableUpdate,
    Welcome,
    Where,
)


def envelope(msg: object) -> bytes:
    """Any map in the codec's envelope, as a hostile client could send it."""
    return msgpack.packb([FORMAT_VERSION, "msg", msg])


def is_bye(m: object) -> bool:
    return isinstance(m, Bye)


def decision(m: object) -> bool:
    return isinstance(m, TableUpdate) and bool(m.view.legal_moves)


def after(turn: int) -> Callable[[object], bool]:
    return lambda m: isinstance(m, TableUpdate) and m.view.turn > turn


async def test_hello_is_welcomed_and_a_game_is_played_over_the_subsystem(
    tmp_path, bot_executor, new_key
):
    async with game_server(tmp_path, bot_executor) as game:
        conn = await connect(game.port, "ann", new_key)
        wire = await Wire.open(conn, Hello((1, 2, PROTOCOL_VERSION), "test 1.0"))
        welcome = await wire.wait(lambda m: isinstance(m, Welcome))
        assert (welcome.name, welcome.guest, welcome.protocol) == ("ann", False, PROTOCOL_VERSION)
        assert await wire.wait(lambda m: isinstance(m, Where)) == Where()
        await wire.wait(lambda m: isinstance(m, LobbyList))
        wire.send(Quick(players=2, level="easy"))
        at = await wire.wait(lambda m: isinstance(m, Where) and m.screen == "table")
        assert at.seat == 0
        for _ in range(3):  # three moves of ours, each answered with a view after it
            update = await wire.wait(decision)
            wire.send(PlayMove(pick(update.view)))
            await wire.wait(after(update.view.turn))
        stored = await game.host.store.load_game(at.table)
        assert stored is not None and len(stored.moves) >= 3
        conn.close()


async def test_an_unknown_version_gets_one_clear_line_and_the_connection_stays(
    tmp_path, bot_executor, new_key
):
    async with game_server(tmp_path, bot_executor) as game:
        conn = await connect(game.port, "ann", new_key)
        old = await Wire.open(conn, Hello((1,), "old"))
        bye = await old.wait(is_bye)
        assert bye.text == (
            f"this server speaks protocol version {PROTOCOL_VERSION}, your client 1: "
            "update the client to play"
        )
        await old.closed()
        assert old.session.exit_status == 1
        newer = await Wire.open(conn, Hello((PROTOCOL_VERSION + 1,)))
        assert "update the server" in (await newer.wait(is_bye)).text
        ok = await Wire.open(conn)  # the same connection still plays
        await ok.wait(lambda m: isinstance(m, Welcome))
        conn.close()


HOSTILE = [
    ("not a hello", Say("hi"), "the first message must be a hello"),
    ("huge", envelope({"t": "hello", "versions": [3], "client": "x" * 20_000}), "more than"),
    ("deep", envelope({"t": "hello", "versions": [[[[[[[[[3]]]]]]]]]}), "nested more than"),
    ("wrong type", envelope({"t": "hello", "versions": "3"}), "versions should be"),
    ("not msgpack", b"\xc1\xc1\xc1", "not valid msgpack"),
    ("no message", msgpack.packb(7), "top level should be a list"),
]


@pytest.mark.parametrize(("what", "data", "said"), HOSTILE, ids=[h[0] for h in HOSTILE])
async def test_a_hostile_first_object_closes_only_its_channel(
    tmp_path, bot_executor, new_key, what, data, said
):
    async with game_server(tmp_path, bot_executor) as game:
        player = await login(game.port, "bob")  # a terminal player beside it
        await player.wait_for("Splendor lobby")
        conn = await connect(game.port, "ann", new_key)
        wire = await Wire.open(conn, hello=None)
        wire.send(data)
        bye = await wire.wait(is_bye)
        assert said in bye.text and bye.text.startswith("refused: ")
        await wire.closed()
        ok = await Wire.open(conn)
        await ok.wait(lambda m: isinstance(m, Welcome))
        player.press("t")  # the terminal still answers
        await player.wait_for("say")
        conn.close()


async def test_wrong_types_and_a_flood_after_the_hello_close_only_that_channel(
    tmp_path, bot_executor, new_key
):
    async with game_server(tmp_path, bot_executor) as game:
        conn = await connect(game.port, "ann", new_key)
        typed = await Wire.open(conn)
        await typed.wait(lambda m: isinstance(m, LobbyList))
        typed.send(envelope({"t": "join", "table": 5}))
        assert "table should be text" in (await typed.wait(is_bye)).text
        await typed.closed()
        flood = await Wire.open(conn)
        await flood.wait(lambda m: isinstance(m, LobbyList))
        flood.send(b"".join(envelope({"t": "join", "table": "nope"}) for _ in range(300)))
        assert "messages a second" in (await flood.wait(is_bye)).text
        await flood.closed()
        calm = await Wire.open(conn)
        await calm.wait(lambda m: isinstance(m, LobbyList))
        calm.send(Join("nope"))  # a refusal of the host is a notice, not a close
        await calm.wait(lambda m: type(m).__name__ == "Notice")
        assert not calm.session.closed.is_set()
        conn.close()


async def test_a_subsystem_channel_counts_against_the_sessions_caps(
    tmp_path, bot_executor, new_key
):
    async with game_server(tmp_path, bot_executor, max_sessions_per_identity=2) as game:
        conn = await connect(game.port, "ann", new_key)
        first, second = await Wire.open(conn), await Wire.open(conn)
        for wire in (first, second):
            await wire.wait(lambda m: isinstance(m, Welcome))
        with pytest.raises(asyncssh.ChannelOpenError, match="ann already has 2 sessions"):
            await Wire.open(conn)
        with pytest.raises(asyncssh.ChannelOpenError):  # other subsystems stay refused
            await conn.create_session(asyncssh.SSHClientSession, subsystem="sftp")
        conn.close()


async def test_a_guest_plays_on_the_subsystem_and_a_banned_name_never_gets_there(
    tmp_path, bot_executor, new_key
):
    async with game_server(tmp_path, bot_executor) as game:
        guest = await Wire.open(await connect(game.port, "bob"))  # no key: the guest door
        welcome = await guest.wait(lambda m: isinstance(m, Welcome))
        assert (welcome.name, welcome.guest) == ("guest-bob", True)
        await game.host.store.ban("mallory", "spam")
        with pytest.raises(asyncssh.PermissionDenied, match="banned here"):
            await connect(game.port, "mallory", new_key)
