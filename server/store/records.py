"""What the store keeps, as the host sees it: seats, games, their statuses, the errors.

A game is its seed, its seats and its moves (docs/design.md, "Games are an event
log"); `replay_record` rebuilds its state and `turn_log` the turns a returning player
sees. A table is stored from the moment it is created (status "waiting"), so waiting
tables survive a restart and every process of a cluster sees the same ones.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.codec import CodecError, loads
from shared.deal import new_game, turns
from shared.errors import SplendorError
from shared.moves import parse_move
from shared.players import bot_player
from shared.protocol import LoggedTurn
from shared.settings import GameSettings
from shared.state import WINNING_PRESTIGE, GameState

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
    while waiting).

    A human's seat also keeps what the clock and the other players did to it: how many
    times their time ran out (`timeouts`, the latest at turn `late`), the bot level that
    plays it for the rest of the game (`standin`) and why, in words (`why`), who voted
    for that while they were away (`votes`); and at a rematch, whether its player has
    yet to accept (`invited`)."""

    name: str | None = None
    guest: bool = False
    key: str | None = None
    bot: str | None = None
    left: float = 0.0
    invited: bool = False
    timeouts: int = 0
    late: int = 0
    standin: str | None = None
    why: str = ""
    votes: tuple[str, ...] = ()
    program: bool = False  # its player is a program (`splendor-server bot-account`)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "guest": self.guest,
            "key": self.key,
            "bot": self.bot,
            "left": self.left,
        }
        for extra in _EXTRAS:  # kept only when set: most seats never need them
            value = getattr(self, extra)
            if value:
                out[extra] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatRecord:
        return cls(
            d.get("name"),
            bool(d.get("guest")),
            d.get("key"),
            d.get("bot"),
            float(d.get("left") or 0.0),  # `true` in rows of schema 3 and before
            bool(d.get("invited")),
            int(d.get("timeouts", 0)),
            int(d.get("late", 0)),
            d.get("standin"),
            str(d.get("why", "")),
            tuple(d.get("votes", ())),
            bool(d.get("program")),
        )


_EXTRAS = ("invited", "timeouts", "late", "standin", "why", "votes", "program")


@dataclass(frozen=True)
class Settings:
    """What a table's creator chose besides its seats: its time control (`shared.clock`
    notation), its patience with absent players (seconds, for a game without a clock),
    the game it is a rematch of, and the prestige that ends its game (R15: `target`,
    of its `shared.settings.GameSettings`; a table stored before schema 5 has 15)."""

    clock: str = "none"
    patience: float = 600.0
    rematch_of: str | None = None
    target: int = WINNING_PRESTIGE


DEFAULT_SETTINGS = Settings()


@dataclass(frozen=True)
class Timing:
    """A game's clocks as stored: when the running one runs out (an absolute time, None
    when no clock runs) and, in real time, each seat's bank as of its latest turn."""

    deadline: float | None = None
    banks: tuple[float, ...] = ()

    def banks_json(self) -> str:
        return json.dumps(list(self.banks))


@dataclass(frozen=True)
class ChatRecord:
    """A stored line of chat: where (a game, or None for the lobby), when (the moves
    played and the turn then), who and what."""

    id: int
    game: str | None
    seq: int
    turn: int
    at: float
    name: str
    text: str
    spectator: bool = False


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
    rated: bool = False  # its game updates the players' ratings (server.store.ratings)
    settings: Settings = DEFAULT_SETTINGS
    timing: Timing = Timing()

    @property
    def game_settings(self) -> GameSettings:
        """The settings its game is dealt with: its seats, and the target it was made with."""
        return GameSettings(len(self.seats), self.settings.target)


GAME_COLUMNS = (
    "id", "seed", "players", "seats", "host", "status", "created", "finished", "outcome",
    "version", "turn", "rated", "clock", "patience", "deadline", "banks", "rematch_of",
    "target",
)  # fmt: skip
GAME_SELECT = f"SELECT {', '.join(GAME_COLUMNS)} FROM games"


