"""The games whose bots and clocks this process runs, in a PostgreSQL cluster: a session
advisory lock per game, all on one connection of this process's own (docs/cluster.md).

PostgreSQL holds a session's advisory locks while the session lives, and only then: when
the connection that took them closes (the database restarted, an admin ended it, the
network dropped it, or this process gave no sign of life for `LEASE` seconds and the
database ended the session), every lock on it goes, and another process may take them.
So this process counts a lock as held only while that connection is open: it hears when
it closes (a termination listener), looks before every answer (`is_closed`), and every
`CHECK_EVERY` seconds asks the database whether the connection still answers and still
holds what it believes (one that does not answer within `CHECK_TIMEOUT` is cut). A lost
connection tells the owner which games went (`lost`), so that their bots and clocks stop
at once; they take the lock again, on a new connection, before they act again.

What the holder does for a game (a bot's move, a time-out) is written over the connection
that holds the lock (`acting`): an act is committed only by a session that holds the lock
at its commit. Two processes never both act for one game, not even in the moment between
a lock's loss on the server and its holder hearing of it.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import asyncpg

from .records import StoreUnavailable

log = logging.getLogger("splendor")

LOCK_CLASS = 0x5350  # the first key of every game's advisory lock ("SP")
CHECK_EVERY = 2.0  # seconds between two looks at the lock connection while it holds locks
CHECK_TIMEOUT = 3.0  # seconds the look may take; then the connection is cut
# Seconds an idle lock connection lives on the server (PostgreSQL 14 and later: the
# session's idle_session_timeout). A holder that stops looking (stopped, hung, cut off)
# loses its locks then, and another process takes its games on. As long as a process
# may go unheard before it counts as dead (`pgpresence.PROCESS_TIMEOUT`).
LEASE = 8.0
# The server's keepalives on the lock connection: a holder's machine that vanished
# (no FIN, no RST) is found out within about 5 + 2 * 3 seconds, on any version. Set
# once connected, not at connecting: PgBouncer refuses startup settings it does not know.
KEEPALIVES = (
    "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3"
)

# What an unreachable, restarting or hung database raises (asyncpg's and the socket's).
# asyncpg's InternalClientError too: a statement on a connection the server has just
# ended (its FATAL read, its close not yet) meets it, and asyncpg closes the connection
# then without calling its termination listeners.
DOWN: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.InternalClientError,
)

# The game keys this session holds (a two-key advisory lock shows its keys as oids).
_HELD_KEYS = (
    "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
    " AND classid = $1 AND objsubid = 2 AND granted"
)

Connect = Callable[[dict[str, str]], Awaitable[asyncpg.Connection]]


def game_key(game: str) -> int:
    """A game's advisory lock key: a signed 32-bit hash of its id."""
    return zlib.crc32(game.encode()) - (1 << 31)


