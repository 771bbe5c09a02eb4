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
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from .base import (
    ChatPosted,
    ChatRemoved,
    Dump,
    LocksLost,
    MovePlayed,
    PresenceChanged,
    Reconnected,
    SessionRow,
    Store,
    TableChanged,
)
from .club import ClubQueries, Statement
from .pglocks import DOWN as _DOWN
from .pglocks import GameLocks
from .queries import (
    ADD_HISTORY,
    COPIED,
    RATINGS_OF,
    UPSERT_RATING,
    insert_missing,
    marks,
    pg,
    rating_rows,
)
from .ratings import NEW, Rated
from .records import (
    ADD_CHAT,
    CHAT_COLUMNS,
    CLOSED,
    CREATE_TABLE,
    DEFAULT_SETTINGS,
    FINISH,
    GAME_COLUMNS,
    GAME_SELECT,
    MOVE_DONE,
    OPEN_STATUSES,
    PLAYING,
    SET_TIMING,
    TAKE_BACK,
    UPDATE_TABLE,
    ChatRecord,
    GameRecord,
    MoveTaken,
    SeatRecord,
    Settings,
    StoreError,
    StoreUnavailable,
    Timing,
    chat_record,
    create_args,
    game_players,
    game_record,
    update_args,
)
from .schema import LATEST, POSTGRES, too_new
from .tournaments import TournamentQueries

log = logging.getLogger("splendor")

CHANNEL = "splendor"
HEARTBEAT_EVERY = 2.0  # seconds between a process's signs of life
PROCESS_TIMEOUT = 8.0  # seconds without one before a process counts as dead
BEAT_TIMEOUT = 3.0  # seconds a heartbeat's statement may take (then its connection is made anew)
CONNECT_TIMEOUT = 5.0  # seconds to reach the database before giving up for now
# Seconds a request waits for a pooled connection while all are in use. The database is
# answering, the process is behind (a burst of arrivals on a machine short of CPU): a
# player waits a little longer rather than hear "busy" and press again, which adds load.
# A database that refuses connections still fails at once; one that does not answer, after
# CONNECT_TIMEOUT for a new connection (or QUERY_TIMEOUT for the pool's queries in flight).
POOL_WAIT = 15.0
# Pooled connections a process holds at most (docs/cluster.md counts them). A request
# holds one across the turns of its event loop, which lag while players arrive: 8 ran
# out at 100 players arriving over two processes on a slow 2-core machine (3 to 8 told
# "busy"); 16 did not.
POOL_SIZE = 16
HELD_LONG = 1.0  # seconds: a pooled connection held this long is logged, with its user
QUERY_TIMEOUT = 10.0  # seconds a statement may take
MIGRATION_LOCK = 0x53504C  # held while the schema is brought up to date

Conn = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy  # what queries run on

# What a new connection may meet besides the database being down (`_DOWN`): a database
# starting up, shutting down, refusing connections, full.
_REFUSED: tuple[type[BaseException], ...] = (*_DOWN, asyncpg.PostgresError)


def _refusal(e: BaseException, url: str) -> StoreError | None:
    """Why a first connection to `url` failed, as one line (None: not a connection's
    failure)."""
    said = " ".join(str(e).split())  # the server's own words: 'database "x" does not exist'
    if isinstance(e, TimeoutError):
        return StoreUnavailable(f"no answer from the database server within {CONNECT_TIMEOUT:g} s")
    if isinstance(e, asyncpg.InvalidPasswordError):
        if urlsplit(url).password is None:
            return StoreError(f"the URL gives no password, and one is needed: {said}")
        return StoreError(f"wrong password: {said}")
    if isinstance(
        e, asyncpg.InvalidCatalogNameError | asyncpg.InvalidAuthorizationSpecificationError
    ):
        return StoreError(said)  # no such database; no such role, or pg_hba.conf refuses it
    if isinstance(e, asyncpg.exceptions.ClientConfigurationError | ValueError | OverflowError):
        return StoreError(f"not a database URL asyncpg can use: {said}")
    if isinstance(e, OSError):
        return StoreUnavailable(f"cannot reach the database server: {said}")
    if isinstance(e, _REFUSED):
        return StoreUnavailable(f"the database is unreachable: {said}")
    return None


