"""What the other processes of a cluster do, applied to this process's copies.

A shared store (PostgreSQL) tells every process of every stored move, every change
of a table, and every change of who is online where (`server.store.base`). This
module turns those events into the lobby's and tables' own updates: a move is
applied to the table's copy (any gap is read from the store first), a changed table
is read again, and the sessions of other processes are counted at each seat. After
the store's listening connection came back, everything is read again. When the store
loses games' locks, their bots and clocks stop here and the locks are taken again.

Two watches run here whatever the store: one takes over the bots of games whose
bots stopped moving (the process that ran them died, its lock with it), one makes
sure the presence of other processes is read now and then even if an event was lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable

from shared.protocol import TableStatus

from ..store import (
    OPEN_STATUSES,
    ChatPosted,
    ChatRemoved,
    LocksLost,
    MovePlayed,
    PresenceChanged,
    Reconnected,
    Store,
    StoreError,
    StoreUnavailable,
    TableChanged,
)
from ..store.base import Event
from .lobby import Lobby
from .seat import Busy
from .table import Table
from .tasks import Tasks

log = logging.getLogger("splendor")

PATIENCE = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds between tries of an event the store was busy for

WATCH_EVERY = 1.0  # seconds between looks at games whose bots should move
PRESENCE_EVERY = 5.0  # seconds between reads of who is online elsewhere, events or not
STALLED = 2.0  # seconds without a move after which a bot's turn is looked at again


class Cluster:
    """Applies a shared store's events to `lobby` (see the module docstring)."""

    def __init__(self, lobby: Lobby, store: Store) -> None:
        self.lobby = lobby
        self.store = store
        self._tasks = Tasks("cluster: following another process", (StoreError,))
        self._presence_read: asyncio.TimerHandle | None = None  # a read of who is online, due soon
        self._watch: asyncio.Task[None] | None = None
        self._locks: dict[str, asyncio.Lock] = {}

    def start(self) -> None:
        self.store.subscribe(self._event)
        self._watch = asyncio.get_running_loop().create_task(self._watch_loop())

    async def stop(self) -> None:
        self.store.unsubscribe(self._event)  # news that comes while the host stops: not ours
        if self._watch is not None:
            self._watch.cancel()
        if self._presence_read is not None:
            self._presence_read.cancel()  # a read due soon is not started on a stopping host
            self._presence_read = None
        await self._tasks.cancel()

    def _event(self, event: Event) -> None:
        match event:
            case MovePlayed(game, seq, turn, notation, timing):
                table = self.lobby.tables.get(game)
                if table is None:
                    self._tasks.spawn(self._load(game))
                else:
                    self._follow(lambda: table.on_move(seq, turn, notation, timing))
            case TableChanged(table_id, version):
                self._follow(lambda: self._changed(table_id, version))
            case PresenceChanged():
                self.presence_soon()
            case Reconnected():
                self._tasks.spawn(self._resync())
            case ChatPosted(line):
                self.lobby.chat.posted(line)
            case ChatRemoved(line, game):
                self.lobby.chat.removed(line, game)
            case LocksLost(games):
                self._locks_lost(games)

    def _follow(self, apply: Callable[[], Awaitable[None]]) -> None:
        """Apply another process's change here; while the store is too busy to answer,
        try again a few times (this copy would otherwise stay behind until the next
        change to the same table)."""

        async def patiently() -> None:
            for pause in PATIENCE:
                try:
                    return await apply()
                except (StoreUnavailable, Busy) as e:
                    log.info("cluster: %s; trying again in %g s", e, pause)
                    await asyncio.sleep(pause)
            await apply()

        self._tasks.spawn(patiently())

    def _lock(self, table_id: str) -> asyncio.Lock:
        """One table's events are applied one after another (its creation and its start
        come close together: the start must find the table)."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load(self, table_id: str) -> None:
        async with self._lock(table_id):
            if table_id not in self.lobby.tables:
                await self._add(table_id)

    async def _add(self, table_id: str) -> None:
        """A table this process has no copy of yet (created elsewhere)."""
        record = await self.store.load_game(table_id)
        if record is None or record.status not in OPEN_STATUSES:
            return
        table = self.lobby.add(record)
        await self.presence()
        self.lobby.refresh()
        self.lobby.seat_newcomers(table)
        self.lobby.invites.changed(table)  # a table made with invitations: told here too
        table.kick_bots()

    async def _changed(self, table_id: str, version: int | None = None) -> None:
        async with self._lock(table_id):
            await self._reload(table_id, version)
        if table_id not in self.lobby.tables:
            self._locks.pop(table_id, None)

    async def _reload(self, table_id: str, version: int | None = None) -> None:
        table = self.lobby.tables.get(table_id)
        if table is None:
            await self._add(table_id)
            return
        was = table.status
        await table.reload(version)
        if table.status is TableStatus.PLAYING and was is TableStatus.WAITING:
            self.lobby.seat_newcomers(table)
        if table.status is TableStatus.FINISHED and was is not TableStatus.FINISHED:
            if table.result == "abandoned":
                self.lobby.abandoned(table)
            self.lobby.table_changed(table, False)

    async def _resync(self) -> None:
        """After a gap in the events: read every table and who is online again."""
        known = set(self.lobby.tables)
        for record in await self.store.open_tables():
            if record.id not in known:
                self.lobby.add(record)
        for table in list(self.lobby.tables.values()):
            await self._changed(table.id)
            await table.catch_up()
        await self.presence()
        self.lobby.refresh()

    # -- locks -----------------------------------------------------------------

    def _locks_lost(self, games: frozenset[str]) -> None:
        """The store lost these games' locks (their connection closed): their bots and
        clocks stop here at once, and this process tries to take the locks again, on a
        new connection, as soon as the database answers (another process may first)."""
        tables = [t for g in sorted(games) if (t := self.lobby.tables.get(g)) is not None]
        for table in tables:
            table.lock_lost()
        self._tasks.spawn(self._retake(tables))

    async def _retake(self, tables: list[Table]) -> None:
        """A few tries, further and further apart: a timed game's clock is held again (its
        bots with it), and bots to move try their lock. What is left after them waits for
        the watches (bots that stalled; a deadline passed by `TAKEOVER_GRACE`)."""
        for pause in PATIENCE:
            await asyncio.sleep(pause)
            for table in tables:
                if table.status is TableStatus.PLAYING:
                    await table.hold_clock()
                    table.kick_bots()

    # -- presence ------------------------------------------------------------

    def presence_soon(self) -> None:
        """Read who is online elsewhere shortly (many changes come in bursts: one read)."""
        if self._presence_read is None:
            self._presence_read = asyncio.get_running_loop().call_later(0.05, self._presence_now)

    def _presence_now(self) -> None:
        self._presence_read = None
        self._tasks.spawn(self.presence())

    async def presence(self) -> None:
        """Count the other processes' sessions at each seat, and who is online there."""
        rows = await self.store.sessions()
        seats: dict[str, Counter[int]] = {}
        for row in rows:
            if row.table is not None and row.seat is not None:
                seats.setdefault(row.table, Counter())[row.seat] += 1
        names = frozenset(row.name for row in rows)
        if names != self.lobby.listings.remote_online:
            self.lobby.listings.remote_online = names
            self.lobby.refresh(minor=True)
        for table in list(self.lobby.tables.values()):
            table.set_remote(dict(seats.get(table.id, Counter())))

    # -- watches -------------------------------------------------------------

    async def _watch_loop(self) -> None:
        """Now and then: bots of games in progress move on (a takeover when the process
        that ran them died), and other processes' sessions are read again."""
        ticks = 0
        while True:
            await asyncio.sleep(WATCH_EVERY)
            ticks += 1
            try:
                for table in list(self.lobby.tables.values()):
                    self._kick(table)
                if self.store.shared and ticks * WATCH_EVERY >= PRESENCE_EVERY:
                    ticks = 0
                    await self.presence()
            except asyncio.CancelledError:
                raise
            except StoreError as e:  # the database busy or away: the next watch tries again
                log.info("cluster: a watch put off: %s", e)
            except Exception:
                log.warning("cluster: a watch failed", exc_info=True)

    @staticmethod
    def _kick(table: Table) -> None:
        """Bots that should have moved by now: the process that ran them may be gone (their
        lock with it). Games that move are left to their own bot loops."""
        stalled = time.monotonic() - table.moved_at >= STALLED
        if table.status is TableStatus.PLAYING and stalled:
            table.kick_bots()
