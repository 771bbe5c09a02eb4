"""Tables and games in SQLite (`SqliteStore`'s part): a table's seats and status by
compare-and-set on its `version`, moves at `(game, seq)` (the primary key refuses a
second: `MoveTaken`), snapshots, a game's end with its ratings, and loading them back.
Each statement runs on a connection the store lends, on its thread: writes in a write
transaction, reads in a read transaction (`Run`)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

from .common import DROP_SNAPSHOTS, GAME_STATUS, MOVES_FROM, finish_args
from .queries import ADD_HISTORY, RATINGS_OF, UPSERT_RATING, marks, rating_rows
from .ratings import Rated
from .records import (
    ADD_GAME_PLAYER,
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
    GameRecord,
    MoveTaken,
    SeatRecord,
    Settings,
    StoreError,
    Timing,
    create_args,
    game_players,
    game_record,
    update_args,
)

T = TypeVar("T")


class Run(Protocol):
    """`run(fn, *args)`: `fn(db, *args)` on one of the store's connections, on its thread,
    in a transaction; what it returns."""

    def __call__(self, fn: Callable[..., T], /, *args: Any) -> Awaitable[T]: ...


class SqliteGames:
    """The store's tables and games (`Store.games`: `server.store.games.Games` says what
    each method does): writes through `write`, reads through `read`."""

    def __init__(self, write: Run, read: Run) -> None:
        self._write = write
        self._read = read

    async def create_table(
        self,
        table: str,
        seats: Sequence[SeatRecord],
        host: str,
        rated: bool = False,
        settings: Settings = DEFAULT_SETTINGS,
    ) -> bool:
        args = create_args(table, seats, host, rated, settings)
        try:
            await self._write(_create, args)
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
        return await self._write(_update, args, players, timing)

    async def append_move(
        self,
        game: str,
        seq: int,
        notation: str,
        turn: int,
        timing: Timing | None = None,
        held: bool = False,  # one process: every lock is its own
    ) -> None:
        try:
            await self._write(_append, game, seq, notation, turn, timing or Timing())
        except sqlite3.IntegrityError as e:
            taken = "UNIQUE" in str(e) or "PRIMARY" in str(e)
            error = MoveTaken if taken else StoreError
            raise error(f"game {game} move {seq} `{notation}`: {e}") from e

    async def take_back(self, game: str, seq: int) -> None:
        await self._write(_take_back, game, seq)

    async def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        await self._write(_snapshot, game, seq, state)

    async def finish_game(
        self,
        game: str,
        status: str,
        outcome: dict[str, Any] | None,
        rated: Sequence[Rated] = (),
    ) -> bool:
        return await self._write(_finish, game, status, outcome, rated)

    async def load_game(self, game: str, moves: bool = True) -> GameRecord | None:
        return await self._read(_load, game, moves)

    async def moves(self, game: str, start: int = 0) -> tuple[str, ...]:
        return await self._read(_moves, game, start)

    async def open_tables(self) -> list[GameRecord]:
        return await self._read(_open_tables)


# -- on the store's thread, in its transaction -----------------------------------------


def _create(db: sqlite3.Connection, args: tuple[Any, ...]) -> None:
    db.execute(CREATE_TABLE, args)


def _update(
    db: sqlite3.Connection,
    args: tuple[Any, ...],
    players: list[tuple[str, int, str]],
    timing: Timing | None,
) -> bool:
    if db.execute(UPDATE_TABLE, args).rowcount != 1:
        return False
    db.executemany(ADD_GAME_PLAYER, players)
    if timing is not None:
        db.execute(SET_TIMING, (timing.deadline, timing.banks_json(), args[4]))
    return True


def _append(
    db: sqlite3.Connection, game: str, seq: int, notation: str, turn: int, timing: Timing
) -> None:
    db.execute(
        "INSERT INTO moves (game, seq, notation, at) VALUES (?, ?, ?, ?)",
        (game, seq, notation, time.time()),
    )
    db.execute(MOVE_DONE, (turn, timing.deadline, timing.banks_json(), game))


def _take_back(db: sqlite3.Connection, game: str, seq: int) -> None:
    status = db.execute(GAME_STATUS, (game,)).fetchone()
    if status is None or status[0] != PLAYING:
        raise StoreError(f"game {game} is not in progress")
    for statement in TAKE_BACK:
        db.execute(statement, (game, seq))


def _snapshot(db: sqlite3.Connection, game: str, seq: int, state: bytes) -> None:
    db.execute(
        "INSERT OR REPLACE INTO snapshots (game, seq, state) VALUES (?, ?, ?)",
        (game, seq, state),
    )


def _finish(
    db: sqlite3.Connection,
    game: str,
    status: str,
    outcome: dict[str, Any] | None,
    rated: Sequence[Rated],
) -> bool:
    done = db.execute(FINISH, finish_args(game, status, outcome))
    # Snapshots only speed up loading a game in progress.
    db.execute(DROP_SNAPSHOTS, (game,))
    if done.rowcount != 1:
        return False
    if rated:
        players = [r.player for r in rated]
        rows = db.execute(RATINGS_OF.format(marks(len(players))), players).fetchall()
        ratings, history = rating_rows(game, rated, {r[0]: r[1:] for r in rows})
        db.executemany(UPSERT_RATING, ratings)
        db.executemany(ADD_HISTORY, history)
    return True


def _load(db: sqlite3.Connection, game: str, moves: bool) -> GameRecord | None:
    rows = db.execute(GAME_SELECT + " WHERE id = ?", (game,)).fetchall()
    return _record(db, rows[0], moves) if rows else None


def _open_tables(db: sqlite3.Connection) -> list[GameRecord]:
    query = GAME_SELECT + f" WHERE status IN ({marks(len(OPEN_STATUSES))}) ORDER BY created, id"
    return [_record(db, r) for r in db.execute(query, OPEN_STATUSES).fetchall()]


def _moves(db: sqlite3.Connection, game: str, start: int) -> tuple[str, ...]:
    return tuple(str(r[0]) for r in db.execute(MOVES_FROM, (game, start)))


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