class PostgresStore(Store):
    """The store in a PostgreSQL database; see the module docstring."""

    shared = True

    def __init__(self, url: str) -> None:
        super().__init__()
        self.club = ClubQueries(self._rows, self._statements)
        self.tournaments = TournamentQueries(self._rows, self._statements)
        self._url = url
        self.process = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._pool: asyncpg.Pool | None = None
        self._listener: asyncpg.Connection | None = None
        locks_name = f"splendor-locks {self.process}"  # pg_stat_activity shows whose
        self._locks = GameLocks(self._connect, locks_name, self._locks_lost)
        self._sessions: dict[str, tuple[Any, ...] | None] = {}  # session -> row (None: gone)
        self._mine: dict[str, tuple[Any, ...]] = {}  # this process's sessions, as stored
        self._flush_due = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    @property
    def url(self) -> str:
        from . import redact

        return redact(self._url)

    # -- plumbing ----------------------------------------------------------

    @asynccontextmanager
    async def _conn(self, wait: float | None = None) -> AsyncIterator[Conn]:
        """A connection of the pool, waited for up to `wait` seconds (`POOL_WAIT`); a
        database that cannot be reached or that refuses a new connection (starting up,
        shutting down, full) is `StoreUnavailable`."""
        pool = self._pool
        if pool is None:
            raise StoreUnavailable("the store is closed")
        wait = POOL_WAIT if wait is None else wait
        asked = time.monotonic()
        try:
            conn = await pool.acquire(timeout=wait)
        except TimeoutError as e:
            in_use = pool.get_size() - pool.get_idle_size()
            busy = (
                f"no database connection within {time.monotonic() - asked:.1f} s "
                f"({in_use} of {pool.get_max_size()} in use)"
            )
            raise StoreUnavailable(busy) from e
        except _REFUSED as e:
            raise StoreUnavailable(f"the database is unreachable: {e}") from e
        got = time.monotonic()
        try:
            yield conn
        except _DOWN as e:
            raise StoreUnavailable(f"the database connection was lost: {e}") from e
        finally:
            held = time.monotonic() - got
            await pool.release(conn, timeout=CONNECT_TIMEOUT)
            if held >= HELD_LONG:  # what starves the pool, when it is starved
                log.info(
                    "store: %s held a database connection %.1f s (after waiting %.1f s for it)",
                    _caller(),
                    held,
                    got - asked,
                )

    @asynccontextmanager
    async def _own_conn(self) -> AsyncIterator[Conn]:
        """The listening connection, for signs of life: they must never wait for the pool
        (with every pooled connection in use, the others would take this live process for
        dead and its players for away). While it is being made again, one of the pool's,
        waited for no longer than a heartbeat may take."""
        own = self._listener
        if own is None or own.is_closed():
            async with self._conn(wait=BEAT_TIMEOUT) as conn:
                yield conn
            return
        try:
            yield own
        except _DOWN as e:
            # Hung (a half-open link) or lost: close it, which listens again on a new one.
            own.terminate()
            raise StoreUnavailable(f"the database connection was lost: {e}") from e

    async def _connect(self, settings: dict[str, str] | None = None) -> asyncpg.Connection:
        try:
            return await asyncpg.connect(
                self._url,
                timeout=CONNECT_TIMEOUT,
                command_timeout=QUERY_TIMEOUT,
                server_settings=settings,
            )
        except _REFUSED as e:
            raise StoreUnavailable(f"the database is unreachable: {e}") from e

    # -- opening and closing ----------------------------------------------

    async def open(self) -> None:
        """Connect, and bring the schema up to date. What stops it is said in one line:
        StoreUnavailable for what may pass (no answer, refused, starting up, full),
        StoreError for what will not (no such database or role, a wrong password, a URL
        asyncpg cannot use)."""
        try:
            self._pool = await asyncpg.create_pool(
                self._url,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=QUERY_TIMEOUT,
            )
        except BaseException as e:
            refused = _refusal(e, self._url)
            if refused is None:
                raise
            raise refused from e
        try:
            async with self._conn() as conn:
                await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
                try:
                    await migrate(conn)
                finally:
                    await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
                await conn.execute("INSERT INTO processes (id) VALUES ($1)", self.process)
            await self._listen()
        except BaseException as e:
            await self._pool.close()
            self._pool = None
            if isinstance(e, asyncpg.PostgresError):  # such as no right to create tables
                raise StoreError(f"cannot set the database up: {' '.join(str(e).split())}") from e
            raise
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._heartbeats()),
            loop.create_task(self._flushes()),
        ]

    async def close(self) -> None:
        self._closing = True
        self._flush_due.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        try:
            async with self._conn() as conn:  # its sessions go with it
                await conn.execute("DELETE FROM processes WHERE id = $1", self.process)
                await conn.execute("SELECT pg_notify($1, 'p')", CHANNEL)
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
        kind, _, rest = str(payload).partition("|")
        if kind == "m":
            game, seq, turn, deadline, banks, notation = rest.split("|", 5)
            timing = _timing(deadline, banks)
            self._publish(MovePlayed(game, int(seq), int(turn), notation, timing))
        elif kind == "t":
            table, _, version = rest.partition("|")
            self._publish(TableChanged(table, int(version) if version else None))
        elif kind == "p":
            self._publish(PresenceChanged())
        elif kind == "c":  # the text last: it may hold anything but a line break
            line, game, seq, turn, at, spectator, name, text = rest.split("|", 7)
            where = game or None
            said = ChatRecord(int(line), where, int(seq), int(turn), float(at), name, text)
            self._publish(ChatPosted(replace(said, spectator=spectator == "1")))
        elif kind == "x":
            line, _, game = rest.partition("|")
            self._publish(ChatRemoved(int(line), game or None))

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
                "INSERT INTO names (name, key, claimed) VALUES ($1, $2, $3)"
                " ON CONFLICT (name) DO NOTHING",
                name,
                key_fingerprint,
                time.time(),
            )
            owner = await conn.fetchval("SELECT key FROM names WHERE name = $1", name)
        return bool(owner == key_fingerprint)

    async def name_owner(self, name: str) -> str | None:
        async with self._conn() as conn:
            owner = await conn.fetchval("SELECT key FROM names WHERE name = $1", name.lower())
        return None if owner is None else str(owner)

    # -- tables and games ------------------------------------------------

    async def create_table(
        self,
        table: str,
        seats: Sequence[SeatRecord],
        host: str,
        rated: bool = False,
        settings: Settings = DEFAULT_SETTINGS,
    ) -> bool:
        args = create_args(table, seats, host, rated, settings)
        async with self._conn() as conn:
            made = await conn.fetch(_CREATE_AND_TELL, *args, CHANNEL, _table_news(table))
        return bool(made)

    async def update_table(
        self,
        table: str,
        version: int,
        seats: Sequence[SeatRecord],
        host: str,
        status: str | None = None,
        seed: int | None = None,
        timing: Timing | None = None,
        held: bool = False,
    ) -> bool:
        args = update_args(table, version, seats, host, status, seed)
        players = game_players(table, seats) if status == PLAYING else []
        update = (
            _UPDATE_AND_TELL,
            *args,
            [seat for _, seat, _ in players],
            [player for _, _, player in players],
            CHANNEL,
            _table_news(table, version + 1),
        )
        async with self._writer(table, held) as conn:
            if timing is None:  # one statement: one round trip
                return bool(await conn.fetch(*update))
            async with conn.transaction():  # and the clocks, before the news goes out at commit
                if not await conn.fetch(*update):
                    return False
                await conn.execute(pg(SET_TIMING), timing.deadline, timing.banks_json(), table)
        return True

    async def append_move(
        self,
        game: str,
        seq: int,
        notation: str,
        turn: int,
        timing: Timing | None = None,
        held: bool = False,
    ) -> None:
        timing = timing or Timing()
        deadline = "" if timing.deadline is None else repr(timing.deadline)
        banks = ",".join(repr(b) for b in timing.banks)
        event = f"m|{game}|{seq}|{turn}|{deadline}|{banks}|{notation}"
        try:
            async with self._writer(game, held) as conn:
                await conn.execute(
                    _MOVE_AND_TELL,
                    turn,
                    timing.deadline,
                    timing.banks_json(),
                    game,
                    seq,
                    notation,
                    time.time(),
                    CHANNEL,
                    event,
                )
        except asyncpg.UniqueViolationError as e:
            raise MoveTaken(f"game {game} move {seq} `{notation}`: taken") from e

    async def take_back(self, game: str, seq: int) -> None:
        async with self._conn() as conn, conn.transaction():
            status = await conn.fetchval("SELECT status FROM games WHERE id = $1 FOR UPDATE", game)
            if status != PLAYING:
                raise StoreError(f"game {game} is not in progress")
            for statement in TAKE_BACK:
                await conn.execute(pg(statement), game, seq)

    async def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO snapshots (game, seq, state) VALUES ($1, $2, $3)"
                " ON CONFLICT (game, seq) DO UPDATE SET state = EXCLUDED.state",
                game,
                seq,
                state,
            )

    async def finish_game(
        self,
        game: str,
        status: str,
        outcome: dict[str, Any] | None,
        rated: Sequence[Rated] = (),
    ) -> bool:
        was = PLAYING if status != CLOSED else "waiting"
        data = None if outcome is None else json.dumps(outcome)
        async with self._conn() as conn, conn.transaction():
            done = await conn.execute(pg(FINISH), status, time.time(), data, game, was)
            await conn.execute("DELETE FROM snapshots WHERE game = $1", game)
            if done != "UPDATE 1":
                return False
            if rated:
                players = sorted(r.player for r in rated)
                # A newcomer has no row to lock: make one first (a concurrent insert waits
                # here), then lock every row in one order.
                await conn.executemany(
                    "INSERT INTO ratings (player, mu, sigma, games, wins, updated)"
                    " VALUES ($1, $2, $3, 0, 0, 0) ON CONFLICT (player) DO NOTHING",
                    [(p, NEW.mu, NEW.sigma) for p in players],
                )
                rows = await conn.fetch(  # locked until the end: each game's update counts
                    pg(RATINGS_OF.format(marks(len(players)))) + " ORDER BY player FOR UPDATE",
                    *players,
                )
                ratings, history = rating_rows(game, rated, {r[0]: tuple(r[1:]) for r in rows})
                await conn.executemany(pg(UPSERT_RATING), ratings)
                await conn.executemany(pg(ADD_HISTORY), history)
            await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, _table_news(game))
        return True

    async def load_game(self, game: str, moves: bool = True) -> GameRecord | None:
        async with self._conn() as conn:
            select = _WHOLE_GAME_SELECT if moves else GAME_SELECT
            row = await conn.fetchrow(select + " WHERE id = $1", game)
        return None if row is None else _record(row)

    async def moves(self, game: str, start: int = 0) -> tuple[str, ...]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                "SELECT notation FROM moves WHERE game = $1 AND seq >= $2 ORDER BY seq",
                game,
                start,
            )
        return tuple(str(r[0]) for r in rows)

    async def open_tables(self) -> list[GameRecord]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                _WHOLE_GAME_SELECT + " WHERE status = ANY($1::text[]) ORDER BY created, id",
                list(OPEN_STATUSES),
            )
        return [_record(r) for r in rows]

    # -- chat ------------------------------------------------------------------

    async def add_chat(
        self, game: str | None, seq: int, turn: int, name: str, text: str, spectator: bool
    ) -> ChatRecord:
        at = time.time()
        row = (game, seq, turn, at, name, text, int(spectator))
        async with self._conn() as conn, conn.transaction():
            line = await conn.fetchval(pg(ADD_CHAT) + " RETURNING id", *row)
            event = f"c|{line}|{game or ''}|{seq}|{turn}|{at!r}|{int(spectator)}|{name}|{text}"
            await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, event)
        return chat_record((line, *row))

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
            event = f"x|{line}|{row['game'] or ''}"
            await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, event)
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
                {
                    table: [
                        tuple(r) for r in await conn.fetch(f"SELECT {', '.join(c)} FROM {table}")
                    ]
                    for table, c in COPIED.items()
                }
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
                await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, _table_news(table))
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

    # -- presence ------------------------------------------------------------

    async def set_session(
        self, session: str, name: str, guest: bool, key: str | None, table: str | None,
        seat: int | None,
    ) -> None:  # fmt: skip
        self._sessions[session] = (session, self.process, name, guest, key, table, seat)
        self._flush_due.set()

    async def drop_session(self, session: str) -> None:
        self._sessions[session] = None
        self._flush_due.set()

    async def sessions(self) -> list[SessionRow]:
        async with self._conn() as conn:
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
        async with self._conn() as conn:
            await conn.execute(_WRITE_SESSIONS, gone, *columns, CHANNEL)
        for s in gone:
            self._mine.pop(s, None)
        self._mine.update((row[0], row) for row in rows)

    async def _heartbeats(self) -> None:
        """Renew this process's sign of life; remove processes that stopped giving one.
        A process that was taken for dead (the database was away longer than the
        timeout) comes back with its sessions. Each statement may take `BEAT_TIMEOUT`
        at most: a sign of life that comes late is no sign of life."""
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY)
            if self._listener is not None and self._listener.is_closed():
                self._lost(self._listener)  # closed by asyncpg without telling its listeners
            try:
                async with self._own_conn() as conn:
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
                        await conn.execute(
                            "SELECT pg_notify($1, 'p')", CHANNEL, timeout=BEAT_TIMEOUT
                        )
            except StoreUnavailable:
                continue
            except Exception:
                log.warning("store: a heartbeat failed", exc_info=True)


