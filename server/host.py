"""The game host: one per server process, shared by every session in it.

The transport (SSH, or an in-process client for local play and tests) calls
`GameHost.connect(identity, deliver)` once per session and gets a `HostLink`:
``link.send(bytes)`` carries one client message to the host, and the host calls
``deliver(bytes)`` with every host message for that session. ``link.close()``
says the session dropped; its seat is held. Messages from one session are
handled in order, one at a time, by a task that exists only while there is
work, so idle sessions cost no task.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from shared import protocol

from .bots import BotPool
from .identity import Identity
from .lobby import Lobby
from .store import AsyncStore, Store
from .table import Table

log = logging.getLogger("splendor")

MAX_QUEUED = 32  # client messages waiting per session before new ones are refused


class HostLink:
    """One session's link to the host (see the module docstring)."""

    def __init__(self, host: GameHost, identity: Identity, deliver: Callable[[bytes], None]):
        self.identity = identity
        self.table: Table | None = None  # where the session is: None for the lobby
        self.seat: int | None = None  # its seat there; None when watching
        self.closed = False
        self._host = host
        self._deliver = deliver
        self._inbox: deque[bytes] = deque()
        self._worker: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        where = "lobby" if self.table is None else f"{self.table.id}/{self.seat}"
        return f"<HostLink {self.identity.name} at {where}>"

    def send(self, data: bytes) -> None:
        """One encoded client message (`shared.protocol`) from the session to the host.
        Never raises: bad bytes and refusals come back as notices."""
        if self.closed:
            return
        if len(self._inbox) >= MAX_QUEUED:
            self.deliver(protocol.notice("too many requests at once; that one was dropped"))
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
        self._host._disconnected(self)
        self.closed = True

    async def _drain(self) -> None:
        while self._inbox and not self.closed:
            data = self._inbox.popleft()
            await self._host.lobby.handle(self, data)

    async def idle(self) -> None:
        """Wait until the messages sent so far are handled (for tests and shutdown)."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)


class GameHost:
    """Lobby, tables, bots and store for every session of this process."""

    def __init__(
        self,
        data_dir: str | Path,
        *,
        synchronous: str = "FULL",
        bot_budgets: dict[str, float] | None = None,
        bot_workers: int | None = None,
        bot_executor: Executor | None = None,
        bot_pause: float = 0.6,
        max_tables_per_player: int = 3,
        max_tables: int = 500,
        seeds: Callable[[], int] | None = None,
        abandon_after: float | None = 3 * 24 * 3600.0,
        lobby_tick: float = 2.0,
    ) -> None:
        self.data_dir = Path(data_dir)
        self._synchronous = synchronous
        self.bots = BotPool(bot_workers, bot_budgets, bot_executor)
        self._lobby_args = {
            "seeds": seeds,
            "bot_pause": bot_pause,
            "max_tables_per_player": max_tables_per_player,
            "max_tables": max_tables,
            "lobby_tick": lobby_tick,
        }
        self._store: AsyncStore | None = None
        self._lobby: Lobby | None = None
        self._warm: asyncio.Task[None] | None = None
        self._abandon_after = abandon_after
        self._janitor: asyncio.Task[None] | None = None
        self.closing = False

    @property
    def store(self) -> Store:
        """The synchronous store (the transport calls `claim_name` on it at auth time)."""
        if self._store is None:
            raise RuntimeError("the game host has not started")
        return self._store.store

    def claim_name(self, name: str, key_fingerprint: str) -> bool:
        """`Store.claim_name`: True if `name` is free or this key's already."""
        return self.store.claim_name(name, key_fingerprint)

    @property
    def lobby(self) -> Lobby:
        if self._lobby is None:
            raise RuntimeError("the game host has not started")
        return self._lobby

    async def start(self) -> None:
        """Open the store and bring back every game in progress (seats held, bots waiting
        for a human to come back); start the bot workers in the background."""
        self._store = AsyncStore(Store(self.data_dir, synchronous=self._synchronous))
        self._lobby = Lobby(self._store, self.bots, **self._lobby_args)  # type: ignore[arg-type]
        records = await self._store.call(self._store.store.games_in_progress)
        for record in records:
            try:
                table = self._lobby.make_resumed(record)
            except Exception:
                log.exception("game %s could not be resumed; it stays in the store", record.id)
                continue
            if await table.finish_if_over():
                log.info("game end %s: over at move %d (marked at start)", table.id,
                         len(table.moves))  # fmt: skip
                continue
            self._lobby.resume(table)
            log.info("game resumed %s: %s at move %d", table.id, table.describe(), len(table.moves))
        loop = asyncio.get_running_loop()
        self._warm = loop.create_task(self.bots.warm_up())
        if self._abandon_after is not None:
            self._janitor = loop.create_task(self._sweep(self._abandon_after))

    async def _sweep(self, after: float) -> None:
        """Now and then, abandon games that no human has been at for `after` seconds."""
        while True:
            await asyncio.sleep(min(60.0, after / 4))
            try:
                await self.lobby.abandon_idle(after)
            except Exception:
                log.exception("abandoning idle games failed")

    def connect(self, identity: Identity, deliver: Callable[[bytes], None]) -> HostLink:
        """A new session for `identity`: it is welcomed and lands in the lobby, or back at
        its game. `deliver` gets every host message for it."""
        link = HostLink(self, identity, deliver)
        if self.closing or self._lobby is None:
            link.deliver(protocol.encode(protocol.BYE, text="the server is shutting down"))
            link.closed = True
            return link
        self._lobby.connected(link)
        return link

    def _disconnected(self, link: HostLink) -> None:
        if self._lobby is not None and not self.closing:
            self._lobby.disconnected(link)

    async def stop(self, text: str = "the server is shutting down; your game is saved") -> None:
        """The SIGTERM path: stop bots, let moves being saved finish, tell every session
        "bye", close the store."""
        if self._lobby is None or self.closing:
            return
        self.closing = True
        lobby = self._lobby
        lobby.stop()
        for task in (self._warm, self._janitor):
            if task is not None:
                task.cancel()
        for table in list(lobby.tables.values()):
            await table.stop()
        links = list(lobby.links)
        try:
            await asyncio.wait_for(asyncio.gather(*(link.idle() for link in links)), 5.0)
        except (TimeoutError, Exception):
            log.warning("some sessions were still busy at shutdown", exc_info=True)
        bye = protocol.encode(protocol.BYE, text=text)
        for link in links:
            link.deliver(bye)
            link.closed = True
        self.bots.shutdown()
        assert self._store is not None
        await asyncio.get_running_loop().run_in_executor(None, self._store.close)
        log.info("game host stopped: %d tables, %d sessions", len(lobby.tables), len(links))
