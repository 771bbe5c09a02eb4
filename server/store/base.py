"""The store's interface: one for SQLite (one process) and PostgreSQL (many).

Every method is a coroutine and never blocks the event loop: SQLite's run on threads
of their own (a commit's fsync waits there), PostgreSQL's on an asyncpg pool. The
database is the only point of order between processes: a move is accepted by being
inserted at the next `(game, seq)` (the primary key refuses the second: `MoveTaken`),
and a table's seats or status change only from the version the change names
(`update_table` answers False when another change came first).

A shared store (PostgreSQL) also tells every process what the others did
(`subscribe`: `MovePlayed`, `TableChanged`, `PresenceChanged`, and `Reconnected`
after its listening connection came back, when anything may have been missed),
keeps who is online where (`Presence`), and lends each game's bots and clock to exactly
one process at a time (`try_lock_game`; `LocksLost` when a lock went). A store that is
not shared (SQLite) has nothing to tell and every lock is this process's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .games import Forward, Games
from .queries import Standing
from .records import ChatRecord, Timing


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """Move `seq` (0-based) of `game` is stored; after it the game is at `turn`, its
    clocks at `timing` (None: a game without a clock)."""

    game: str
    seq: int
    turn: int
    notation: str
    timing: Timing | None = None


@dataclass(frozen=True, slots=True)
class TableChanged:
    """A table's seats or status changed (or it was created); `version` is the one the
    change made, when it is known: a copy already at it has nothing to read."""

    table: str
    version: int | None = None


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Sessions came, went or moved on some process (or a process died)."""


@dataclass(frozen=True, slots=True)
class Reconnected:
    """The store's listening connection was lost and is back: events may be missing."""


@dataclass(frozen=True, slots=True)
class ChatPosted:
    """A line of chat was stored (by any process, this one's own included)."""

    line: ChatRecord


@dataclass(frozen=True, slots=True)
class ChatRemoved:
    """An admin removed line `id` (said in `game`, or None: the lobby)."""

    id: int
    game: str | None


@dataclass(frozen=True, slots=True)
class LocksLost:
    """This process no longer holds these games' locks (the connection that held them
    closed): their bots and clocks stop here until it takes a lock again."""

    games: frozenset[str]


