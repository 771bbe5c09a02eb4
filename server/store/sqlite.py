"""The SQLite store: one file, ``splendor.db`` by default in the data directory, WAL mode;
for one server process (a cluster needs PostgreSQL: `server.store.postgres`).

A move is committed before anyone sees it:

- ``synchronous=FULL`` (the default) fsyncs the WAL at every commit: a move survives
  a crash of the process (``kill -9``) and of the machine.
- ``synchronous=NORMAL`` skips that fsync: still safe against ``kill -9`` (the commit
  is in the WAL file, the OS writes it), but a power cut may lose the last moves.

Writes run in order on one thread of their own, so an fsync never stalls the event
loop; reads run on another thread with a read-only connection of their own (WAL lets
them read the last commit while a write is under way), so a name look-up at login
never waits behind another game's commit. The file is opened by `server.store.sqlitefile`;
tables and games are the store's part `SqliteGames` (`server.store.sqlitegames`), run on
those threads.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from .base import ChatPosted, ChatRemoved, Dump, Event, Store
from .club import ClubQueries, Statement
from .common import ADD_NAME, NAME_OWNER, select_all
from .queries import COPIED, insert_missing
from .records import (
    ADD_CHAT,
    CHAT_COLUMNS,
    ChatRecord,
    StoreError,
    chat_record,
)
from .sqlitefile import open_file
from .sqlitegames import SqliteGames
from .tournaments import TournamentQueries

DB_NAME = "splendor.db"
REMOVALS_EVERY = 2.0  # seconds between looks for chat lines an admin removed (another process)

T = TypeVar("T")


class SqliteStore(Store):
    """The store in one SQLite file (created if missing); see the module docstring."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        super().__init__()
        self.club = ClubQueries(self._rows, self._statements)
        self.tournaments = TournamentQueries(self._rows, self._statements)
        self.games = SqliteGames(self._in_write, self._in_read)
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.path = Path(path)
        self._synchronous = synchronous.upper()
        self._db: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # the write connection
        self._read_lock = threading.Lock()  # the read connection
        self._writes = ThreadPoolExecutor(1, thread_name_prefix="splendor-store")
        self._reads = ThreadPoolExecutor(1, thread_name_prefix="splendor-store-read")
        self._removals: asyncio.Task[None] | None = None  # the watch for removed chat
        self.removals_every = REMOVALS_EVERY

    @property
    def url(self) -> str:
        return f"sqlite:///{self.path}"

    # -- plumbing ----------------------------------------------------------

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._writes, fn, *args)

    async def _read(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._reads, fn, *args)

    async def _in_write(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(db, *args)` on the write thread, in a write transaction committed after it."""
        return await self._write(self._write_tx, fn, *args)

    async def _in_read(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(db, *args)` on the read thread, in a read transaction."""
        return await self._read(self._read_tx, fn, *args)

    def _write_tx(self, fn: Callable[..., T], *args: Any) -> T:
        with self._transaction() as db:
            return fn(db, *args)

    def _read_tx(self, fn: Callable[..., T], *args: Any) -> T:
        with self._reading() as db:
            return fn(db, *args)

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The write connection in a write transaction, committed at the end."""
        with self._lock:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The read-only connection in a read transaction: what it reads is the last
        commit as a whole, whatever the writer is doing meanwhile."""
        with self._read_lock:
            db = self._reader
            if db is None:
                raise StoreError("the store is closed")
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.execute("COMMIT")

    # -- opening and closing ----------------------------------------------

    async def open(self) -> None:
        """Open the file (its directory and the file are made if missing) and bring its
        schema up to date; StoreError says in one line what stopped it (SchemaTooNew, a
        newer server's database)."""
        await self._write(self._open)

    def _open(self) -> None:
        self._db, self._reader = open_file(self.path, self._synchronous)

    async def close(self) -> None:
        """Wait for queued writes, checkpoint the WAL and close."""
        if self._removals is not None:
            self._removals.cancel()
            await asyncio.gather(self._removals, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(None, self._close)

    def _close(self) -> None:
        self._writes.shutdown(wait=True)
        self._reads.shutdown(wait=True)
        with self._read_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
        with self._lock:
            if self._db is not None:
                try:
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    self._db.close()
                    self._db = None

    # -- names -------------------------------------------------------------

    async def claim_name(self, name: str, key_fingerprint: str) -> bool:
        # A name once owned is never released: only a free name needs the write (and its
        # wait for the disk).
        owner = await self.name_owner(name)
        if owner is not None:
            return owner == key_fingerprint
        return await self._in_write(_claim, name, key_fingerprint)

    async def name_owner(self, name: str) -> str | None:
        rows = await self._in_read(_fetch, NAME_OWNER, (name,))
        return str(rows[0][0]) if rows else None

    # -- chat ------------------------------------------------------------------

    async def add_chat(
        self, game: str | None, seq: int, turn: int, name: str, text: str, spectator: bool
    ) -> ChatRecord:
        row = (game, seq, turn, time.time(), name, text, int(spectator))
        line = await self._in_write(_add_chat, row)
        self._publish(ChatPosted(line))  # one process: it hears only its own
        return line

    async def remove_chat(self, line: int) -> ChatRecord | None:
        removed = await self._in_write(_remove_chat, line)
        if removed is not None:
            self._publish(ChatRemoved(removed.id, removed.game))
        return removed

    def subscribe(self, handler: Callable[[Event], None]) -> None:
        """As `Store.subscribe`; a server also hears of lines that an admin removed with
        `splendor-server chat-remove` (another process on the same file): it looks every
        `removals_every` seconds."""
        super().subscribe(handler)
        if self._removals is None:
            self._removals = asyncio.get_running_loop().create_task(self._watch_removals())

    async def _watch_removals(self) -> None:
        since = time.time()
        while True:
            await asyncio.sleep(self.removals_every)
            try:
                rows = await self._rows(
                    "SELECT id, game, removed FROM chat WHERE removed > ? ORDER BY removed", since
                )
            except (sqlite3.Error, StoreError):
                continue
            for line, game, at in rows:
                since = max(since, float(at))
                self._publish(ChatRemoved(int(line), game))

    # -- the primitives of the club's queries, and copies --------------------

    async def _rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return await self._in_read(_fetch, sql, args)

    async def _statements(self, statements: Sequence[Statement]) -> list[int]:
        return await self._in_write(_run, statements)

    async def dump(self) -> Dump:
        return await self._in_read(_dump)

    async def load_dump(self, dump: Dump) -> dict[str, int]:
        return await self._in_write(_load_dump, dump)


# -- on the store's thread, in its transaction -----------------------------------------


def _claim(db: sqlite3.Connection, name: str, key: str) -> bool:
    row = db.execute(NAME_OWNER, (name,)).fetchone()
    if row is not None:
        return bool(row[0] == key)
    db.execute(ADD_NAME, (name, key, time.time()))
    return True


def _add_chat(db: sqlite3.Connection, row: tuple[Any, ...]) -> ChatRecord:
    line = db.execute(ADD_CHAT, row).lastrowid
    assert line is not None
    return chat_record((line, *row))


def _remove_chat(db: sqlite3.Connection, line: int) -> ChatRecord | None:
    rows = db.execute(
        f"SELECT {CHAT_COLUMNS} FROM chat WHERE id = ? AND removed IS NULL", (line,)
    ).fetchall()
    db.execute("UPDATE chat SET removed = ? WHERE id = ?", (time.time(), line))
    return chat_record(rows[0]) if rows else None


def _fetch(db: sqlite3.Connection, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in db.execute(sql, args).fetchall()]


def _run(db: sqlite3.Connection, statements: Sequence[Statement]) -> list[int]:
    return [db.execute(sql, args).rowcount for sql, args in statements]


def _dump(db: sqlite3.Connection) -> Dump:
    return Dump({table: [tuple(r) for r in db.execute(select_all(table))] for table in COPIED})


def _load_dump(db: sqlite3.Connection, dump: Dump) -> dict[str, int]:
    added = {}
    for table in COPIED:
        before = db.total_changes
        db.executemany(insert_missing(table, sqlite=True), dump.rows.get(table, []))
        added[table] = db.total_changes - before
    return added