# The commonest writes in one statement each, so one round trip (a statement is its own
# transaction, and its NOTIFY goes out at its commit): a connection is held for one turn
# of the event loop, not one a statement, which counts on a loop that lags (a machine
# short of CPU). `pg_notify` runs once for each row written: none, if none was.
_N_CREATE = CREATE_TABLE.count("?")
_CREATE_AND_TELL = (
    f"WITH made AS ({pg(CREATE_TABLE)} ON CONFLICT DO NOTHING RETURNING id)"
    f" SELECT pg_notify(${_N_CREATE + 1}, ${_N_CREATE + 2}) FROM made"
)
_N_UPDATE = UPDATE_TABLE.count("?")
# A game that starts: its players for profiles too (ADD_GAME_PLAYER's rows, as arrays).
_UPDATE_AND_TELL = (
    f"WITH changed AS ({pg(UPDATE_TABLE)} RETURNING id),"
    " players AS (INSERT INTO game_players (game, seat, player)"
    f" SELECT changed.id, p.seat, p.player FROM changed,"
    f" unnest(${_N_UPDATE + 1}::int[], ${_N_UPDATE + 2}::text[]) AS p(seat, player))"
    f" SELECT pg_notify(${_N_UPDATE + 3}, ${_N_UPDATE + 4}) FROM changed"
)

