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
never waits behind another game's commit.
"""

from __future__ import annotations

import asyncio
import json
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
from .queries import (
    ADD_HISTORY,
    COPIED,
    RATINGS_OF,
    UPSERT_RATING,
    insert_missing,
    marks,
    rating_rows,
)
from .ratings import Rated
from .records import (
    ADD_CHAT,
    ADD_GAME_PLAYER,
    CHAT_COLUMNS,
    CLOSED,
    CREATE_TABLE,
    DEFAULT_SETTINGS,
    FINISH,
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
    Timing,
    chat_record,
    create_args,
    game_players,
    game_record,
    update_args,
)
from .schema import LATEST, SQLITE, too_new
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
        where = self.path.parent
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"cannot make the directory {where}: {e.strerror}") from None
        db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=10
            )
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={self._synchronous}")
            migrate(db)
            db.execute("PRAGMA foreign_keys=ON")
            self._reader = sqlite3.connect(
                self.path.resolve().as_uri() + "?mode=ro",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
                timeout=10.0,
            )
        except BaseException as e:
            if db is not None:
                db.close()
            if isinstance(e, sqlite3.Error | OSError):  # not a database, cannot write, ...
                raise StoreError(f"cannot open the SQLite database {self.path}: {e}") from None
            raise
        self._db = db

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
        return await self._write(self._claim, name, key_fingerprint)

    def _claim(self, name: str, key: str) -> bool:
        with self._transaction() as db:
            row = db.execute("SELECT key FROM names WHERE name = ?", (name,)).fetchone()
            if row is not None:
                return bool(row[0] == key)
            db.execute(
                "INSERT INTO names (name, key, claimed) VALUES (?, ?, ?)", (name, key, time.time())
            )
            return True

    async def name_owner(self, name: str) -> str | None:
        return await self._read(self._owner, name)

    def _owner(self, name: str) -> str | None:
        with self._reading() as db:
            rows = db.execute("SELECT key FROM names WHERE name = ?", (name,)).fetchall()
        return str(rows[0][0]) if rows else None

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
        return await self._write(self._create, args)

    def _create(self, args: tuple[Any, ...]) -> bool:
        try:
            with self._transaction() as db:
                db.execute(CREATE_TABLE, args)
        except sqlite3.IntegrityError:
            return False
        return True

    async def update_table(
        self,
        table: str,
        version: int,
        seats: Sequence[SeatRecord],
        host: str,
        status: str | None = None,
        seed: int | None = None,
        timing: Timing | None = None,
        held: bool = False,  # one process: every lock is its own
    ) -> bool:
        args = update_args(table, version, seats, host, status, seed)
        players = game_players(table, seats) if status == PLAYING else []
        return await self._write(self._update, args, players, timing)

    def _update(
        self, args: tuple[Any, ...], players: list[tuple[str, int, str]], timing: Timing | None
    ) -> bool:
        with self._transaction() as db:
            if db.execute(UPDATE_TABLE, args).rowcount != 1:
                return False
            db.executemany(ADD_GAME_PLAYER, players)
            if timing is not None:
                db.execute(SET_TIMING, (timing.deadline, timing.banks_json(), args[4]))
            return True

    async def append_move(
        self,
        game: str,
        seq: int,
        notation: str,
        turn: int,
        timing: Timing | None = None,
        held: bool = False,  # one process: every lock is its own
    ) -> None:
        await self._write(self._append, game, seq, notation, turn, timing or Timing())

    def _append(self, game: str, seq: int, notation: str, turn: int, timing: Timing) -> None:
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO moves (game, seq, notation, at) VALUES (?, ?, ?, ?)",
                    (game, seq, notation, time.time()),
                )
                db.execute(MOVE_DONE, (turn, timing.deadline, timing.banks_json(), game))
        except sqlite3.IntegrityError as e:
            taken = "UNIQUE" in str(e) or "PRIMARY" in str(e)
            error = MoveTaken if taken else StoreError
            raise error(f"game {game} move {seq} `{notation}`: {e}") from e

    async def take_back(self, game: str, seq: int) -> None:
        await self._write(self._take_back, game, seq)

    def _take_back(self, game: str, seq: int) -> None:
        with self._transaction() as db:
            status = db.execute("SELECT status FROM games WHERE id = ?", (game,)).fetchone()
            if status is None or status[0] != PLAYING:
                raise StoreError(f"game {game} is not in progress")
            for statement in TAKE_BACK:
                db.execute(statement, (game, seq))

    async def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        await self._write(self._snapshot, game, seq, state)

    def _snapshot(self, game: str, seq: int, state: bytes) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO snapshots (game, seq, state) VALUES (?, ?, ?)",
                (game, seq, state),
            )

    async def finish_game(
        self,
        game: str,
        status: str,
        outcome: dict[str, Any] | None,
        rated: Sequence[Rated] = (),
    ) -> bool:
        data = None if outcome is None else json.dumps(outcome)
        return await self._write(self._finish, game, status, data, rated)

    def _finish(self, game: str, status: str, outcome: str | None, rated: Sequence[Rated]) -> bool:
        was = PLAYING if status != CLOSED else "waiting"
        with self._transaction() as db:
            done = db.execute(FINISH, (status, time.time(), outcome, game, was))
            # Snapshots only speed up loading a game in progress.
            db.execute("DELETE FROM snapshots WHERE game = ?", (game,))
            if done.rowcount != 1:
                return False
            if rated:
                players = [r.player for r in rated]
                rows = db.execute(RATINGS_OF.format(marks(len(players))), players).fetchall()
                ratings, history = rating_rows(game, rated, {r[0]: r[1:] for r in rows})
                db.executemany(UPSERT_RATING, ratings)
                db.executemany(ADD_HISTORY, history)
            return True

    async def load_game(self, game: str, moves: bool = True) -> GameRecord | None:
        return await self._read(self._load, game, moves)

    def _load(self, game: str, moves: bool) -> GameRecord | None:
        with self._reading() as db:
            rows = db.execute(GAME_SELECT + " WHERE id = ?", (game,)).fetchall()
            return _record(db, rows[0], moves) if rows else None

    async def moves(self, game: str, start: int = 0) -> tuple[str, ...]:
        return await self._read(self._moves, game, start)

    def _moves(self, game: str, start: int) -> tuple[str, ...]:
        with self._reading() as db:
            return _moves(db, game, start)

    async def open_tables(self) -> list[GameRecord]:
        return await self._read(self._open_tables)

    def _open_tables(self) -> list[GameRecord]:
        marks = ", ".join("?" for _ in OPEN_STATUSES)
        with self._reading() as db:
            query = GAME_SELECT + f" WHERE status IN ({marks}) ORDER BY created, id"
            return [_record(db, r) for r in db.execute(query, OPEN_STATUSES).fetchall()]

    # -- chat ------------------------------------------------------------------

    async def add_chat(
        self, game: str | None, seq: int, turn: int, name: str, text: str, spectator: bool
    ) -> ChatRecord:
        row = (game, seq, turn, time.time(), name, text, int(spectator))
        line = await self._write(self._add_chat, row)
        self._publish(ChatPosted(line))  # one process: it hears only its own
        return line

    def _add_chat(self, row: tuple[Any, ...]) -> ChatRecord:
        with self._transaction() as db:
            line = db.execute(ADD_CHAT, row).lastrowid
        assert line is not None
        return chat_record((line, *row))

    async def remove_chat(self, line: int) -> ChatRecord | None:
        removed = await self._write(self._remove_chat, line)
        if removed is not None:
            self._publish(ChatRemoved(removed.id, removed.game))
        return removed

    def _remove_chat(self, line: int) -> ChatRecord | None:
        with self._transaction() as db:
            rows = db.execute(
                f"SELECT {CHAT_COLUMNS} FROM chat WHERE id = ? AND removed IS NULL", (line,)
            ).fetchall()
            db.execute("UPDATE chat SET removed = ? WHERE id = ?", (time.time(), line))
        return chat_record(rows[0]) if rows else None

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
        return await self._read(self._fetch, sql, args)

    def _fetch(self, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self._reading() as db:
            return [tuple(r) for r in db.execute(sql, args).fetchall()]

    async def _statements(self, statements: Sequence[Statement]) -> list[int]:
        return await self._write(self._run, statements)

    def _run(self, statements: Sequence[Statement]) -> list[int]:
        with self._transaction() as db:
            return [db.execute(sql, args).rowcount for sql, args in statements]

    async def dump(self) -> Dump:
        return await self._read(self._dump)

    def _dump(self) -> Dump:
        with self._reading() as db:
            return Dump(
                {
                    table: [tuple(r) for r in db.execute(f"SELECT {', '.join(c)} FROM {table}")]
                    for table, c in COPIED.items()
                }
            )

    async def load_dump(self, dump: Dump) -> dict[str, int]:
        return await self._write(self._load_dump, dump)

    def _load_dump(self, dump: Dump) -> dict[str, int]:
        added = {}
        with self._transaction() as db:
            for table in COPIED:
                before = db.total_changes
                db.executemany(insert_missing(table, sqlite=True), dump.rows.get(table, []))
                added[table] = db.total_changes - before
        return added


def _moves(db: sqlite3.Connection, game: str, start: int) -> tuple[str, ...]:
    rows = db.execute(
        "SELECT notation FROM moves WHERE game = ? AND seq >= ? ORDER BY seq", (game, start)
    )
    return tuple(str(r[0]) for r in rows)


def _record(db: sqlite3.Connection, row: tuple[Any, ...], moves: bool = True) -> GameRecord:
    """A `GameRecord` from a games row, with its moves and latest snapshot read on `db`
    (unless `moves` is False)."""
    if not moves:
        return game_record(row, (), None)
    snap = db.execute(
        "SELECT seq, state FROM snapshots WHERE game = ? ORDER BY seq DESC LIMIT 1", (row[0],)
    ).fetchone()
    snapshot = None if snap is None else (int(snap[0]), bytes(snap[1]))
    return game_record(row, _moves(db, row[0], 0), snapshot)


def schema_version(db: sqlite3.Connection) -> int:
    """The database's schema version: 0 when empty, 1 for a database from before
    versions were recorded."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" in tables:
        return int(db.execute("SELECT version FROM schema_version").fetchone()[0])
    return 1 if "games" in tables else 0


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema to `LATEST`, one migration per transaction; the version found."""
    found = schema_version(db)
    if found > LATEST:
        raise too_new(found)
    db.execute("PRAGMA foreign_keys=OFF")  # a migration may rebuild a referenced table
    for version in range(found + 1, LATEST + 1):
        db.executescript(
            "BEGIN IMMEDIATE;\n"
            + SQLITE[version]
            + "\nCREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
            + "\nDELETE FROM schema_version;"
            + f"\nINSERT INTO schema_version (version) VALUES ({version});\nCOMMIT;"
        )
    return found
