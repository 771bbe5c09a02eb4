"""`splendor connect`: the app on the player's machine, the host over the `splendor` SSH
subsystem (docs/protocol.md), so the player's own CPU draws their screens.

`RemoteConnection` is the app's `Connection` over asyncssh's client, which finds keys,
the agent and known_hosts as `ssh` does. It opens the channel, says `Hello`, and hands
the app every host message. A connection that drops (no exit status from the server)
is opened again by itself, with a growing pause, and the host puts the player back
where they were; a `Bye`, or the server closing the channel on purpose, ends it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import asyncssh

from shared import protocol
from shared.codec import CodecError, ObjectStream
from shared.i18n import _
from shared.messages import SUBSYSTEM
from shared.protocol import PROTOCOL_VERSION, Bye, Hello, Notice, Welcome

from .connection import Connection

log = logging.getLogger(__name__)

RETRIES = (0.5, 1.0, 2.0, 4.0, 8.0) + (10.0,) * 12  # pauses between attempts: ~2.5 min
OUTBOX = 32  # messages the app may send while the connection is being opened again
CLIENT = "splendor connect"
HANDSHAKE_WAIT = 30.0  # seconds the host has to answer the hello


class Refused(Exception):
    """The server would not let this client play: the line to show the player."""


class HostUnknown(Refused):
    """The server's host key is not in known_hosts (new, or changed)."""


class _Guest(asyncssh.SSHClient):
    """The guest door (keyboard-interactive with no prompt), for a player with no key."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Any
    ) -> list[str]:
        return []


class _Channel(asyncssh.SSHClientSession[bytes]):
    """One subsystem channel's bytes, cut into host messages for `RemoteConnection`."""

    def __init__(self, owner: RemoteConnection) -> None:
        self.owner = owner
        self.stream = ObjectStream()
        self.status: int | None = None  # set when the server closes the channel on purpose
        self.first: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.lost = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        try:
            objects = self.stream.feed(data)
        except CodecError as e:
            log.warning("the host sent what is not a message: %s", e)
            self.lost.set()
            return
        for raw in objects:
            if not self.first.done():
                self.first.set_result(raw)
            else:
                self.owner.deliver(raw)

    def exit_status_received(self, status: int) -> None:
        self.status = status

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.first.done():
            self.first.set_exception(ConnectionError(str(exc or _("the channel closed"))))
        self.lost.set()


class RemoteConnection(Connection):
    """The app's link to a host over SSH. `open` makes the first connection (`Refused` if
    the server will not have this client); `close` ends it for good."""

    def __init__(
        self, ssh: dict[str, Any], versions: tuple[int, ...] = (PROTOCOL_VERSION,)
    ) -> None:
        super().__init__()
        self.ssh = ssh  # asyncssh.connect's arguments: host, port, username, keys...
        self.versions = versions
        self.closing = False
        self._conn: asyncssh.SSHClientConnection | None = None
        self._chan: asyncssh.SSHClientChannel[bytes] | None = None
        self._outbox: list[bytes] = []
        self._keeper: asyncio.Task[None] | None = None

    async def open(self) -> Welcome:
        """Connect, say hello, and give back the host's `Welcome` (the app gets it too)."""
        session, welcome = await self._connect()
        self._keeper = asyncio.get_running_loop().create_task(self._keep(session))
        return welcome

    async def _connect(self) -> tuple[_Channel, Welcome]:
        try:
            conn = await asyncssh.connect(client_factory=_Guest, **self.ssh)
        except asyncssh.PermissionDenied as e:
            raise Refused(_("the server refused the login: {why}", why=e.reason)) from None
        except asyncssh.HostKeyNotVerifiable as e:
            why = _("its host key is not a known one for it: {why}", why=e.reason)
            raise HostUnknown(why) from None
        except (OSError, asyncssh.Error) as e:
            raise ConnectionError(str(e)) from None
        try:
            chan, made = await conn.create_session(
                lambda: _Channel(self), subsystem=SUBSYSTEM, encoding=None
            )
        except asyncssh.ChannelOpenError as e:
            conn.close()
            raise Refused(_("the server refused the game channel: {why}", why=e.reason)) from None
        assert isinstance(made, _Channel)
        session = made
        chan.write(protocol.encode(Hello(self.versions, CLIENT)))
        try:
            raw = await asyncio.wait_for(session.first, HANDSHAKE_WAIT)
            msg = protocol.decode_host(raw)
        except TimeoutError:
            conn.close()
            raise ConnectionError(_("the server did not answer the hello")) from None
        except (ConnectionError, CodecError):
            conn.close()
            raise
        if isinstance(msg, Bye):
            conn.close()
            raise Refused(msg.text)
        if not isinstance(msg, Welcome):
            conn.close()
            raise Refused(_("the server did not answer as a Splendor host"))
        self._conn, self._chan = conn, chan
        Connection.deliver(self, raw)
        outbox, self._outbox = self._outbox, []
        for data in outbox:
            chan.write(data)
        return session, msg

    async def _keep(self, session: _Channel) -> None:
        """Open the connection again whenever it drops, until the app leaves."""
        while True:
            await session.lost.wait()
            self._chan = None
            if self._conn is not None:
                self._conn.close()  # what is left of it (a stream gone wrong: it is open)
            if self.closing:
                return
            if session.status is not None:  # the server ended it on purpose, with a Bye
                return
            self._tell(_("The connection was lost; connecting again…"), "info")
            reconnected = await self._again()
            if reconnected is None:
                return
            session = reconnected

    async def _again(self) -> _Channel | None:
        for pause in RETRIES:
            await asyncio.sleep(pause)
            if self.closing:
                return None
            try:
                session, _welcome = await self._connect()
            except Refused as e:
                self._bye(str(e))
                return None
            except (ConnectionError, CodecError) as e:
                log.info("reconnecting: %s", e)
                continue
            return session
        self._bye(_("The connection was lost and could not be opened again."))
        return None

    def _tell(self, text: str, level: str) -> None:
        Connection.deliver(self, protocol.encode(Notice(text, level)))

    def _bye(self, text: str) -> None:
        Connection.deliver(self, protocol.encode(Bye(text)))

    def send(self, data: bytes) -> None:
        """One client message; kept while the connection is opened again (a few only)."""
        if self.closing:
            return
        if self._chan is not None:
            self._chan.write(data)
        elif len(self._outbox) < OUTBOX:
            self._outbox.append(data)

    def close(self) -> None:
        """The app is leaving: no more reconnecting; the host keeps the seat."""
        self.closing = True
        if self._conn is not None:
            self._conn.close()
        if self._keeper is not None:
            self._keeper.cancel()

    def drop(self) -> None:
        """Cut the connection as a network would (tests): it is opened again."""
        if self._conn is not None:
            self._conn.abort()
