"""Persistence: names and their keys, games as an event log (docs/design.md), in SQLite.

One file, ``splendor.db``, in the server's data directory, in WAL mode. A game
is its seed, its seats and its moves; the moves table has one row per move
with ``PRIMARY KEY (game, seq)``, so the database itself refuses a second move
at the same place. `append_move` commits before it returns, and the host sends
a move to nobody before that, so a move anyone saw is on disk:

- ``synchronous=FULL`` (the default) fsyncs the WAL at every commit: a move
  survives a crash of the process (``kill -9``) and of the machine.
- ``synchronous=NORMAL`` skips that fsync: still safe against ``kill -9``
  (the commit is in the WAL file, the OS writes it), but a power cut may lose
  the last moves.

The methods are synchronous and thread-safe. Writes go through one connection
behind a lock, and the host calls them from one worker thread so that an fsync
never stalls the event loop. Reads go through a second, read-only connection
behind a lock of its own: WAL lets it read the last commit while a write (and its
fsync) is under way, so a read never waits for a write. Snapshots (`shared.codec`
bytes of a `GameState`) are a cache for fast resumption only; the move log is the
truth.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.codec import CodecError, loads
from shared.deal import new_game, turns
from shared.errors import SplendorError
from shared.moves import parse_move
from shared.protocol import LoggedTurn
from shared.state import GameState

log = logging.getLogger("splendor")

DB_NAME = "splendor.db"

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
GAME_STATUSES = (PLAYING, FINISHED, ABANDONED)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS names (
    name    TEXT PRIMARY KEY COLLATE NOCASE,  -- "Alice" and "alice" are one name
    key     TEXT NOT NULL,                    -- public-key fingerprint that owns it
    claimed REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    seed     INTEGER NOT NULL,
    players  INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    seats    TEXT NOT NULL,                   -- JSON list of {name, guest, key, bot}
    host     TEXT NOT NULL,                   -- who created the table
    status   TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    created  REAL NOT NULL,
    finished REAL,
    outcome  TEXT                             -- JSON {scores, ranks} when finished
);
CREATE INDEX IF NOT EXISTS games_status ON games (status);
CREATE TABLE IF NOT EXISTS moves (
    game     TEXT NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL CHECK (seq >= 0),  -- 0 for the first move of the game
    notation TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (game, seq)                      -- UNIQUE(game, seq): one move per place
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    game  TEXT NOT NULL REFERENCES games (id),
    seq   INTEGER NOT NULL,                       -- number of moves applied
    state BLOB NOT NULL,                          -- shared.codec.dumps(GameState)
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""


class StoreError(Exception):
    """The store refused a write (a duplicate move, an unknown game)."""


@dataclass(frozen=True)
class SeatRecord:
    """One seat as stored: a human (name, guest, key) or a bot (its level)."""

    name: str | None = None
    guest: bool = False
    key: str | None = None
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "guest": self.guest, "key": self.key, "bot": self.bot}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatRecord:
        return cls(d.get("name"), bool(d.get("guest")), d.get("key"), d.get("bot"))


@dataclass(frozen=True)
class GameRecord:
    """A stored game: enough to replay it (seed + moves) and to reseat its players."""

    id: str
    seed: int
    seats: tuple[SeatRecord, ...]
    host: str
    status: str
    created: float
    finished: float | None
    outcome: dict[str, Any] | None
    moves: tuple[str, ...]
    snapshot: tuple[int, bytes] | None  # (moves applied, state bytes), the latest


class Store:
    """The SQLite store in `data_dir` (created if missing)."""

    def __init__(self, data_dir: str | Path, *, synchronous: str = "FULL") -> None:
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.path = Path(data_dir) / DB_NAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=10.0
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        self._read_lock = threading.Lock()
        self._reader: sqlite3.Connection | None = sqlite3.connect(
            self.path.resolve().as_uri() + "?mode=ro",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
            timeout=10.0,
        )

    # -- plumbing ----------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The read-only connection, one reader at a time, in a read transaction: what it
        reads is the last commit as a whole, whatever the writer is doing meanwhile."""
        with self._read_lock:
            db = self._reader
            if db is None:
                raise StoreError("the store is closed")
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.execute("COMMIT")

    def _write(self, sql: str, args: Sequence[Any]) -> None:
        """One statement in its own committed transaction."""
        with self._lock:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(sql, args)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def close(self) -> None:
        """Checkpoint the WAL and close; further calls raise `StoreError`."""
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

    def claim_name(self, name: str, key_fingerprint: str) -> bool:
        """True if `name` is free (it is now owned by this key) or already this key's;
        False if another key owns it. Names compare without case. A name once owned is
        never released, so only a free name needs the write (and its wait for the disk)."""
        owner = self.name_owner(name)
        if owner is not None:
            return owner == key_fingerprint
        with self._lock:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT key FROM names WHERE name = ?", (name,)).fetchone()
                if row is None:
                    db.execute(
                        "INSERT INTO names (name, key, claimed) VALUES (?, ?, ?)",
                        (name, key_fingerprint, time.time()),
                    )
                    ok = True
                else:
                    ok = row[0] == key_fingerprint
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return ok

    def name_owner(self, name: str) -> str | None:
        """The key fingerprint that owns `name`, or None if nobody does."""
        with self._reading() as db:
            rows = db.execute("SELECT key FROM names WHERE name = ?", (name,)).fetchall()
        return str(rows[0][0]) if rows else None

    # -- games -------------------------------------------------------------

    def create_game(self, game_id: str, seed: int, seats: Sequence[SeatRecord], host: str) -> None:
        """Record a game that has just started (status "playing", no moves yet)."""
        if not 0 <= seed < 1 << 63:
            raise ValueError("a stored seed is an integer from 0 to 2**63-1")
        seats_json = json.dumps([s.to_json() for s in seats])
        try:
            self._write(
                "INSERT INTO games (id, seed, players, seats, host, status, created)"
                " VALUES (?, ?, ?, ?, ?, 'playing', ?)",
                (game_id, seed, len(seats), seats_json, host, time.time()),
            )
        except sqlite3.IntegrityError as e:
            raise StoreError(f"game {game_id}: {e}") from e

    def append_move(self, game_id: str, seq: int, notation: str) -> None:
        """Append move number `seq` (0-based) and commit; `StoreError` if that place is
        taken or the game is unknown."""
        try:
            self._write(
                "INSERT INTO moves (game, seq, notation, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, notation, time.time()),
            )
        except sqlite3.IntegrityError as e:
            raise StoreError(f"game {game_id} move {seq} `{notation}`: {e}") from e

    def take_back(self, game_id: str, seq: int) -> None:
        """Drop moves `seq` onwards of a game in progress, and the snapshots after them, in
        one transaction (offline play's undo: the game is then its seed and the moves left).
        A server never calls it: there, a move anyone has seen stays."""
        with self._lock:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                status = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
                if status is None or status[0] != PLAYING:
                    raise StoreError(f"game {game_id} is not in progress")
                db.execute("DELETE FROM moves WHERE game = ? AND seq >= ?", (game_id, seq))
                db.execute("DELETE FROM snapshots WHERE game = ? AND seq > ?", (game_id, seq))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def save_snapshot(self, game_id: str, seq: int, state: bytes) -> None:
        """Keep the state after `seq` moves (a cache; replaces one at the same place)."""
        self._write(
            "INSERT OR REPLACE INTO snapshots (game, seq, state) VALUES (?, ?, ?)",
            (game_id, seq, state),
        )

    def finish_game(
        self, game_id: str, status: str = FINISHED, outcome: dict[str, Any] | None = None
    ) -> None:
        """Mark a game finished (or abandoned); its moves stay for replays."""
        if status not in (FINISHED, ABANDONED):
            raise ValueError(f"a game finishes as {FINISHED!r} or {ABANDONED!r}, not {status!r}")
        self._write(
            "UPDATE games SET status = ?, finished = ?, outcome = ? WHERE id = ?",
            (status, time.time(), None if outcome is None else json.dumps(outcome), game_id),
        )
        with self._lock:  # snapshots only speed up resuming, which a finished game never needs
            db = self._conn()
            db.execute("DELETE FROM snapshots WHERE game = ?", (game_id,))

    def game_exists(self, game_id: str) -> bool:
        """Whether a game with this id was ever stored (a read: it never waits for a write)."""
        with self._reading() as db:
            rows = db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchall()
        return bool(rows)

    def moves(self, game_id: str) -> tuple[str, ...]:
        """The game's move log in order (a replay is seed + these)."""
        with self._reading() as db:
            rows = db.execute("SELECT notation FROM moves WHERE game = ? ORDER BY seq", (game_id,))
            return tuple(str(r[0]) for r in rows)

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._reading() as db:
            rows = db.execute(_GAME_SELECT + " WHERE id = ?", (game_id,)).fetchall()
            return self._record(db, rows[0]) if rows else None

    def games_in_progress(self) -> list[GameRecord]:
        """Every game with status "playing", oldest first, with moves and latest snapshot."""
        with self._reading() as db:
            query = _GAME_SELECT + " WHERE status = 'playing' ORDER BY created, id"
            return [self._record(db, r) for r in db.execute(query).fetchall()]

    def _record(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> GameRecord:
        """A `GameRecord` from a games row, its moves and snapshot read on `db`."""
        game_id, seed, seats, host, status, created, finished, outcome = row
        moves = tuple(
            str(r[0])
            for r in db.execute(
                "SELECT notation FROM moves WHERE game = ? ORDER BY seq", (game_id,)
            )
        )
        snap = db.execute(
            "SELECT seq, state FROM snapshots WHERE game = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        return GameRecord(
            id=str(game_id),
            seed=int(seed),
            seats=tuple(SeatRecord.from_json(s) for s in json.loads(seats)),
            host=str(host),
            status=str(status),
            created=float(created),
            finished=None if finished is None else float(finished),
            outcome=None if outcome is None else json.loads(outcome),
            moves=moves,
            snapshot=None if snap is None else (int(snap[0]), bytes(snap[1])),
        )


_GAME_SELECT = "SELECT id, seed, seats, host, status, created, finished, outcome FROM games"


def replay_record(record: GameRecord) -> GameState:
    """A stored game's state: its latest snapshot, then the moves after it, each checked
    by the engine (a bad log fails loudly); the whole log when the snapshot is unusable."""
    state, start = None, 0
    if record.snapshot is not None and record.snapshot[0] <= len(record.moves):
        try:
            snap = loads(record.snapshot[1])
            if isinstance(snap, GameState) and snap.seed == record.seed:
                state, start = snap, record.snapshot[0]
        except CodecError:
            log.warning("game %s: unreadable snapshot, replaying from the start", record.id)
    if state is None:
        state = new_game(len(record.seats), record.seed)
    for text in record.moves[start:]:
        state = state.apply(parse_move(text))
    return state


def turn_log(record: GameRecord) -> list[LoggedTurn]:
    """A stored game's turns, oldest first, from its seed and moves: what a player who
    comes back to the table sees in its move log."""
    try:
        played = turns(len(record.seats), record.seed, record.moves)
    except SplendorError:  # the game resumes all the same (replay_record says what is wrong)
        log.exception("game %s: no move log for returning players", record.id)
        return []
    return [LoggedTurn(*t) for t in played]


class AsyncStore:
    """The store as the event loop uses it: every call runs, in order, on one worker
    thread, so a commit's fsync never blocks the loop and writes keep their order."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="splendor-store")

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` (a method of `store`) on the store's thread and wait for it."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    def close(self) -> None:
        """Wait for queued writes, then close the database."""
        self._thread.shutdown(wait=True)
        self.store.close()