Event = (
    MovePlayed | TableChanged | PresenceChanged | Reconnected | ChatPosted | ChatRemoved | LocksLost
)


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A session somewhere in the cluster: who, and where (table None: the lobby)."""

    process: str
    session: str
    name: str
    guest: bool
    key: str | None
    table: str | None
    seat: int | None


@dataclass(frozen=True, slots=True)
class Dump:
    """Everything a database keeps that a copy needs (`splendor-server copy-db`): the rows
    of each table of `queries.COPIED`, in its columns' order. Snapshots are left out:
    they are a cache."""

    rows: dict[str, list[tuple[Any, ...]]]


@dataclass(frozen=True, slots=True)
class PastGame:
    """A finished game as a profile lists it."""

    game: str
    players: int
    status: str  # finished or abandoned
    finished: float
    seat: int  # the profile's player's
    names: tuple[str, ...]  # every seat's player, as the table showed them
    scores: tuple[int, ...]  # () when abandoned
    ranks: tuple[int, ...]
    rated: bool


@dataclass(frozen=True, slots=True)
class Profile:
    """A rated player's page: where they stand, how their rating went (newest first:
    game, when, rank, rating after, change), games and wins by player count, and their
    latest games."""

    standing: Standing | None
    history: list[tuple[str, float, int, int, int]]
    by_players: list[tuple[int, int, int]]
    recent: list[PastGame]


if TYPE_CHECKING:
    from .club import ClubQueries
    from .tournaments import TournamentQueries


class Store(ABC):
    """Names, tables and games, moves, snapshots; see the module docstring."""

    shared = False  # True when other server processes may use the same database
    club: ClubQueries  # the leaderboard, profiles, bans, renames: a part each backend makes
    tournaments: TournamentQueries  # club tournaments (schema 6): a part each backend makes

    def __init__(self) -> None:
        self._handlers: list[Callable[[Event], None]] = []

    @property
    @abstractmethod
    def url(self) -> str:
        """Where the data is (`sqlite:///…`, `postgresql://…`), for logs: no password."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date (`StoreError` if it is newer)."""

    @abstractmethod
    async def close(self) -> None:
        """Let writes under way finish, then disconnect."""

    # -- names -------------------------------------------------------------

    @abstractmethod
    async def claim_name(self, name: str, key_fingerprint: str) -> bool:
        """True if `name` is free (it is now this key's) or already this key's; False if
        another key owns it. Atomic: of two processes racing for a name, one wins."""

    @abstractmethod
    async def name_owner(self, name: str) -> str | None:
        """The key fingerprint that owns `name`, or None."""

    # -- tables and games: the part `games` (`server.store.games`) ---------

    games: Games  # tables and games, moves, snapshots: a part each backend makes
    create_table = Forward(Games.create_table)
    update_table = Forward(Games.update_table)
    append_move = Forward(Games.append_move)
    take_back = Forward(Games.take_back)
    finish_game = Forward(Games.finish_game)
    save_snapshot = Forward(Games.save_snapshot)
    load_game = Forward(Games.load_game)
    moves = Forward(Games.moves)
    open_tables = Forward(Games.open_tables)

    async def rematch_for(self, game: str) -> str | None:
        """The table that is `game`'s rematch, if one was made."""
        return await self.club.rematch_for(game)

    # -- chat ------------------------------------------------------------------

    @abstractmethod
    async def add_chat(
        self, game: str | None, seq: int, turn: int, name: str, text: str, spectator: bool
    ) -> ChatRecord:
        """Keep a line said in `game` (None: the lobby) after `seq` moves, at `turn`; every
        process hears of it (`ChatPosted`, this one's too)."""

    async def chat(
        self, game: str | None, limit: int = 50, everywhere: bool = False
    ) -> list[ChatRecord]:
        """The latest `limit` lines of `game` (None: the lobby; `everywhere`: all places),
        oldest first; removed lines are left out."""
        return await self.club.chat(game, limit, everywhere)

    @abstractmethod
    async def remove_chat(self, line: int) -> ChatRecord | None:
        """An admin removes a line (it stays in the database, marked): every process
        hears of it (`ChatRemoved`). The line, or None if there was none to remove."""

    # -- ratings, the leaderboard, profiles, bans -----------------------------

    async def rating_changes(self, game: str) -> dict[str, tuple[int, int]]:
        """For a rated game that finished: each rated player's rating after it, and by how
        much it moved (`server.store.ratings.display` points)."""
        return await self.club.rating_changes(game)

    async def leaderboard(self, limit: int, offset: int = 0) -> list[Standing]:
        """The rated players, best first (by the shown rating, then games played)."""
        return await self.club.leaderboard(limit, offset)

    async def standing(self, player: str) -> Standing | None:
        """Where a rated player stands (rank as the leaderboard numbers it), or None."""
        return await self.club.standing(player)

    async def profile(self, player: str, recent: int = 10) -> Profile:
        """A player's (a name, or bot:LEVEL) rating, its history, and latest games."""
        return await self.club.profile(player, recent)

    async def ban(self, name: str, reason: str = "") -> None:
        """Refuse `name` at login from now on."""
        return await self.club.ban(name, reason)

    async def unban(self, name: str) -> bool:
        """Admit `name` again; False if it was not banned."""
        return await self.club.unban(name)

    async def banned(self, name: str, key: str | None = None) -> str | None:
        """Why `name` is banned, or the key `key` is (it owns a banned name): the reason
        (maybe ""), or None when neither is."""
        return await self.club.banned(name, key)

    async def language(self, name: str) -> tuple[str, str | None] | None:
        """The language the player of `name` chose (issue 34) and how its right-to-left
        text shows on their terminal (visual, logical, None: not asked); None: none."""
        return await self.club.language(name)

    async def set_language(self, name: str, language: str, reading: str | None = None) -> None:
        """Keep the language a player chose, and its way of showing, with name and key."""
        await self.club.set_language(name, language, reading)

    async def mark_program(self, name: str, program: bool = True) -> bool:
        """Mark `name` as a program's (a bot account: shown with the bots' mark), or no
        longer; False if it already was so."""
        return await self.club.mark_program(name, program)

    async def is_program(self, name: str) -> bool:
        """Whether `name` is marked as a program's."""
        return await self.club.is_program(name)

    async def rename(self, old: str, new: str) -> None:
        """Give player `old` the name `new`, with its key, rating, history and seats in
        every game; `StoreError` if `new` is someone's or `old` is no one's."""
        return await self.club.rename(old, new)

    # -- copies --------------------------------------------------------------

    @abstractmethod
    async def dump(self) -> Dump:
        """Every name, table, game and move (for a copy to another database)."""

    @abstractmethod
    async def load_dump(self, dump: Dump) -> dict[str, int]:
        """Add what `dump` holds and this database does not (a row that is here already is
        kept as it is): a copy can be run again. How many rows each table got."""

    # -- the cluster ---------------------------------------------------------

    def subscribe(self, handler: Callable[[Event], None]) -> None:
        """Call `handler` (on the event loop) with what other processes do."""
        self._handlers.append(handler)

    def unsubscribe(self, handler: Callable[[Event], None]) -> None:
        """Stop calling `handler`."""
        if handler in self._handlers:
            self._handlers.remove(handler)

    def _publish(self, event: Event) -> None:
        for handler in list(self._handlers):
            handler(event)

    async def try_lock_game(self, game: str) -> bool:
        """Whether this process may run `game`'s bots and clock (it then does until it
        unlocks the game, dies, or hears `LocksLost`). Alone on its database, a process
        always may."""
        return True

    async def unlock_game(self, game: str) -> None:
        """This process no longer runs `game`'s bots."""
        return None

    async def set_session(
        self, session: str, name: str, guest: bool, key: str | None, table: str | None,
        seat: int | None,
    ) -> None:  # fmt: skip
        """Record where one of this process's sessions is (shared stores only)."""
        return None

    async def drop_session(self, session: str) -> None:
        """Forget one of this process's sessions (shared stores only)."""
        return None

    async def sessions(self) -> list[SessionRow]:
        """Every session of the other processes (none when the store is not shared)."""
        return []
