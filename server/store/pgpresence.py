"""Who is online where, in a PostgreSQL cluster: this process's sessions in `sessions`
(written in batches) and its sign of life in `processes`, renewed every
`HEARTBEAT_EVERY` seconds over its listening connection, so that it never waits for the
pool. A process not heard from for `PROCESS_TIMEOUT` seconds is removed with its sessions
by whoever notices first: its players show as away within seconds."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta
from typing import Any

import asyncpg

from .base import SessionRow
from .pglocks import DOWN
from .pgnews import CHANNEL, NOTIFY, PRESENCE
from .pgpool import Conn
from .records import StoreUnavailable

log = logging.getLogger("splendor")

HEARTBEAT_EVERY = 2.0  # seconds between a process's signs of life
PROCESS_TIMEOUT = 8.0  # seconds without one before a process counts as dead
BEAT_TIMEOUT = 3.0  # seconds a heartbeat's statement may take (then its connection is made anew)

Pooled = Callable[[float | None], AbstractAsyncContextManager[Conn]]  # wait -> a connection

# The sessions' batch: the id lists are disjoint (a batch holds one change a session).
_WRITE_SESSIONS = """
WITH gone AS (DELETE FROM sessions WHERE id = ANY($1::text[])),
written AS (
    INSERT INTO sessions (id, process, name, guest, key, tbl, seat)
    SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::boolean[], $6::text[],
                         $7::text[], $8::integer[])
    ON CONFLICT (id) DO UPDATE SET tbl = EXCLUDED.tbl, seat = EXCLUDED.seat
)
SELECT pg_notify($9, 'p')
"""


class Presence:
    """This process's row in `processes` and its sessions' rows (see the module
    docstring), over `pooled(wait)` (a pooled connection) and the listening connection
    `listener()`; `lost(conn)` is told when the heartbeat finds that one closed."""

    def __init__(
        self,
        process: str,
        pooled: Pooled,
        listener: Callable[[], asyncpg.Connection | None],
        lost: Callable[[object], None],
    ) -> None:
        self.process = process
        self._pooled = pooled
        self._listener = listener
        self._lost = lost
        self._sessions: dict[str, tuple[Any, ...] | None] = {}  # session -> row (None: gone)
        self._mine: dict[str, tuple[Any, ...]] = {}  # this process's sessions, as stored
        self._flush_due = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Begin the heartbeats and the sessions' batches."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._heartbeats()), loop.create_task(self._flushes())]

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop the heartbeats and the batches; their tasks, for the caller to await."""
        self._flush_due.set()
        for task in self._tasks:
            task.cancel()
        return self._tasks

    @asynccontextmanager
    async def own_conn(self) -> AsyncIterator[Conn]:
        """The listening connection, for signs of life: they must never wait for the pool
        (with every pooled connection in use, the others would take this live process for
        dead and its players for away). While it is being made again, one of the pool's,
        waited for no longer than a heartbeat may take."""
        own = self._listener()
        if own is None or own.is_closed():
            async with self._pooled(BEAT_TIMEOUT) as conn:
                yield conn
            return
        try:
            yield own
        except DOWN as e:
            # Hung (a half-open link) or lost: close it, which listens again on a new one.
            own.terminate()
            raise StoreUnavailable(f"the database connection was lost: {e}") from e

    # -- sessions ------------------------------------------------------------

    def set_session(self, row: tuple[Any, ...]) -> None:
        """Where session `row[0]` is now (`sessions`' columns in order), written soon."""
        self._sessions[row[0]] = row
        self._flush_due.set()

    def drop_session(self, session: str) -> None:
        self._sessions[session] = None
        self._flush_due.set()

    async def sessions(self) -> list[SessionRow]:
        """Every session of the other processes."""
        async with self._pooled(None) as conn:
            rows = await conn.fetch(
                "SELECT process, id, name, guest, key, tbl, seat FROM sessions WHERE process <> $1",
                self.process,
            )
        return [SessionRow(*r) for r in rows]

    async def _flushes(self) -> None:
        """Write the sessions' changes in batches (a burst of arrivals: one transaction),
        then tell the others. A batch that fails is kept and tried again."""
        while True:
            await self._flush_due.wait()
            await asyncio.sleep(0.02)
            self._flush_due.clear()
            batch, self._sessions = self._sessions, {}
            try:
                await self._write_sessions(batch)
            except StoreUnavailable:
                self._sessions = {**batch, **self._sessions}
                await asyncio.sleep(1.0)
                self._flush_due.set()

    async def _write_sessions(self, batch: dict[str, tuple[Any, ...] | None]) -> None:
        """One statement (one round trip): the batch's departures deleted, its arrivals and
        moves written, the others told at commit."""
        if not batch:
            return
        gone = [s for s, row in batch.items() if row is None]
        rows = [row for row in batch.values() if row is not None]
        columns = [list(column) for column in zip(*rows, strict=True)] or [[]] * 7
        async with self._pooled(None) as conn:
            await conn.execute(_WRITE_SESSIONS, gone, *columns, CHANNEL)
        for s in gone:
            self._mine.pop(s, None)
        self._mine.update((row[0], row) for row in rows)

    # -- signs of life -------------------------------------------------------

    async def _heartbeats(self) -> None:
        """Renew this process's sign of life; remove processes that stopped giving one.
        A process that was taken for dead (the database was away longer than the
        timeout) comes back with its sessions. Each statement may take `BEAT_TIMEOUT`
        at most: a sign of life that comes late is no sign of life."""
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY)
            listener = self._listener()
            if listener is not None and listener.is_closed():
                self._lost(listener)  # closed by asyncpg without telling its listeners
            try:
                async with self.own_conn() as conn:
                    alive = await conn.execute(
                        "UPDATE processes SET heartbeat = now() WHERE id = $1",
                        self.process,
                        timeout=BEAT_TIMEOUT,
                    )
                    if alive != "UPDATE 1":
                        await conn.execute(
                            "INSERT INTO processes (id) VALUES ($1)",
                            self.process,
                            timeout=BEAT_TIMEOUT,
                        )
                        self._sessions = {**self._mine, **self._sessions}
                        self._flush_due.set()
                    dead = await conn.fetch(
                        "DELETE FROM processes WHERE heartbeat < now() - $1::interval RETURNING id",
                        timedelta(seconds=PROCESS_TIMEOUT),
                        timeout=BEAT_TIMEOUT,
                    )
                    if dead:
                        log.info("store: processes gone: %s", ", ".join(r[0] for r in dead))
                        await conn.execute(NOTIFY, CHANNEL, PRESENCE, timeout=BEAT_TIMEOUT)
            except StoreUnavailable:
                continue
            except Exception:
                log.warning("store: a heartbeat failed", exc_info=True)
