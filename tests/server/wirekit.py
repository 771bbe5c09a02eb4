"""A protocol client for tests: the `splendor` SSH subsystem on an asyncssh connection, its
host messages decoded as they come (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import asyncssh
from sshkit import WAIT

from shared import protocol
from shared.codec import ObjectStream
from shared.protocol import ClientMessage, Hello, HostMessage

HELLO = Hello()


class WireSession(asyncssh.SSHClientSession[bytes]):
    """The client's end of one subsystem channel: every host message, decoded."""

    def __init__(self) -> None:
        self.stream = ObjectStream()
        self.messages: list[HostMessage] = []
        self.arrived = asyncio.Event()
        self.closed = asyncio.Event()
        self.exit_status: int | None = None

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        for raw in self.stream.feed(data):
            self.messages.append(protocol.decode_host(raw))
        self.arrived.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.arrived.set()


class Wire:
    """One subsystem channel: `send` a message (or raw bytes), `wait` for a host message."""

    def __init__(self, chan: asyncssh.SSHClientChannel[bytes], session: WireSession) -> None:
        self.chan, self.session = chan, session
        self.cursor = 0

    @classmethod
    async def open(cls, conn: asyncssh.SSHClientConnection, hello: Any = HELLO) -> Wire:
        chan, session = await conn.create_session(WireSession, subsystem="splendor", encoding=None)
        wire = cls(chan, session)
        if hello is not None:
            wire.send(hello)
        return wire

    def send(self, msg: ClientMessage | bytes) -> None:
        self.chan.write(msg if isinstance(msg, bytes) else protocol.encode(msg))

    async def wait(self, pred: Callable[[HostMessage], bool], timeout: float = WAIT) -> Any:
        """The first message from the cursor on that satisfies `pred`; the cursor passes it."""
        deadline = time.monotonic() + timeout
        while True:
            messages = self.session.messages
            for i in range(self.cursor, len(messages)):
                if pred(messages[i]):
                    self.cursor = i + 1
                    return messages[i]
            left = deadline - time.monotonic()
            if left <= 0 or self.session.closed.is_set():
                raise AssertionError(f"never came; got {messages[self.cursor :]!r:.2000}")
            self.session.arrived.clear()
            try:
                await asyncio.wait_for(self.session.arrived.wait(), left)
            except TimeoutError:
                pass

    async def closed(self, timeout: float = WAIT) -> None:
        await asyncio.wait_for(self.session.closed.wait(), timeout)
