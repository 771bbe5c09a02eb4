"""One session's link to the game host: messages in, in order; messages out, never raising.

The transport (SSH, or the in-process bridge of offline play and tests) gets a
`HostLink` from `server.host.gamehost.GameHost.connect`. Where the session is, the host
keeps (`server.host.places`), not the link. ``link.send(bytes)`` carries one
client message to the host, and the host calls ``link.deliver(bytes)`` with every
host message for that session. ``link.close()`` says the session dropped; its
seat is held. Messages from one session are handled in order, one at a time, by
a task that exists only while there is work, so idle sessions cost no task.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable

from shared import protocol
from shared.i18n import L_

from .identity import Identity

log = logging.getLogger("splendor")

MAX_QUEUED = 32  # client messages waiting per session before new ones are refused

Handler = Callable[["HostLink", bytes], Awaitable[None]]


class HostLink:
    """One session's link to the host (see the module docstring). `handle` runs each
    client message; `on_close` hears that the session dropped."""

    def __init__(
        self,
        identity: Identity,
        deliver: Callable[[bytes], None],
        handle: Handler,
        on_close: Callable[[HostLink], None],
    ) -> None:
        self.identity = identity
        self.sid = secrets.token_hex(8)  # this session, among every process's
        self.since = time.monotonic()  # when it connected
        self.closed = False
        self._deliver = deliver
        self._handle = handle
        self._on_close = on_close
        self._inbox: deque[bytes] = deque()
        self._worker: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"<HostLink {self.identity.name} {self.sid}>"

    def send(self, data: bytes) -> None:
        """One encoded client message (`shared.protocol`) from the session to the host.
        Never raises: bad bytes and refusals come back as notices."""
        if self.closed:
            return
        if len(self._inbox) >= MAX_QUEUED:
            self.deliver(protocol.notice(L_("too many requests at once; that one was dropped")))
            return
        self._inbox.append(bytes(data))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._drain())

    def deliver(self, data: bytes) -> None:
        """One host message to the session; a failing transport is logged, never raised."""
        if self.closed:
            return
        try:
            self._deliver(data)
        except Exception:
            log.exception("session %s: delivering a message failed", self.identity.name)

    def close(self) -> None:
        """The session dropped (or the player quit): the host lets go of it."""
        if self.closed:
            return
        self._inbox.clear()
        self.closed = True  # nothing more is delivered to it
        self._on_close(self)

    async def _drain(self) -> None:
        while self._inbox and not self.closed:
            await self._handle(self, self._inbox.popleft())

    async def idle(self) -> None:
        """Wait until the messages sent so far are handled (for tests and shutdown)."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)