CREATE_TABLE = (
    "INSERT INTO games (id, players, seats, host, status, created, rated, clock, patience,"
    " rematch_of, target) VALUES (?, ?, ?, ?, 'waiting', ?, ?, ?, ?, ?, ?)"
)
SET_TIMING = "UPDATE games SET deadline = ?, banks = ? WHERE id = ?"
MOVE_DONE = "UPDATE games SET turn = ?, deadline = ?, banks = ? WHERE id = ?"
CHAT_COLUMNS = "id, game, seq, turn, at, name, text, spectator"
ADD_CHAT = (
    "INSERT INTO chat (game, seq, turn, at, name, text, spectator) VALUES (?, ?, ?, ?, ?, ?, ?)"
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


def create_args(
    table: str, seats: Sequence[SeatRecord], host: str, rated: bool, settings: Settings
) -> tuple[Any, ...]:
    """`CREATE_TABLE`'s parameters, in its columns' order (both backends)."""
    return (table, len(seats), seats_json(seats), host, time.time(), int(rated),
            settings.clock, settings.patience, settings.rematch_of, settings.target)  # fmt: skip


def update_args(
    table: str, version: int, seats: Sequence[SeatRecord], host: str,
    status: str | None, seed: int | None,
) -> tuple[Any, ...]:  # fmt: skip
    """`UPDATE_TABLE`'s parameters, in order (both backends); the seed checked first."""
    check_seed(seed)
    return (seats_json(seats), host, status, seed, table, version)


def check_seed(seed: int | None) -> None:
    if seed is not None and not 0 <= seed < 1 << 63:
        raise ValueError("a stored seed is an integer from 0 to 2**63-1")


def game_record(
    row: Sequence[Any], moves: tuple[str, ...], snapshot: tuple[int, bytes] | None
) -> GameRecord:
    """A `GameRecord` from a games row (`GAME_COLUMNS` in order), its moves and snapshot."""
    game, seed, _, seats, host, status, created, finished, outcome, version, turn, rated = row[:12]
    clock, patience, deadline, banks, rematch_of, target = row[12:]
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
        settings=Settings(str(clock), float(patience), rematch_of, int(target)),
        timing=Timing(
            None if deadline is None else float(deadline),
            tuple(float(b) for b in json.loads(banks or "[]")),
        ),
    )


def chat_record(row: Sequence[Any]) -> ChatRecord:
    """A `ChatRecord` from a chat row (`CHAT_COLUMNS` in order)."""
    id_, game, seq, turn, at, name, text, spectator = row
    return ChatRecord(
        int(id_), game, int(seq), int(turn), float(at), str(name), str(text), bool(spectator)
    )


def chat_query(game: str | None, limit: int, everywhere: bool = False) -> tuple[str, list[Any]]:
    """The newest `limit` lines not removed of a game (None: the lobby; `everywhere`:
    of every place), newest first (`?` placeholders)."""
    where = "removed IS NULL"
    args: list[Any] = []
    if not everywhere:
        where += " AND game IS NULL" if game is None else " AND game = ?"
        args += [] if game is None else [game]
    sql = f"SELECT {CHAT_COLUMNS} FROM chat WHERE {where} ORDER BY id DESC LIMIT ?"
    return sql, [*args, limit]


def replay_record(record: GameRecord) -> GameState:
    """A stored game's state: its latest snapshot, then the moves after it, each checked
    by the engine (a bad log fails loudly); the whole log when the snapshot is unusable."""
    if record.seed is None:
        raise StoreError(f"table {record.id} has no game yet")
    state, start = None, 0
    if record.snapshot is not None and record.snapshot[0] <= len(record.moves):
        try:
            snap = loads(record.snapshot[1])
            same = isinstance(snap, GameState) and snap.seed == record.seed
            if same and snap.settings == record.game_settings:
                state, start = snap, record.snapshot[0]
        except CodecError:
            log.warning("game %s: unreadable snapshot, replaying from the start", record.id)
    if state is None:
        state = new_game(record.game_settings, record.seed)
    for text in record.moves[start:]:
        state = state.apply(parse_move(text))
    return state


def turn_log(record: GameRecord) -> list[LoggedTurn]:
    """A stored game's turns, oldest first, from its seed and moves: what a player who
    comes back to the table sees in its move log."""
    if record.seed is None:
        return []
    try:
        played = turns(record.game_settings, record.seed, record.moves)
    except SplendorError:  # the game resumes all the same (replay_record says what is wrong)
        log.exception("game %s: no move log for returning players", record.id)
        return []
    return [LoggedTurn(*t) for t in played]


# Offline undo: the game must still be in progress (`take_back`).
TAKE_BACK = (
    "DELETE FROM moves WHERE game = ? AND seq >= ?",
    "DELETE FROM snapshots WHERE game = ? AND seq > ?",
)
