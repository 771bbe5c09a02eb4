"""The SSH front door: who may come in, as whom, and nothing but interactive sessions.

`PlayerAuth` (the asyncssh `SSHServer` subclass, one per connection) only
authenticates: the SSH username is the player's name; the first public key
that logs in with a name owns it; a keyless login (keyboard-interactive)
plays as a guest under a marked name, when the server allows guests. The
identity is bound only once authentication has succeeded, from the method
that succeeded: a key that was merely offered (asyncssh asks
`validate_public_key` before any signature) never makes anyone its owner.
Everything is denied unless allowed: no exec, no subsystem but the game's own
(`splendor`, `server.front.channel`), no forwarding of any kind, agent or X11.
A logged-in connection must keep a session open: one with
none for `login_timeout` is closed (`server.front.gate`). Sessions are
`server.front.session`'s business.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any, Protocol

import asyncssh

from shared.i18n import Text
from shared.text import safe_text

from ..host.identity import Identity, check_name, guest_key, guest_secret
from ..host.table import BUSY
from ..store import StoreUnavailable
from .bridge import AppFactory, Host
from .config import Config
from .gate import Gate
from .session import GameSession, Sessions

log = logging.getLogger("splendor.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
MAX_REASON = 200  # characters of a ban's reason a refused player is told
# Dropbear's client is dropped during key exchange unless this comes first (docs/design.md, P9);
# OpenSSH still gets its own first choice. No SHA-1, no GSS.
KEX_ALGS = [
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
    "mlkem768x25519-sha256",
    "curve448-sha512",
    "ecdh-sha2-nistp521",
    "ecdh-sha2-nistp384",
    "ecdh-sha2-nistp256",
    "diffie-hellman-group-exchange-sha256",
    "diffie-hellman-group16-sha512",
    "diffie-hellman-group18-sha512",
    "diffie-hellman-group14-sha256",
]
# AES only, GCM or CTR (OpenSSH then takes aes128-ctr with an encrypt-then-MAC). asyncssh's
# ChaCha20-Poly1305, OpenSSH's first choice, keys both ciphers afresh for every packet in
# Python, and every frame of every session is a packet: the server's CPU a key fell by
# 6% and the load generator's by 16% without it (README, Capacity).
CIPHERS = [
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
]


class Names(Protocol):
    """Who owns which name (`server.store.Store`)."""

    async def name_owner(self, name: str) -> str | None: ...
    async def claim_name(self, name: str, key_fingerprint: str) -> bool: ...
    async def banned(self, name: str, key: str | None = None) -> str | None: ...
    async def is_program(self, name: str) -> bool: ...
    async def language(self, name: str) -> tuple[str, str | None] | None: ...


class PlayerAuth(asyncssh.SSHServer):
    """One connection's authentication (and only that; sessions go to `Sessions`)."""

    def __init__(self, gate: Gate, names: Names, sessions: Sessions) -> None:
        self.gate = gate
        self.names = names
        self.sessions = sessions
        self.config = gate.config
        self.identity: Identity | None = None
        self.address = "?"
        self.hint = "ssh HOST"  # what a player types to come back here, with the name typed
        self._conn: asyncssh.SSHServerConnection | None = None
        self._name = ""
        self._key: str | None = None  # fingerprint of the key in the latest accepted check
        self._key_refused = False  # a key was refused because another key owns the name
        self._guest = False  # keyboard-interactive succeeded: this login is a guest
        self._ban: str | None = None  # why the name tried is banned, if it is
        self._attempts = 0
        self._ssh, self._host = "ssh ", "HOST"
        self._bound = asyncio.Event()  # set once auth_completed has decided the identity
        self._sessions = 0  # sessions open on this connection now
        self._idle_timer: asyncio.TimerHandle | None = None  # runs while it has none

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Called when a TCP connection arrives; over a cap it is closed at once."""
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        sock = conn.get_extra_info("sockname") or ("localhost", self.config.port)
        host = self.config.public_host or str(sock[0])
        port = int(sock[1])
        self._ssh = "ssh " + (f"-p {port} " if port != 22 else "")
        self._host = host
        self.hint = self._ssh + host
        refusal = self.gate.admit(self)
        if refusal:
            log.warning("connection from %s refused: %s", self.address, refusal)
            conn.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """Called when the connection closes, cleanly or not."""
        self._busy()
        self.gate.release(self)

    async def begin_auth(self, username: str) -> bool:
        """Called when a client starts logging in as `username` (again on a new name).
        True: authentication is required (always). An invalid name is refused with
        a message the client shows; a banned one is noted for the guest door (a key
        is checked with its own ban in `validate_public_key`)."""
        try:
            self._name = check_name(username)
        except ValueError as e:
            log.info("login from %s refused: bad name %r", self.address, username[:40])
            raise asyncssh.PermissionDenied(str(e)) from None
        self._key, self._key_refused, self._guest = None, False, False
        try:
            self._ban = await self.names.banned(self._name)
        except StoreUnavailable:
            self._ban = None  # the key's own check, or the guest's seat, will say busy
        self.hint = f"{self._ssh}{username}@{self._host}"  # the name as typed: it passed
        return True

    def password_auth_supported(self) -> bool:
        """Passwords are never used. False."""
        return False

    def host_based_auth_supported(self) -> bool:
        """Host-based logins are never used. False."""
        return False

    def public_key_auth_supported(self) -> bool:
        """Keys are how players own their names. True."""
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Called for every key the client offers, first without a signature (a query)
        and again with one. True: this key may log in as the name (it owns it or
        nobody does); asyncssh then checks the signature itself. Nothing is bound
        here: the key of the latest accepted check is remembered for
        `auth_completed`, which only follows a good signature of that same key. The
        store's reads never wait for a write, nor block the event loop."""
        self._attempts += 1
        if self._attempts > self.config.max_auth_attempts:
            raise asyncssh.PermissionDenied("too many authentication attempts")
        fingerprint = key.get_fingerprint("sha256")
        try:
            owner = await self.names.name_owner(self._name)
            ban = await self.names.banned(self._name, fingerprint)
        except StoreUnavailable:
            log.warning("login %s from %s: the database is unreachable", self._name, self.address)
            raise asyncssh.PermissionDenied(BUSY.english()) from None  # before any session
        if ban is not None:
            log.info("login %s from %s refused: banned", self._name, self.address)
            raise asyncssh.PermissionDenied(self._banned(ban))
        if owner is None or owner == fingerprint:
            self._key = fingerprint
            return True
        self._key = None
        self._key_refused = True
        return False

    def _banned(self, reason: str) -> str:
        """What a banned player is told (a ban holds the name and the key that owns it)."""
        reason = safe_text(reason, MAX_REASON)  # an admin's words, on the player's terminal
        why = f" ({reason})" if reason else ""
        return f"the name {self._name!r}, or the key you connect with, is banned here{why}"

    def kbdint_auth_supported(self) -> bool:
        """Keyboard-interactive is the guest door, and the route for refusal messages. True."""
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """Called when the client tries keyboard-interactive (after its keys failed or
        when it has none). True logs in a guest with no prompt; otherwise the
        connection ends with the reason, which the client prints."""
        if self._key_refused:
            log.info(
                "login %s from %s refused: name owned by another key", self._name, self.address
            )
            raise asyncssh.PermissionDenied(
                f"the name {self._name!r} belongs to another player's SSH key. Connect with "
                f"that key, or pick another name: {self._ssh}NAME@{self._host}"
            )
        if not self.config.allow_guests:
            raise asyncssh.PermissionDenied(
                "this server admits players with an SSH key only: make one with "
                "'ssh-keygen -t ed25519', then connect again"
            )
        if self._ban is not None:  # a banned name is no guest's either
            log.info("guest %s from %s refused: banned", self._name, self.address)
            raise asyncssh.PermissionDenied(self._banned(self._ban))
        self._guest = True
        return True

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        """No challenge is ever sent, so no response is valid. False."""
        return False

    async def auth_completed(self) -> None:
        """Called once authentication succeeded: bind the identity from the method
        that succeeded (guest, or the signed key, which claims the name)."""
        try:
            await self._bind()
        finally:
            self._bound.set()  # sessions requested meanwhile may go on (or be refused)

    async def _bind(self) -> None:
        conn, key = self._conn, self._key
        assert conn is not None
        program = False  # a program's name (a guest never is one)
        if not self._guest:
            if key is None:  # unreachable: no other login method is enabled
                conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "login refused")
                return
            try:
                claimed = await self.names.claim_name(self._name, key)
            except StoreUnavailable:
                conn.disconnect(asyncssh.DISC_BY_APPLICATION, BUSY.english())
                return
            if not claimed:  # another key claimed the name a moment ago
                conn.disconnect(
                    asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                    f"the name {self._name!r} belongs to another player's SSH key",
                )
                return
            try:
                program = await self.names.is_program(self._name)
            except StoreUnavailable:
                program = False  # shown unmarked this once: it plays all the same
        if self not in self.gate.connections:  # the connection went away meanwhile
            return
        refusal = self.gate.logged_in(self)
        if refusal:
            log.warning("login %s from %s refused: %s", self._name, self.address, refusal)
            conn.disconnect(
                asyncssh.DISC_TOO_MANY_CONNECTIONS, "the server is busy; try again in a minute"
            )
            return
        if self._guest:
            key = guest_key(self.address, self.gate.guest_secret)
            identity = Identity(self.gate.guest_name(self._name), True, key)
            how = "guest"
        else:
            identity = Identity(self._name, False, key, program)
            how = f"key {key}" + (", a program" if program else "")
        self.identity = identity
        log.info("connect %s (%s) from %s", identity.name, how, self.address)
        self._idle("logging in")

    async def session_requested(self) -> GameSession | bool:
        """Called when the client opens a session channel (possibly while
        `auth_completed` is still claiming the name: it waits for that). A game
        session, False, or a ChannelOpenError whose reason the client prints (caps)."""
        try:
            await asyncio.wait_for(self._bound.wait(), self.config.login_timeout)
        except TimeoutError:
            return False
        if self.identity is None:
            return False
        session = self.sessions.open(self.identity, self.address, self.hint, self._session_ended)
        self._sessions += 1
        self._busy()
        return session

    # -- idle logins (server.front.gate) ---------------------------------------------------------

    def _session_ended(self) -> None:
        """Called by each session of this connection once it has ended."""
        self._sessions -= 1
        if self._sessions == 0 and self in self.gate.connections:
            self._idle("its last session")

    def _idle(self, since: str) -> None:
        """No session is open: the gate counts this connection as idle, and it must open one
        within `login_timeout` of `since`, or it is closed."""
        self.gate.idle.add(self)
        delay = self.config.login_timeout
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(delay, self._close_idle, since)

    def _busy(self) -> None:
        """A session is open, or the connection is gone: it is not idle."""
        self.gate.idle.discard(self)
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    def _close_idle(self, since: str) -> None:
        """Called `login_timeout` after the connection became idle, if it still is."""
        self._idle_timer = None
        if self._conn is None or self.identity is None:
            return
        log.info(
            "%s from %s: no session within %g s of %s; connection closed",
            self.identity.name,
            self.address,
            self.config.login_timeout,
            since,
        )
        self._conn.disconnect(asyncssh.DISC_BY_APPLICATION, "no session was opened; goodbye")

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        """Port forwarding from the client (ssh -L, -D): always refused."""
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "port forwarding is disabled"
        )

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """Port forwarding to the client (ssh -R): always refused (False)."""
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        """UNIX socket forwarding: always refused."""
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "forwarding is disabled"
        )

    def unix_server_requested(self, listen_path: str) -> bool:
        """Remote UNIX socket forwarding: always refused (False)."""
        return False


