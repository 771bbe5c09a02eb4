"""Who a connection becomes: names, keys, guests, and the classic bypass."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from hostkit import write_in_progress
from sshkit import WAIT, EchoApp, FakeHost, Player, connect, running_server

from server.front.auth import PlayerAuth
from server.front.config import Config
from server.front.ssh import SSHService, load_host_key
from server.host.identity import guest_key


class PublicOnlyKey(asyncssh.SSHKeyPair):
    """A key pair with someone else's public key and no private key: it can be
    offered (the server answers the query) but cannot sign."""

    def __init__(self, key: asyncssh.SSHKey) -> None:
        super().__init__(
            key.algorithm,
            key.algorithm,
            key.sig_algorithms,
            key.sig_algorithms,
            key.public_data,
            None,
        )

    def sign(self, data: bytes) -> bytes:
        raise ValueError("no private key here")


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def claim(server, name: str, key: asyncssh.SSHKey) -> None:
    """`name` logs in once with `key`, which makes the key its owner."""
    player = await Player.login(server.port, name, key)
    await player.wait_for(f"hello {name} guest=False")
    await player.close()
    assert await server.store.name_owner(name) == fingerprint(key)


async def test_the_first_key_owns_the_name(server, new_key):
    await claim(server, "ann", new_key)
    again = await Player.login(server.port, "ann", new_key)  # the owner comes back
    await again.wait_for("hello ann guest=False")
    assert server.host.links[-1].identity.key == fingerprint(new_key)
    await again.close()


async def test_logins_go_on_while_a_write_holds_the_store(server, new_key):
    """Name look-ups at login read off the event loop, on the store's own read connection:
    neither they nor the loop wait for a commit (another game's fsync)."""
    await claim(server, "ann", new_key)
    async with write_in_progress(server.store) as writer:
        newcomer = asyncio.create_task(Player.login(server.port, "bob", new_key))  # must write
        player = await Player.login(server.port, "ann", new_key)  # a returning player
        await player.wait_for("hello ann guest=False")
        player.press("k")
        await player.wait_for("keys: k")
        assert not writer.done()  # all while the write was still held
    bob = await asyncio.wait_for(newcomer, WAIT)  # bob's claim waited for it, off the loop
    await bob.wait_for("hello bob guest=False")
    assert await server.store.name_owner("bob") == fingerprint(new_key)
    await bob.close()
    await player.close()


async def test_another_key_with_an_owned_name_is_refused_with_a_clear_message(server, new_key):
    await claim(server, "ann", new_key)
    other = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await connect(server.port, "ann", other)
    assert "the name 'ann' belongs to another player's SSH key" in refused.value.reason
    assert f"pick another name: ssh -p {server.port} NAME@127.0.0.1" in refused.value.reason
    assert await server.store.name_owner("ann") == fingerprint(new_key)
    with pytest.raises(asyncssh.PermissionDenied):  # a client that only tries keys
        await connect(server.port, "ann", other, guest=False)


async def test_offering_the_victims_public_key_then_logging_in_as_guest_is_a_guest(
    server, new_key, monkeypatch
):
    """The classic bypass: the server accepts the key *query* for the victim's key;
    the client cannot sign, falls back to keyboard-interactive, and must end up a
    guest, never the victim."""
    victim = new_key
    await claim(server, "vic", victim)
    answers: list[tuple[str, bool]] = []
    check = PlayerAuth.validate_public_key

    async def spy(self: PlayerAuth, username: str, key: asyncssh.SSHKey) -> bool:
        answers.append((fingerprint(key), ok := await check(self, username, key)))
        return ok

    monkeypatch.setattr(PlayerAuth, "validate_public_key", spy)
    conn = await connect(server.port, "vic", PublicOnlyKey(victim))
    assert answers == [(fingerprint(victim), True)]  # the query was answered "yes"
    player = await Player.open(conn)
    screen = await player.wait_for("hello")
    assert "hello guest-vic guest=True" in screen
    identity = server.host.links[-1].identity
    assert (identity.name, identity.guest) == ("guest-vic", True)
    assert identity.key == guest_key("127.0.0.1", server.service.gate.guest_secret)  # not vic's
    assert await server.store.name_owner("vic") == fingerprint(victim)
    await player.close()


async def test_the_bypass_without_guests_is_refused(tmp_path, new_key):
    async with running_server(tmp_path, allow_guests=False) as server:
        await claim(server, "vic", new_key)
        with pytest.raises(asyncssh.PermissionDenied) as refused:
            await connect(server.port, "vic", PublicOnlyKey(new_key))
        assert "SSH key only" in refused.value.reason


async def test_an_offered_key_never_claims_a_free_name(server, new_key):
    conn = await connect(server.port, "newbie", PublicOnlyKey(new_key))
    player = await Player.open(conn)
    await player.wait_for("hello guest-newbie guest=True")
    assert await server.store.name_owner("newbie") is None
    await player.close()


async def test_offered_then_own_key_binds_the_signed_key(server, new_key):
    victim = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncssh.connect(
        "127.0.0.1",
        server.port,
        username="zed",
        known_hosts=None,
        agent_path=None,
        client_keys=[PublicOnlyKey(victim), new_key],
        preferred_auth="publickey",
    )
    player = await Player.open(conn)
    await player.wait_for("hello zed guest=False")
    assert await server.store.name_owner("zed") == fingerprint(new_key)
    assert server.host.links[-1].identity.key == fingerprint(new_key)
    await player.close()


async def test_offered_victim_key_then_own_key_cannot_take_an_owned_name(server, new_key):
    await claim(server, "vic", new_key)
    mine = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username="vic",
            known_hosts=None,
            agent_path=None,
            client_keys=[PublicOnlyKey(new_key), mine],
            preferred_auth="publickey",
        )
    assert await server.store.name_owner("vic") == fingerprint(new_key)


