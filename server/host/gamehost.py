"""The game host: one per server process, shared by every session in it.

The transport (SSH, or the in-process bridge of offline play and tests) calls
`GameHost.connect(identity, deliver)` once per session and gets a
`server.host.link.HostLink`. It is the only game host: `splendor play` runs this same
host in its own process (`server.commands.play`), with the deal's seed left to the player
and the store in a temporary directory. With a shared store (PostgreSQL) many
processes run a host each on one database, and `server.host.cluster` keeps them in step.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from shared import protocol
from shared.i18n import L_, Text

from ..store import PLAYING, GameRecord, Store, default_url, open_store, redact
from .bots import BotPool, BotRunner, run_bot
from .cluster import Cluster
from .company import CLOCK_EVERY
from .hostsettings import DEFAULT_HOST_SETTINGS, HostSettings
from .identity import Identity
from .link import HostLink
from .lobby import Lobby
from .tourneys import TournamentDesk

log = logging.getLogger("splendor")


SHUTTING_DOWN = L_("the server is shutting down; your game is saved")


class GameHost:
    """Lobby, tables, bots and store for every session of this process."""

    def __init__(
        self,
        data_dir: str | Path,
        *,
        database: str | None = None,
        synchronous: str = "FULL",
        bot_budgets: dict[str, float] | None = None,
        bot_workers: int | None = None,
        bot_executor: Executor | None = None,
        bot_runner: BotRunner = run_bot,
        settings: HostSettings = DEFAULT_HOST_SETTINGS,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.database = database or default_url(self.data_dir)
        self._synchronous = synchronous
        self.bots = BotPool(bot_workers, bot_budgets, bot_executor, bot_runner)
        self.settings = settings
        self._store: Store | None = None
        self._lobby: Lobby | None = None
        self._cluster: Cluster | None = None
        self.tourneys: TournamentDesk | None = None  # club tournaments (issue 36)
        self._warm: asyncio.Task[None] | None = None
        self._janitor: asyncio.Task[None] | None = None
        self._clocks: asyncio.Task[None] | None = None
        self.closing = False

    @property
    def store(self) -> Store:
        """The store (the transport looks names up and claims them in it at login)."""
        if self._store is None:
            raise RuntimeError("the game host has not started")
        return self._store

    @property
    def lobby(self) -> Lobby:
        if self._lobby is None:
            raise RuntimeError("the game host has not started")
        return self._lobby

    async def start(self) -> None:
        """Open the store and bring back every open table (seats held, bots waiting for a
        human to come back); start the bot workers in the background."""
        store = open_store(self.database, synchronous=self._synchronous)
        await store.open()
        self._store = store
        self._lobby = Lobby(store, self.bots, self.settings)
        await self._lobby.chat.start()
        for record in await store.open_tables():
            await self.resume(record)
        lobby = self._lobby
        self.tourneys = TournamentDesk(
            store, lobby.tables, lobby.add, lobby.places, lobby.usher.place, lobby.maker.seed,
            self.settings.tournament_tick, self.settings.player_tournaments,
        )  # fmt: skip
        lobby.watchers.append(self.tourneys.table_changed)
        lobby.tourneys = self.tourneys.answer
        self.tourneys.start()
        self._cluster = Cluster(self._lobby, store)
        self._cluster.start()
        if store.shared:
            await self._cluster.presence()
        loop = asyncio.get_running_loop()
        self._warm = self.bots.start()  # in the background: nothing here waits for it
        if self.settings.abandon_after is not None:
            self._janitor = loop.create_task(self._sweep(self.settings.abandon_after))
        self._clocks = loop.create_task(self._watch_clocks())
        log.info("game host on %s: %d open tables", redact(self.database), len(self._lobby.tables))

    async def resume(self, record: GameRecord) -> bool:
        """Bring back a stored table: a waiting one as it was, a game in progress with its
        seats held for their players and bots waiting for a human to come back. False if
        it could not be, or its game was over (it is then marked so)."""
        lobby = self.lobby
        try:
            table = lobby.add(record)
        except Exception:
            log.exception("game %s could not be resumed; it stays in the store", record.id)
            lobby.tables.pop(record.id, None)
            return False
        if await table.finish_if_over():
            log.info("game end %s: over at move %d (marked at start)", table.id, len(table.moves))
            lobby.tables.pop(record.id, None)
            return False
        if record.status == PLAYING:
            log.info("game resumed %s: %s at move %d", table.id, table.describe(), len(table.moves))
            await table.hold_clock()  # a timed game's clock, unless another process runs it
            table.kick_bots()  # a timed game's bots play on (its clocks do anyway)
        return True

    async def _sweep(self, after: float) -> None:
        """Now and then, abandon games that no human has been at for `after` seconds."""
        while True:
            await asyncio.sleep(min(60.0, after / 4))
            try:
                await self.lobby.play.abandon_idle(after)
            except Exception:
                log.exception("abandoning idle games failed")

    async def _watch_clocks(self) -> None:
        """Twice a second: act on the deadlines passed in this process's games."""
        while True:
            await asyncio.sleep(CLOCK_EVERY)
            try:
                await self.lobby.play.check_clocks()
            except Exception:
                log.exception("the clocks' watch failed")

    def connect(self, identity: Identity, deliver: Callable[[bytes], None]) -> HostLink:
        """A new session for `identity`: it is welcomed and lands in the lobby, or back at
        its table. `deliver` gets every host message for it."""
        link = HostLink(identity, deliver, self._handle, self._disconnected)
        if self.closing or self._lobby is None:
            link.deliver(protocol.bye(L_("the server is shutting down")))
            link.closed = True
            return link
        self._lobby.connected(link)
        return link

    async def _handle(self, link: HostLink, data: bytes) -> None:
        await self.lobby.handle(link, data)

    def _disconnected(self, link: HostLink) -> None:
        if self._lobby is not None and not self.closing:
            self._lobby.disconnected(link)

    async def stop(self, text: str | Text = SHUTTING_DOWN) -> None:
        """The SIGTERM path: stop bots, let moves being saved finish, tell every session
        "bye", close the store."""
        if self._lobby is None or self.closing:
            return
        self.closing = True
        lobby = self._lobby
        lobby.stop()
        for task in (self._warm, self._janitor, self._clocks):
            if task is not None:
                task.cancel()
        if self._cluster is not None:
            await self._cluster.stop()
        if self.tourneys is not None:
            await self.tourneys.stop()
        await lobby.stop_tables()
        links = list(lobby.places)
        try:
            await asyncio.wait_for(asyncio.gather(*(link.idle() for link in links)), 5.0)
        except (TimeoutError, Exception):
            log.warning("some sessions were still busy at shutdown", exc_info=True)
        bye = protocol.bye(text)
        for link in links:
            link.deliver(bye)
            link.closed = True
        self.bots.shutdown()
        assert self._store is not None
        await self._store.close()
        log.info("game host stopped: %d tables, %d sessions", len(lobby.tables), len(links))