class GameLocks:
    """This process's games' locks on one connection (see the module docstring).
    `connect(settings)` makes a connection with those server settings; `lost(games)` is
    called, on the event loop and at once, with the games whose locks went."""

    def __init__(self, connect: Connect, name: str, lost: Callable[[frozenset[str]], None]) -> None:
        self._connect = connect
        self._name = name[:63]  # PostgreSQL keeps 63 bytes of an application_name
        self._lost = lost
        self._conn: asyncpg.Connection | None = None
        self._held: set[str] = set()  # games locked on `_conn`
        self._guard = asyncio.Lock()  # one statement at a time on `_conn`
        self._checker: asyncio.Task[None] | None = None

    def holds(self, game: str) -> bool:
        """Whether this process holds `game`'s lock, as far as it can know without asking:
        it took it, and the connection that took it is open."""
        conn = self._conn
        return game in self._held and conn is not None and not conn.is_closed()

    @property
    def server_pid(self) -> int | None:
        """The lock connection's backend (`pg_locks.pid`), if it is open."""
        conn = self._conn
        return None if conn is None or conn.is_closed() else conn.get_server_pid()

    async def take(self, game: str) -> bool:
        """Take `game`'s lock if no other process holds it; True if this one does now.
        A database out of reach is a no (tried again later by the caller)."""
        async with self._guard:
            if self.holds(game):
                return True
            for _ in range(2):  # a connection that closed as it was used: once more, anew
                try:
                    conn = await self._open()
                except StoreUnavailable:
                    return False
                try:
                    got = await conn.fetchval(
                        "SELECT pg_try_advisory_lock($1, $2)", LOCK_CLASS, game_key(game)
                    )
                except DOWN as e:
                    self._drop(conn, f"taking a lock failed: {e}")
                    continue
                if got:
                    self._held.add(game)
                return bool(got)
            return False

    async def release(self, game: str) -> None:
        """Let go of `game`'s lock (its game is over, or its bots no longer run here)."""
        async with self._guard:
            if game not in self._held:
                return
            self._held.discard(game)
            conn = self._conn
            if conn is None or conn.is_closed():
                return
            try:
                await conn.execute("SELECT pg_advisory_unlock($1, $2)", LOCK_CLASS, game_key(game))
            except DOWN as e:
                self._drop(conn, f"letting go of a lock failed: {e}")

    @asynccontextmanager
    async def acting(self, game: str) -> AsyncIterator[asyncpg.Connection]:
        """The lock connection, to write an act of `game`'s lock holder on;
        `StoreUnavailable` (nothing written) if this process does not hold the lock, or
        loses it meanwhile."""
        async with self._guard:
            conn = self._conn
            if conn is None or not self.holds(game):
                if conn is not None and conn.is_closed():
                    self._drop(conn, "its connection closed")
                elif game not in self._held:
                    self._lost(frozenset({game}))  # whoever believed it held stops
                raise StoreUnavailable(f"this process does not hold the lock of game {game}")
            try:
                yield conn
            except DOWN as e:
                self._drop(conn, f"the connection was lost: {e}")
                raise StoreUnavailable(f"the lock of game {game} was lost: {e}") from e

    async def close(self) -> None:
        """Let go of every lock (closing their connection) and stop looking."""
        if self._checker is not None:
            self._checker.cancel()
            await asyncio.gather(self._checker, return_exceptions=True)
        conn, self._conn = self._conn, None
        self._held.clear()
        if conn is not None and not conn.is_closed():
            try:
                await conn.close(timeout=CHECK_TIMEOUT)
            except DOWN:
                conn.terminate()

    # -- the connection ------------------------------------------------------

    async def _open(self) -> asyncpg.Connection:
        """The lock connection, made anew if it closed (its locks went with it)."""
        conn = self._conn
        if conn is not None and not conn.is_closed():
            return conn
        if conn is not None:
            self._drop(conn, "its connection closed")
        conn = await self._connect({"application_name": self._name})
        settings = KEEPALIVES
        if conn.get_server_version().major >= 14:  # the lease: see LEASE
            settings += f"; SET idle_session_timeout = {int(LEASE * 1000)}"
        try:
            await conn.execute(settings)
        except DOWN as e:
            conn.terminate()
            raise StoreUnavailable(f"the database connection was lost: {e}") from e
        conn.add_termination_listener(self._closed)
        self._conn = conn
        if self._checker is None or self._checker.done():
            self._checker = asyncio.get_running_loop().create_task(self._checks())
        return conn

    def _closed(self, conn: object) -> None:
        """The termination listener: a closed connection's locks are gone."""
        if isinstance(conn, asyncpg.Connection):
            self._drop(conn, "its connection closed")

    def _drop(self, conn: asyncpg.Connection, why: str) -> None:
        """`conn` is lost (if it is still the lock connection): every lock on it is gone,
        and the owner hears which, at once."""
        if conn is not self._conn:
            return  # one dropped before
        self._conn = None
        conn.terminate()
        games, self._held = frozenset(self._held), set()
        if games:
            log.warning("store: lost the locks of %s (%s)", ", ".join(sorted(games)), why)
            self._lost(games)

    async def _checks(self) -> None:
        """Every `CHECK_EVERY` seconds while locks are held: the connection still answers
        (within `CHECK_TIMEOUT`) and still holds them. A look that would wait for an act
        in progress is skipped: the act finds out as well (its statement's time-out)."""
        while True:
            await asyncio.sleep(CHECK_EVERY)
            if not self._held or self._guard.locked():
                continue
            try:
                async with self._guard:
                    await self._check()
            except Exception:  # the next look tries again
                log.warning("store: a look at the game locks failed", exc_info=True)

    async def _check(self) -> None:
        conn = self._conn
        if conn is None:
            return
        if conn.is_closed():  # and its termination listener not called (see DOWN)
            self._drop(conn, "its connection closed")
            return
        try:
            rows = await conn.fetch(_HELD_KEYS, LOCK_CLASS, timeout=CHECK_TIMEOUT)
        except DOWN as e:
            self._drop(conn, f"it did not answer: {e}")
            return
        keys = {int(row[0]) for row in rows}
        gone = frozenset(g for g in self._held if game_key(g) & 0xFFFFFFFF not in keys)
        if gone:  # not ours any more, though the session lives (someone let go of them)
            log.error("store: the locks of %s are no longer held", ", ".join(sorted(gone)))
            self._held -= gone
            self._lost(gone)
