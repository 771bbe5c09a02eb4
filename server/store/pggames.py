"""Tables and games in PostgreSQL (`PostgresStore`'s part): a table's seats and status by
compare-and-set on its `version`, moves at `(game, seq)` (the primary key refuses a
second: `MoveTaken`), snapshots, a game's end with its ratings, and loading them back.
Each change tells the other processes at its commit (NOTIFY, `server.store.pgnews`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import asyncpg

from .common import DROP_SNAPSHOTS, GAME_STATUS, MOVES_FROM, finish_args
from .pgnews import CHANNEL, NOTIFY, move_news, table_news
from .pgpool import Conn
from .queries import ADD_HISTORY, RATINGS_OF, UPSERT_RATING, marks, pg, rating_rows
from .ratings import NEW, Rated
from .records import (
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

Pooled = Callable[[], AbstractAsyncContextManager[Conn]]
Writer = Callable[[str, bool], AbstractAsyncContextManager[Conn]]  # (game, held) -> where


class PgGames:
    """The store's tables and games (`Store.games`: `server.store.games.Games` says what
    each method does) over `pooled()` (a connection of the pool) and
    `writer(game, held)` (where a write for a game goes: its lock holder's connection for
    an act of the holder, else the pool)."""

    def __init__(self, pooled: Pooled, writer: Writer) -> None:
        self._conn = pooled
        self._writer = writer

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
            made = await conn.fetch(_CREATE_AND_TELL, *args, CHANNEL, table_news(table))
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
            table_news(table, version + 1),
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
        event = move_news(game, seq, turn, timing, notation)
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
            status = await conn.fetchval(pg(GAME_STATUS) + " FOR UPDATE", game)
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
        async with self._conn() as conn, conn.transaction():
            done = await conn.execute(pg(FINISH), *finish_args(game, status, outcome))
            await conn.execute(pg(DROP_SNAPSHOTS), game)
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
            await conn.execute(NOTIFY, CHANNEL, table_news(game))
        return True

    async def load_game(self, game: str, moves: bool = True) -> GameRecord | None:
        async with self._conn() as conn:
            select = _WHOLE_GAME_SELECT if moves else GAME_SELECT
            row = await conn.fetchrow(select + " WHERE id = $1", game)
        return None if row is None else _record(row)

    async def moves(self, game: str, start: int = 0) -> tuple[str, ...]:
        async with self._conn() as conn:
            rows = await conn.fetch(pg(MOVES_FROM), game, start)
        return tuple(str(r[0]) for r in rows)

    async def open_tables(self) -> list[GameRecord]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                _WHOLE_GAME_SELECT + " WHERE status = ANY($1::text[]) ORDER BY created, id",
                list(OPEN_STATUSES),
            )
        return [_record(r) for r in rows]


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