# MOVE_DONE's placeholders (turn, deadline, banks, the game) come first: $1 to $4.
_MOVE_AND_TELL = (
    f"WITH done AS ({pg(MOVE_DONE)}), played AS (INSERT INTO moves (game, seq, notation, at)"
    " VALUES ($4, $5, $6, $7) RETURNING game) SELECT pg_notify($8, $9) FROM played"
)


def _table_news(table: str, version: int | None = None) -> str:
    """The NOTIFY payload of a table's change (`_heard` reads it): the version it made,
    when known, spares a copy already at it a read."""
    return f"t|{table}" if version is None else f"t|{table}|{version}"


# The store's own helpers: a held connection is put down to whoever called them.
_HELPERS = frozenset({"_rows", "_statements", "_own_conn", "__aenter__", "__aexit__"})


def _caller() -> str:
    """The request that holds a pooled connection: the first function up the stack from
    `_conn` (past contextlib's frames and the store's helpers)."""
    frame = sys._getframe(2)  # _conn's body is 1
    while frame.f_back is not None and frame.f_code.co_name in _HELPERS:
        frame = frame.f_back
    return frame.f_code.co_name


def _timing(deadline: str, banks: str) -> Timing | None:
    """A move's clocks as its event carries them (empty: a game without a clock)."""
    if not deadline and not banks:
        return None
    return Timing(
        float(deadline) if deadline else None,
        tuple(float(b) for b in banks.split(",")) if banks else (),
    )


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