def load_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The server's Ed25519 host key from `data_dir`, made on first start (mode 600)."""
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = data_dir / HOST_KEY_FILE
    if path.exists():
        if path.stat().st_mode & 0o077:
            log.warning("%s is readable by other users; chmod 600 it", path)
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    path.with_name(HOST_KEY_FILE + ".pub").write_bytes(key.export_public_key())
    log.info("new host key %s in %s", key.get_fingerprint("sha256"), path)
    return key


class SSHService:
    """The listening server: `start`, `port`, `stop` (the SIGTERM path)."""

    def __init__(
        self,
        config: Config,
        host: Host,
        names: Names,
        app_factory: AppFactory,
        host_key: asyncssh.SSHKey,
        reuse_port: bool = False,
    ) -> None:
        self.config = config
        self.reuse_port = reuse_port  # other processes listen on the same port (workers)
        self.gate = Gate(config, guest_secret(host_key.export_private_key("pkcs8-der")))
        self.sessions = Sessions(config, host, app_factory)
        self.sessions.saved_language = self._saved_language  # a choice beats the env
        self.names = names
        self.host_key = host_key
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._port: int | None = None

    async def _saved_language(self, name: str) -> tuple[str, str | None] | None:
        return await self.names.language(name)

    def _make_auth(self) -> PlayerAuth:
        return PlayerAuth(self.gate, self.names, self.sessions)

    async def start(self) -> None:
        c = self.config
        self._acceptor = await asyncssh.listen(
            c.host,
            c.port,
            server_factory=self._make_auth,
            server_host_keys=[self.host_key],
            server_version="Splendor",
            encoding=None,  # bytes reach Textual's parser untouched (docs/design.md, P1)
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            gss_host=None,
            host_based_auth=False,
            password_auth=False,
            kbdint_auth=True,
            public_key_auth=True,
            kex_algs=KEX_ALGS,
            encryption_algs=CIPHERS,
            login_timeout=c.login_timeout,
            keepalive_interval=c.keepalive_interval,
            keepalive_count_max=c.keepalive_count_max,
            reuse_address=True,
            reuse_port=self.reuse_port,
        )
        self._port = int(self._acceptor.get_port())
        log.info(
            "listening on %s port %d, host key %s, guests %s",
            c.host,
            self.port,
            self.host_key.get_fingerprint("sha256"),
            "allowed" if c.allow_guests else "refused",
        )

    @property
    def port(self) -> int:
        """The port it listens on (also after `stop`)."""
        assert self._port is not None, "not started"
        return self._port

    def stop_listening(self) -> None:
        """No new connections from now on; the live ones go on."""
        if self._acceptor is not None:
            self._acceptor.close()
        self.sessions.closing = True

    async def stop(self, message: str | Text) -> None:
        """Stop listening, tell every session `message` and end it (each app exited and
        awaited, its terminal restored), then close every connection."""
        self.stop_listening()
        await self.sessions.shutdown(message)
        for auth in list(self.gate.connections):
            if auth._conn is not None:
                auth._conn.close()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
            self._acceptor = None
