"""A store's tables and games, declared once: `Games` is what each backend's part
(`pggames.PgGames`, `sqlitegames.SqliteGames`) does, and `Forward` makes each of its
methods the store's own (`Store.create_table` is `store.games.create_table`), so a
method is written in its part and nowhere else (see `server.store.base`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar, overload

from .ratings import Rated
from .records import DEFAULT_SETTINGS, GameRecord, SeatRecord, Settings, Timing

P = ParamSpec("P")
R = TypeVar("R")


class Games(Protocol):
    """Tables and games, moves, snapshots: a part each backend makes (`Store.games`)."""

    async def create_table(
        self,
        table: str,
        seats: Sequence[SeatRecord],
        host: str,
        rated: bool = False,
        settings: Settings = DEFAULT_SETTINGS,
    ) -> bool:
        """A new waiting table at version 0 (`rated`: its game will be; `settings`: its
        clock, patience, the game it is a rematch of); False if the id is taken, or if
        that game has a rematch already."""

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
        """Replace a table's seats and host (and status, seed and clocks when its game
        starts) if it is still at `version`; it is then at version + 1. False if it was
        not. `held`: an act of the game's lock holder (a time-out), see `append_move`."""

    async def append_move(
        self,
        game: str,
        seq: int,
        notation: str,
        turn: int,
        timing: Timing | None = None,
        held: bool = False,
    ) -> None:
        """Store move `seq`, and the clocks after it (`timing`), and commit (everyone hears
        of it at commit, never before); `MoveTaken` if that place is taken. `held`: an act
        of the game's lock holder (a bot's move), which a shared store writes only while
        this process holds the game's lock (`try_lock_game`; else `StoreUnavailable`, and
        nothing is written)."""

    async def take_back(self, game: str, seq: int) -> None:
        """Drop moves `seq` onwards of a game in progress, and the snapshots after them, in
        one transaction (offline play's undo: the game is then its seed and the moves
        left). A server never calls it: there, a move anyone has seen stays."""

    async def finish_game(
        self,
        game: str,
        status: str,
        outcome: dict[str, Any] | None,
        rated: Sequence[Rated] = (),
    ) -> bool:
        """A game in progress ends (finished, abandoned) or a waiting table closes; its
        moves stay. The ratings of `rated` are updated in the same transaction, so no
        game is rated twice or lost. False if it had ended already (another process came
        first): then nothing is rated."""

    async def save_snapshot(self, game: str, seq: int, state: bytes) -> None:
        """Keep the state after `seq` moves (a cache for loading a game faster)."""

    async def load_game(self, game: str, moves: bool = True) -> GameRecord | None:
        """A table as stored, with its moves and latest snapshot (unless `moves` is
        False: its seats and status are wanted, nothing more)."""

    async def moves(self, game: str, start: int = 0) -> tuple[str, ...]:
        """The game's moves from `start` on, in order."""

    async def open_tables(self) -> list[GameRecord]:
        """Every waiting table and game in progress, oldest first, with moves."""


class HasGames(Protocol):
    """What `Forward` reads: a store with its games part."""

    @property
    def games(self) -> Games: ...


class Forward(Generic[P, R]):
    """A store's method that is its games part's of the same name (`Forward(Games.moves)`
    in a class body). Read on a store it is the part's bound method itself: no coroutine
    in between, and an instance may still replace it (a test's recorder)."""

    def __init__(self, method: Callable[Concatenate[Any, P], Awaitable[R]]) -> None:
        self._name = method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, store: None, owner: type[Any]) -> Forward[P, R]: ...
    @overload
    def __get__(self, store: HasGames, owner: type[Any]) -> Callable[P, Awaitable[R]]: ...
    def __get__(
        self, store: HasGames | None, owner: type[Any]
    ) -> Forward[P, R] | Callable[P, Awaitable[R]]:
        if store is None:
            return self
        method: Callable[P, Awaitable[R]] = getattr(store.games, self._name)
        return method

    def __call__(self, store: HasGames, /, *args: P.args, **kwargs: P.kwargs) -> Awaitable[R]:
        """Called on the class (`SqliteStore.moves(store, game)`): as on the store."""
        method: Callable[P, Awaitable[R]] = getattr(store.games, self._name)
        return method(*args, **kwargs)
