"""Connections to PostgreSQL for `PostgresStore`: the pool and how long a request waits for
it, a connection of one's own, a first connection's failure said in one line, and the
schema brought up to date. Apart from the store, so its timeouts are read in one place."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import asyncpg

from .common import SET_VERSION, VERSION_TABLE, migrations
from .pglocks import DOWN
from .queries import pg
from .records import StoreError, StoreUnavailable
from .schema import POSTGRES

log = logging.getLogger("splendor")

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

# What a new connection may meet besides the database being down (`DOWN`): a database
# starting up, shutting down, refusing connections, full.
REFUSED: tuple[type[BaseException], ...] = (*DOWN, asyncpg.PostgresError)


def refusal(e: BaseException, url: str) -> StoreError | None:
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
    if isinstance(e, REFUSED):
        return StoreUnavailable(f"the database is unreachable: {said}")
    return None


async def open_pool(url: str) -> asyncpg.Pool:
    """The pool of connections to `url`; what stops it is said in one line (`refusal`)."""
    try:
        return await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            timeout=CONNECT_TIMEOUT,
            command_timeout=QUERY_TIMEOUT,
        )
    except BaseException as e:
        refused = refusal(e, url)
        if refused is None:
            raise
        raise refused from e


async def connect(url: str, settings: dict[str, str] | None = None) -> asyncpg.Connection:
    """A connection of one's own, outside the pool (listening, holding locks)."""
    try:
        return await asyncpg.connect(
            url,
            timeout=CONNECT_TIMEOUT,
            command_timeout=QUERY_TIMEOUT,
            server_settings=settings,
        )
    except REFUSED as e:
        raise StoreUnavailable(f"the database is unreachable: {e}") from e


@asynccontextmanager
async def pooled(pool: asyncpg.Pool | None, wait: float | None = None) -> AsyncIterator[Conn]:
    """A connection of `pool`, waited for up to `wait` seconds (`POOL_WAIT`); a database
    that cannot be reached or that refuses a new connection (starting up, shutting down,
    full) is `StoreUnavailable`."""
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
    except REFUSED as e:
        raise StoreUnavailable(f"the database is unreachable: {e}") from e
    got = time.monotonic()
    try:
        yield conn
    except DOWN as e:
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


# The store's own helpers: a held connection is put down to whoever called them.
_HELPERS = frozenset({"_rows", "_statements", "own_conn", "__aenter__", "__aexit__"})


def _caller() -> str:
    """The request that holds a pooled connection: the first function up the stack from
    `pooled` (past contextlib's frames and the store's helpers)."""
    frame = sys._getframe(2)  # pooled's body is 1
    while frame.f_back is not None and frame.f_code.co_name in _HELPERS:
        frame = frame.f_back
    return frame.f_code.co_name


# -- the schema ------------------------------------------------------------------------


async def bring_up_to_date(conn: Conn) -> int:
    """`migrate`, with the other processes that open the database meanwhile kept waiting."""
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        return await migrate(conn)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


async def schema_version(conn: Conn) -> int:
    if await conn.fetchval("SELECT to_regclass('schema_version')") is not None:
        return int(await conn.fetchval("SELECT version FROM schema_version"))
    return 1 if await conn.fetchval("SELECT to_regclass('games')") is not None else 0


async def migrate(conn: Conn) -> int:
    """Bring the schema to `LATEST`, one migration per transaction; the version found."""
    found = await schema_version(conn)
    for version in migrations(found):
        async with conn.transaction():
            await conn.execute(POSTGRES[version])
            await conn.execute(VERSION_TABLE)
            await conn.execute(pg(SET_VERSION), version)
        log.info("store: database schema now at version %d", version)
    return found
