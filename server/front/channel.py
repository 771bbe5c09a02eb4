"""The `splendor` SSH subsystem: the protocol itself on a channel, for a program or a local
app (docs/protocol.md). No app runs here: the client's messages go to the host as a
terminal app's would, and the host's go out as they are, one msgpack object each.

The client speaks first (`Hello`: the versions it speaks); the host answers `Welcome`
with the version chosen, or `Bye` and the reason. The login, identity, caps and bans are
the terminal's (the channel is a `server.front.session.GameSession`'s). Anything refused
(an object too big or too deep, not a client message, a flood) gets one `Bye` saying
why and closes this channel alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import asyncssh

from shared import protocol
from shared.codec import CodecError, ObjectStream
from shared.i18n import L_, Text
from shared.protocol import PROTOCOL_VERSION, Hello

from ..host.identity import Identity
from .bridge import Host, Link
from .config import Config

log = logging.getLogger("splendor.ssh")

MAX_DEPTH = 8  # lists and maps in a client message nest 3 deep; more is not a message
SPOKEN = (PROTOCOL_VERSION,)  # the versions this host speaks


def choose_version(offered: tuple[int, ...]) -> int | None:
    """The newest version both sides speak, or None."""
    common = set(offered) & set(SPOKEN)
    return max(common) if common else None


class ProtocolChannel:
    """One subsystem channel: a `Hello`, then client messages to the host and host messages
    back. `done(status)` is called once, when the channel has ended."""

    def __init__(
        self,
        chan: asyncssh.SSHServerChannel[bytes],
        config: Config,
        host: Host,
        identity: Identity,
        done: Callable[[int], None],
    ) -> None:
        self.chan, self.config, self.host, self.identity = chan, config, host, identity
        self._done = done
        self._stream = ObjectStream(config.max_message_bytes, MAX_DEPTH)
        self._link: Link | None = None
        self.ended = False
        rate = config.messages_per_second
        self._rate, self._burst = rate, 4 * rate
        self._tokens, self._refilled = float(self._burst), time.monotonic()
        loop = asyncio.get_running_loop()
        self._hello_timer: asyncio.TimerHandle | None = loop.call_later(
            config.login_timeout, self.end, L_("no hello came; goodbye"), 1
        )

    def feed(self, data: bytes) -> None:
        """Bytes from the client: every object they complete, in order."""
        if self.ended:
            return
        try:
            objects = self._stream.feed(data)
        except CodecError as e:
            self._refuse(str(e))
            return
        for raw in objects:
            if self.ended:
                return
            if not self._spend():
                self._refuse(
                    L_("more than {n} messages a second", n=self._rate), L_("too many messages")
                )
                return
            self._one(raw)

    def _spend(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._refilled) * self._rate)
        self._refilled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def _one(self, raw: bytes) -> None:
        try:
            msg = protocol.decode_client(raw)
        except CodecError as e:
            self._refuse(str(e))
            return
        if self._link is not None:
            if isinstance(msg, Hello):
                self._refuse(L_("a second hello"))
            else:
                self._link.send(raw)
            return
        if not isinstance(msg, Hello):
            self._refuse(L_("the first message must be a hello with your protocol versions"))
            return
        self._greet(msg)

    def _greet(self, hello: Hello) -> None:
        if self._hello_timer is not None:
            self._hello_timer.cancel()
            self._hello_timer = None
        if choose_version(hello.versions) is None:
            offered = ", ".join(map(str, hello.versions)) or L_("none")
            log.info("%s: protocol versions %s refused", self.identity.name, offered)
            self.end(
                L_(
                    "this server speaks protocol version {ours}, your client {theirs}: "
                    "update {older} to play",
                    ours=PROTOCOL_VERSION,
                    theirs=offered,
                    older=L_("the client")
                    if all(v < PROTOCOL_VERSION for v in hello.versions)
                    else L_("the server"),
                ),
                1,
            )
            return
        log.info("%s: protocol session (%s)", self.identity.name, hello.client or "a client")
        self._link = self.host.connect(self.identity, self.deliver)  # the host says Welcome

    def deliver(self, data: bytes) -> None:
        """One host message to the client (called in the host's task)."""
        if self.ended:
            return
        try:
            self.chan.write(data)
        except OSError:
            self.end()
            return
        if self.chan.get_write_buffer_size() > 4 * self.config.write_buffer_high:
            log.warning("%s: slow protocol reader cut off", self.identity.name)
            self.ended = True
            self._close_link()
            self.chan.abort()
            self._done(1)

    def _refuse(self, why: str | Text, short: str | Text = "") -> None:
        log.warning("%s: protocol channel refused: %s", self.identity.name, short or why)
        self.end(L_("refused: {why}", why=why), 1)

    def end(self, message: str | Text = "", status: int = 0) -> None:
        """Close the channel, saying `message` in a `Bye` first if there is one (a `Text`
        also as key and fields, for the client to translate)."""
        if self.ended:
            return
        if self._hello_timer is not None:
            self._hello_timer.cancel()
            self._hello_timer = None
        if message:
            try:
                self.chan.write(protocol.bye(message))
            except OSError:
                pass
        self.ended = True
        self._close_link()
        try:
            self.chan.exit(status)
        except OSError:
            pass
        self._done(status)

    def _close_link(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            link.close()