async def test_guests_get_a_marked_name_that_claims_nothing(server):
    ann = await Player.login(server.port, "ann")
    ann2 = await Player.login(server.port, "ann")  # a different keyless "ann"
    assert "hello guest-ann guest=True" in await ann.wait_for("hello")
    assert "hello guest-ann2 guest=True" in await ann2.wait_for("hello")
    assert await server.store.name_owner("ann") is None
    # A guest holds only a keyed digest of its address: a held seat goes back to that
    # address. The address cannot be read back from it, and a restart keeps it.
    keys = {link.identity.key for link in server.host.links}
    assert keys == {guest_key("127.0.0.1", server.service.gate.guest_secret)}
    assert not any("127.0.0.1" in str(k) for k in keys)
    assert guest_key("127.0.0.1", b"another server") not in keys
    await ann.close()
    await ann2.close()


async def test_guests_refused_when_the_server_says_so(tmp_path):
    async with running_server(tmp_path, allow_guests=False) as server:
        with pytest.raises(asyncssh.PermissionDenied) as refused:
            await connect(server.port, "ann")
        assert "ssh-keygen -t ed25519" in refused.value.reason


@pytest.mark.parametrize(
    "name", ["a", "x" * 17, "ann smith", "ann!", "9lives", "guest-ann", "guest", "ünï", "-ann"]
)
async def test_bad_names_are_refused_with_the_rule(server, new_key, name):
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await connect(server.port, name, new_key)
    assert "can't be a player name here" in refused.value.reason


async def test_names_are_case_insensitive(server, new_key):
    player = await Player.login(server.port, "Ann", new_key)
    await player.wait_for("hello ann guest=False")
    await player.close()
    other = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, "ANN", other)


async def test_too_many_key_attempts_end_the_login(server, new_key):
    await claim(server, "ann", new_key)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(12)]
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username="ann",
            known_hosts=None,
            agent_path=None,
            client_keys=keys,
        )
    assert "too many authentication attempts" in refused.value.reason


def test_guests_keep_their_seats_across_a_restart(tmp_path):
    """The secret behind guests' address digests comes from the host key on disk, so a
    restarted server (the key read back from its file) gives a guest the same digest."""
    config = Config(host="127.0.0.1", port=0, data_dir=str(tmp_path))
    secrets = []
    for _ in range(2):  # the first makes the host key, the second reads it back
        service = SSHService(config, FakeHost(), None, EchoApp, load_host_key(tmp_path))
        secrets.append(service.gate.guest_secret)
    assert secrets[0] == secrets[1] and len(secrets[0]) == 32
    assert guest_key("192.0.2.1", secrets[0]) == guest_key("192.0.2.1", secrets[1])


async def test_a_banned_name_is_refused_at_login_with_the_reason(server, new_key):
    await claim(server, "mal", new_key)
    await server.store.ban("mal", "spamming the chat")
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await Player.login(server.port, "mal", new_key)
    assert "the name 'mal', or the key you connect with, is banned here (spamming the chat)" in str(
        refused.value
    )
    with pytest.raises(asyncssh.PermissionDenied) as refused:  # the same key, another name
        await Player.login(server.port, "mallory", new_key)
    assert "banned here (spamming the chat)" in str(refused.value)
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await Player.login(server.port, "mal")  # no key: a guest of the banned name
    assert "banned here" in str(refused.value)
    assert await server.store.unban("mal")
    back = await Player.login(server.port, "mal", new_key)  # admitted again
    await back.wait_for("hello mal guest=False")
    await back.close()