# A game's row with its moves and latest snapshot, in one round trip: a connection held
# across three (row, snapshot, moves) waited three turns of a busy event loop for their
# answers, and loading the games other processes start starved the pool as players
# arrived (a second or more a load, at 100 players over two processes).
_LATEST_SNAPSHOT = "FROM snapshots WHERE game = games.id ORDER BY seq DESC LIMIT 1"

_WHOLE_GAME_SELECT = (
    f"SELECT {', '.join(GAME_COLUMNS)},"
    " (SELECT array_agg(notation ORDER BY seq) FROM moves WHERE game = games.id),"
    f" (SELECT seq {_LATEST_SNAPSHOT}), (SELECT state {_LATEST_SNAPSHOT})"
    " FROM games"
)


def _record(row: asyncpg.Record) -> GameRecord:
    """A `GameRecord` from a `GAME_SELECT` row (without moves), or from a
    `_WHOLE_GAME_SELECT` one: the games columns, then the moves (NULL for none) and the
    latest snapshot's seq and state (NULL for none)."""
    columns = len(GAME_COLUMNS)
    if len(row) == columns:
        return game_record(tuple(row), (), None)
    moves, seq, state = row[columns], row[columns + 1], row[columns + 2]
    snapshot = None if seq is None else (int(seq), bytes(state))
    return game_record(tuple(row)[:columns], tuple(str(m) for m in moves or ()), snapshot)


async def schema_version(conn: Conn) -> int:
    if await conn.fetchval("SELECT to_regclass('schema_version')") is not None:
        return int(await conn.fetchval("SELECT version FROM schema_version"))
    return 1 if await conn.fetchval("SELECT to_regclass('games')") is not None else 0


async def migrate(conn: Conn) -> int:
    """Bring the schema to `LATEST`, one migration per transaction; the version found."""
    found = await schema_version(conn)
    if found > LATEST:
        raise too_new(found)
    for version in range(found + 1, LATEST + 1):
        async with conn.transaction():
            await conn.execute(POSTGRES[version])
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
                "DELETE FROM schema_version;"
            )
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
        log.info("store: database schema now at version %d", version)
    return found
