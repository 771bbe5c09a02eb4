"""Who may come in, and as whom: `PlayerAuth`, the asyncssh `SSHServer` of one connection.

It only authenticates: the SSH username is the player's name; the first public key that
logs in with a name owns it; a keyless login (keyboard-interactive) plays as a guest
under a marked name, when the server allows guests. The identity is bound only once
authentication has succeeded, from the method that succeeded: a key that was merely
offered (asyncssh asks `validate_public_key` before any signature) never makes anyone
its owner. Bans, the connection caps (`server.front.gate`) and a logged-in connection
that opens no session within `login_timeout` are refused here too; forwarding of any
kind is refused. Each refusal is said in the player's language as far as it is known
yet (`server.front.refusals`). Sessions are `server.front.sessions`'s business.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import asyncssh

from shared.i18n import Text

from ..host.identity import Identity, check_name, guest_key
from ..host.table import BUSY
from ..store import StoreUnavailable
from . import refusals
from .gate import Gate
from .refusals import denied, language_for
from .session import GameSession
from .sessions import Refusal, Sessions

log = logging.getLogger("splendor.ssh")


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
        self._goodbye: asyncio.Future[None] | None = None  # closing it, once idle too long
        self._saved: tuple[str, str] | None = None  # (name, its saved language), looked up

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
        if self._goodbye is not None:
            self._goodbye.cancel()
        self.gate.release(self)

    async def begin_auth(self, username: str) -> bool:
        """Called when a client starts logging in as `username` (again on a new name).
        True: authentication is required (always). An invalid name is refused with
        a message the client shows; a banned one is noted for the guest door (a key
        is checked with its own ban in `validate_public_key`)."""
        try:
            self._name = check_name(username)
        except ValueError:
            log.info("login from %s refused: bad name %r", self.address, username[:40])
            raise self._denied(refusals.bad_name(username)) from None
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
            raise self._denied(refusals.TOO_MANY_ATTEMPTS)
        fingerprint = key.get_fingerprint("sha256")
        try:
            owner = await self.names.name_owner(self._name)
            ban = await self.names.banned(self._name, fingerprint)
        except StoreUnavailable:
            log.warning("login %s from %s: the database is unreachable", self._name, self.address)
            raise self._denied(BUSY) from None  # before any session
        if ban is not None:
            log.info("login %s from %s refused: banned", self._name, self.address)
            owner_name = self._name if owner == fingerprint else None  # their saved language
            said_in = await language_for(self.names, owner_name, self.config.default_language)
            raise self._denied(refusals.banned(self._name, ban), said_in)
        if owner is None or owner == fingerprint:
            self._key = fingerprint
            return True
        self._key = None
        self._key_refused = True
        return False

    def _denied(self, text: Text, language: str | None = None) -> asyncssh.PermissionDenied:
        """A login refused with `text`, in `language` (by default the server's: the
        environment has not come yet, and the key, if any, is not the name's owner's)."""
        return denied(self._conn, text, language or self.config.default_language)

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
            raise self._denied(refusals.owned_pick_another(self._name, self._ssh, self._host))
        if not self.config.allow_guests:
            raise self._denied(refusals.KEYS_ONLY)
        if self._ban is not None:  # a banned name is no guest's either
            log.info("guest %s from %s refused: banned", self._name, self.address)
            raise self._denied(refusals.banned(self._name, self._ban))
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
            no_more = asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE
            if key is None:  # unreachable: no other login method is enabled
                conn.disconnect(no_more, self._said(refusals.LOGIN_REFUSED))
                return
            try:
                claimed = await self.names.claim_name(self._name, key)
            except StoreUnavailable:
                conn.disconnect(asyncssh.DISC_BY_APPLICATION, self._said(BUSY))
                return
            if not claimed:  # another key claimed the name a moment ago
                conn.disconnect(no_more, self._said(refusals.owned(self._name)))
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
            said_in = await self._language(None if self._guest else self._name)
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, BUSY.render(said_in))
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
        identity = self.identity
        if identity is None:
            return False
        try:
            session = self.sessions.open(identity, self.address, self.hint, self._session_ended)
        except Refusal as refusal:  # a cap: said in the key's saved language, or the server's
            said_in = await self._language(None if identity.guest else identity.name)
            raise refusals.closed(refusal.text, said_in) from None
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
        if self._conn is not None and self.identity is not None:
            self._goodbye = asyncio.ensure_future(self._say_goodbye(self.identity, since))

    async def _say_goodbye(self, identity: Identity, since: str) -> None:
        """Close an idle connection, saying why in its player's saved language."""
        said_in = await self._language(None if identity.guest else identity.name)
        if self._conn is None or self not in self.gate.idle:  # a session came meanwhile
            return
        log.info(
            "%s from %s: no session within %g s of %s; connection closed",
            identity.name,
            self.address,
            self.config.login_timeout,
            since,
        )
        self._conn.disconnect(asyncssh.DISC_BY_APPLICATION, refusals.NO_SESSION.render(said_in))

    # -- what a refusal is said in (server.front.refusals) ---------------------------------------

    def _said(self, text: Text) -> str:
        """`text` in the server's language: for a connection whose key owns no name."""
        return text.render(self.config.default_language)

    async def _language(self, name: str | None) -> str:
        """The language to refuse this connection's player in: the saved choice of `name`,
        which this connection's key owns (looked up once), else the server's."""
        if name is None:
            return self.config.default_language
        if self._saved is None or self._saved[0] != name:
            default = self.config.default_language
            self._saved = (name, await language_for(self.names, name, default))
        return self._saved[1]

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        """Port forwarding from the client (ssh -L, -D): always refused."""
        raise refusals.closed(refusals.NO_PORT_FORWARDING, self.config.default_language)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """Port forwarding to the client (ssh -R): always refused (False)."""
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        """UNIX socket forwarding: always refused."""
        raise refusals.closed(refusals.NO_FORWARDING, self.config.default_language)

    def unix_server_requested(self, listen_path: str) -> bool:
        """Remote UNIX socket forwarding: always refused (False)."""
        return False
