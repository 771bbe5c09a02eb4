"""The PostgreSQL store: one database for any number of server processes on any number of
machines (docs/cluster.md). The driver is asyncpg: native to asyncio (no thread per
query), its LISTEN support calls back on the event loop, and it needs no libpq.

The database is the only point of order. A move is one transaction that inserts it
at `(game, seq)` (the primary key refuses a second: `MoveTaken`) and sends a NOTIFY,
which PostgreSQL delivers at commit, never before the move is durable. A table's
seats and status change by compare-and-set on its `version`. Every process:

- listens on one connection of its own (channel ``splendor``) and publishes what it
  hears as events; when that connection is lost it reconnects and publishes
  `Reconnected`, so that what was missed is read again;
- holds each game whose bots and clock it runs with a session advisory lock on another
  connection of its own (`server.store.pglocks`): a lock counts as held only while that
  connection lives; when it closes (the process died, the database restarted) the lock
  goes to whoever asks next, and this process stops acting for the game at once
  (`LocksLost`). What the holder does for a game is written over that connection;
- renews its row in `processes` every `HEARTBEAT_EVERY` seconds (on its listening
  connection: a sign of life never waits for the pool) and keeps its
  sessions' rows in `sessions` (written in batches); a process not heard from for
  `PROCESS_TIMEOUT` seconds is removed with its sessions by whoever notices first,
  so its players show as away within seconds.

A database that cannot be reached raises `StoreUnavailable` (the host tells the
player "the server is busy; try again in a moment"): nothing was written.

The store holds its parts, a module each: the pool and the schema (`pgpool`), tables
and games (`pggames`), the locks (`pglocks`), sessions and heartbeats (`pgpresence`),
and the NOTIFY payloads (`pgnews`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import asyncpg

from .base import Dump, LocksLost, Reconnected, SessionRow, Store
from .club import ClubQueries, Statement
from .common import ADD_NAME, NAME_OWNER, select_all
from .pggames import PgGames
from .pglocks import GameLocks
from .pgnews import CHANNEL, NOTIFY, PRESENCE, chat_news, heard, removal_news, table_news
from .pgpool import Conn, bring_up_to_date, connect, open_pool, pooled
from .pgpresence import Presence
from .queries import COPIED, insert_missing, pg
from .records import (
    ADD_CHAT,
    CHAT_COLUMNS,
    OPEN_STATUSES,
    ChatRecord,
    StoreError,
    StoreUnavailable,
    chat_record,
)
from .tournaments import TournamentQueries

log = logging.getLogger("splendor")


class PostgresStore(Store):
    """The store in a PostgreSQL database; see the module docstring. It holds its parts:
    the games (`PgGames`), the locks (`GameLocks`), the presence (`Presence`)."""

    shared = True

    def __init__(self, url: str) -> None:
        super().__init__()
        self.club = ClubQueries(self._rows, self._statements)
        self.tournaments = TournamentQueries(self._rows, self._statements)
        self._url = url
        self.process = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._pool: asyncpg.Pool | None = None
        self._listener: asyncpg.Connection | None = None
        self.games = PgGames(self._conn, self._writer)
        locks_name = f"splendor-locks {self.process}"  # pg_stat_activity shows whose
        self._locks = GameLocks(self._connect, locks_name, self._locks_lost)
        self._presence = Presence(self.process, self._conn, lambda: self._listener, self._lost)
        self._tasks: list[asyncio.Task[None]] = []  # listening again
        self._closing = False

    @property
    def url(self) -> str:
        from . import redact

        return redact(self._url)

    # -- plumbing ----------------------------------------------------------

    def _conn(self, wait: float | None = None) -> AbstractAsyncContextManager[Conn]:
        """A connection of the pool (`pgpool.pooled`), waited for up to `wait` seconds."""
        return pooled(self._pool, wait)

    async def _connect(self, settings: dict[str, str] | None = None) -> asyncpg.Connection:
        return await connect(self._url, settings)

    # -- opening and closing ----------------------------------------------

    async def open(self) -> None:
        """Connect, and bring the schema up to date. What stops it is said in one line:
        StoreUnavailable for what may pass (no answer, refused, starting up, full),
        StoreError for what will not (no such database or role, a wrong password, a URL
        asyncpg cannot use)."""
        self._pool = await open_pool(self._url)
        try:
            async with self._conn() as conn:
                await bring_up_to_date(conn)
                await conn.execute("INSERT INTO processes (id) VALUES ($1)", self.process)
            await self._listen()
        except BaseException as e:
            await self._pool.close()
            self._pool = None
            if isinstance(e, asyncpg.PostgresError):  # such as no right to create tables
                raise StoreError(f"cannot set the database up: {' '.join(str(e).split())}") from e
            raise
        self._presence.start()

    async def close(self) -> None:
        self._closing = True
        stopped = self._presence.stop()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*stopped, *self._tasks, return_exceptions=True)
        try:
            async with self._conn() as conn:  # its sessions go with it
                await conn.execute("DELETE FROM processes WHERE id = $1", self.process)
                await conn.execute(NOTIFY, CHANNEL, PRESENCE)
        except StoreUnavailable:
            pass
        await self._locks.close()
        if self._listener is not None and not self._listener.is_closed():
            await self._listener.close()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    # -- events --------------------------------------------------------------

    async def _listen(self) -> None:
        conn = await self._connect()
        await conn.add_listener(CHANNEL, self._heard)
        conn.add_termination_listener(self._lost)
        self._listener = conn

    def _heard(self, conn: object, pid: int, channel: str, payload: object) -> None:
        event = heard(str(payload))
        if event is not None:
            self._publish(event)

    def _lost(self, conn: object) -> None:
        """The listening connection closed: listen again as soon as the database lets us
        (once: the heartbeat may find it closed before its termination listener runs)."""
        if self._closing or conn is not self._listener:
            return
        self._listener = None
        log.warning("store: lost the database's events; reconnecting")
        self._tasks.append(asyncio.get_running_loop().create_task(self._relisten()))

    async def _relisten(self) -> None:
        delay = 0.2
        while not self._closing:
            try:
                await self._listen()
            except StoreUnavailable:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            log.info("store: listening to the database's events again")
            self._publish(Reconnected())
            return

    # -- names -------------------------------------------------------------

    async def claim_name(self, name: str, key_fingerprint: str) -> bool:
        name = name.lower()
        async with self._conn() as conn:
            await conn.execute(
                pg(ADD_NAME) + " ON CONFLICT (name) DO NOTHING",
                name,
                key_fingerprint,
                time.time(),
            )
            owner = await conn.fetchval(pg(NAME_OWNER), name)
        return bool(owner == key_fingerprint)

    async def name_owner(self, name: str) -> str | None:
        async with self._conn() as conn:
            owner = await conn.fetchval(pg(NAME_OWNER), name.lower())
        return None if owner is None else str(owner)

    # -- chat ------------------------------------------------------------------

    async def add_chat(
        self, game: str | None, seq: int, turn: int, name: str, text: str, spectator: bool
    ) -> ChatRecord:
        at = time.time()
        row = (game, seq, turn, at, name, text, int(spectator))
        async with self._conn() as conn, conn.transaction():
            line = await conn.fetchval(pg(ADD_CHAT) + " RETURNING id", *row)
            said = chat_record((line, *row))
            await conn.execute(NOTIFY, CHANNEL, chat_news(said))
        return said

    async def remove_chat(self, line: int) -> ChatRecord | None:
        async with self._conn() as conn, conn.transaction():
            row = await conn.fetchrow(
                f"UPDATE chat SET removed = $1 WHERE id = $2 AND removed IS NULL"
                f" RETURNING {CHAT_COLUMNS}",
                time.time(),
                line,
            )
            if row is None:
                return None
            await conn.execute(NOTIFY, CHANNEL, removal_news(line, row["game"]))
        return chat_record(tuple(row))

    # -- the primitives of the club's queries, and copies --------------------

    async def _rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        async with self._conn() as conn:
            return [tuple(r) for r in await conn.fetch(pg(sql), *args)]

    async def _statements(self, statements: Sequence[Statement]) -> list[int]:
        async with self._conn() as conn, conn.transaction():
            done = [await conn.execute(pg(sql), *args) for sql, args in statements]
        return [int(d.rsplit(" ", 1)[-1]) if d[-1].isdigit() else 0 for d in done]

    async def dump(self) -> Dump:
        async with self._conn() as conn:
            return Dump(
                {table: [tuple(r) for r in await conn.fetch(select_all(table))] for table in COPIED}
            )

    async def load_dump(self, dump: Dump) -> dict[str, int]:
        added = {}
        async with self._conn() as conn, conn.transaction():
            for table in COPIED:
                count = f"SELECT count(*) FROM {table}"
                before = await conn.fetchval(count)
                await conn.executemany(
                    insert_missing(table, sqlite=False), dump.rows.get(table, [])
                )
                added[table] = int(await conn.fetchval(count)) - int(before)
            await conn.execute(  # lines copied with their ids: new ones come after them
                "SELECT setval(pg_get_serial_sequence('chat', 'id'),"
                " COALESCE((SELECT max(id) FROM chat), 0) + 1, false)"
            )
            for (table,) in await conn.fetch(
                "SELECT id FROM games WHERE status = ANY($1)", list(OPEN_STATUSES)
            ):
                await conn.execute(NOTIFY, CHANNEL, table_news(table))
        return added

    # -- bots: one process per game ----------------------------------------

    async def try_lock_game(self, game: str) -> bool:
        return await self._locks.take(game)

    async def unlock_game(self, game: str) -> None:
        await self._locks.release(game)

    def _writer(self, game: str, held: bool) -> AbstractAsyncContextManager[Conn]:
        """Where a write for `game` goes: an act of its lock holder (`held`) over the
        connection that holds the lock (`StoreUnavailable` if none does here), else the pool."""
        return self._locks.acting(game) if held else self._conn()

    def _locks_lost(self, games: frozenset[str]) -> None:
        self._publish(LocksLost(games))

    # -- presence: the part `Presence` ----------------------------------------

    async def set_session(
        self, session: str, name: str, guest: bool, key: str | None, table: str | None,
        seat: int | None,
    ) -> None:  # fmt: skip
        self._presence.set_session((session, self.process, name, guest, key, table, seat))

    async def drop_session(self, session: str) -> None:
        self._presence.drop_session(session)

    async def sessions(self) -> list[SessionRow]:
        return await self._presence.sessions()
