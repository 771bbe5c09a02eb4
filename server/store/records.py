"""What the store keeps, as the host sees it: seats, games, their statuses, the errors.

A game is its seed, its seats and its moves (docs/design.md, "Games are an event
log"); `replay_record` rebuilds its state and `turn_log` the turns a returning player
sees. A table is stored from the moment it is created (status "waiting"), so waiting
tables survive a restart and every process of a cluster sees the same ones.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.codec import CodecError, loads
from shared.deal import new_game, turns
from shared.errors import SplendorError
from shared.moves import parse_move
from shared.players import bot_player
from shared.protocol import LoggedTurn
from shared.state import GameState

log = logging.getLogger("splendor")

WAITING, PLAYING, FINISHED, ABANDONED, CLOSED = (
    "waiting",
    "playing",
    "finished",
    "abandoned",
    "closed",  # emptied before its game began
)
OPEN_STATUSES = (WAITING, PLAYING)
GAME_STATUSES = (WAITING, PLAYING, FINISHED, ABANDONED, CLOSED)


class StoreError(Exception):
    """The store refused a request (an unknown game, a value it cannot keep)."""


class MoveTaken(StoreError):
    """Another move is stored at that place (game, seq): it got there first."""


class StoreUnavailable(StoreError):
    """The database cannot be reached just now; nothing was written."""


@dataclass(frozen=True)
class SeatRecord:
    """One seat as stored: a human (name, guest, key; `left`: when they went back to the
    lobby during the game, 0 if they have not), a bot (its level), or neither (open,
    while waiting)."""

    name: str | None = None
    guest: bool = False
    key: str | None = None
    bot: str | None = None
    left: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "guest": self.guest,
            "key": self.key,
            "bot": self.bot,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatRecord:
        return cls(
            d.get("name"),
            bool(d.get("guest")),
            d.get("key"),
            d.get("bot"),
            float(d.get("left") or 0.0),  # `true` in rows of schema 3 and before
        )


@dataclass(frozen=True)
class GameRecord:
    """A stored table: its seats and status, and once it plays enough to replay the game
    (seed + moves) and to reseat its players. `version` counts the changes to its seats
    and status (every change must name the version it changes: two processes never
    overwrite each other); `turn` is the game's turn after its latest move."""

    id: str
    seed: int | None
    seats: tuple[SeatRecord, ...]
    host: str
    status: str
    created: float
    finished: float | None = None
    outcome: dict[str, Any] | None = None
    moves: tuple[str, ...] = ()
    snapshot: tuple[int, bytes] | None = None  # (moves applied, state bytes), the latest
    version: int = 0
    turn: int = 0
    rated: bool = False  # its game updates the players' ratings (server.ratings)


GAME_COLUMNS = (
    "id", "seed", "players", "seats", "host", "status", "created", "finished", "outcome",
    "version", "turn", "rated",
)  # fmt: skip
GAME_SELECT = f"SELECT {', '.join(GAME_COLUMNS)} FROM games"


CREATE_TABLE = (
    "INSERT INTO games (id, players, seats, host, status, created, rated)"
    " VALUES (?, ?, ?, ?, 'waiting', ?, ?)"
)
UPDATE_TABLE = (
    "UPDATE games SET seats = ?, host = ?, status = COALESCE(?, status),"
    " seed = COALESCE(?, seed), version = version + 1 WHERE id = ? AND version = ?"
)
FINISH = (
    "UPDATE games SET status = ?, finished = ?, outcome = ?, version = version + 1"
    " WHERE id = ? AND status = ?"
)
ADD_GAME_PLAYER = "INSERT INTO game_players (game, seat, player) VALUES (?, ?, ?)"


def game_players(game: str, seats: Sequence[SeatRecord]) -> list[tuple[str, int, str]]:
    """Who plays a game that starts, for profiles: players with a key (by name) and bots
    (by level, as `shared.players.bot_player` names them); never guests."""
    out = []
    for i, s in enumerate(seats):
        if s.bot is not None:
            out.append((game, i, bot_player(s.bot)))
        elif s.name is not None and not s.guest:
            out.append((game, i, s.name.lower()))
    return out


def seats_json(seats: Sequence[SeatRecord]) -> str:
    """Seats as both backends keep them (a JSON list)."""
    return json.dumps([s.to_json() for s in seats])


def check_seed(seed: int | None) -> None:
    if seed is not None and not 0 <= seed < 1 << 63:
        raise ValueError("a stored seed is an integer from 0 to 2**63-1")


def game_record(
    row: Sequence[Any], moves: tuple[str, ...], snapshot: tuple[int, bytes] | None
) -> GameRecord:
    """A `GameRecord` from a games row (`GAME_COLUMNS` in order), its moves and snapshot."""
    game, seed, _, seats, host, status, created, finished, outcome, version, turn, rated = row
    return GameRecord(
        id=str(game),
        seed=None if seed is None else int(seed),
        seats=tuple(SeatRecord.from_json(s) for s in json.loads(seats)),
        host=str(host),
        status=str(status),
        created=float(created),
        finished=None if finished is None else float(finished),
        outcome=None if outcome is None else json.loads(outcome),
        moves=moves,
        snapshot=snapshot,
        version=int(version),
        turn=int(turn),
        rated=bool(rated),
    )


def replay_record(record: GameRecord) -> GameState:
    """A stored game's state: its latest snapshot, then the moves after it, each checked
    by the engine (a bad log fails loudly); the whole log when the snapshot is unusable."""
    if record.seed is None:
        raise StoreError(f"table {record.id} has no game yet")
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
    if record.seed is None:
        return []
    try:
        played = turns(len(record.seats), record.seed, record.moves)
    except SplendorError:  # the game resumes all the same (replay_record says what is wrong)
        log.exception("game %s: no move log for returning players", record.id)
        return []
    return [LoggedTurn(*t) for t in played]


# Offline undo: the game must still be in progress (`take_back`).
TAKE_BACK = (
    "DELETE FROM moves WHERE game = ? AND seq >= ?",
    "DELETE FROM snapshots WHERE game = ? AND seq > ?",
)
