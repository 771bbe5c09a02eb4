"""In-process clients for the game host: bytes both ways through the codec, as over SSH."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from client.connection import Connection
from server.host.gamehost import GameHost
from server.host.hostsettings import HostSettings
from server.host.identity import Identity
from server.store import SqliteStore, Store, open_store
from server.store.schema import SQLITE
from shared import protocol
from shared.moves import Buy, Move, Pass, Reserve, ReserveDeck, Return, Take, parse_move
from shared.protocol import (
    ClientMessage,
    Create,
    HostMessage,
    Join,
    LobbyList,
    Notice,
    PlayMove,
    Start,
    TableUpdate,
)
from shared.view import PlayerView

TINY_BUDGETS = {"easy": 0.01, "medium": 0.01, "hard": 0.02}
WAIT = 15.0  # seconds any single expected message may take, at most

Message = HostMessage
M = TypeVar("M", bound=HostMessage)


def quick_settings(**changes: Any) -> HostSettings:
    """A test host's settings: no bot pause, a quick lobby, seeds 1000, 1001, ...; with
    `changes` (a clock, the practice tools)."""
    quick = HostSettings(seeds=itertools.count(1000).__next__, bot_pause=0.0, lobby_tick=0.05)
    return replace(quick, **changes)


def make_host(
    data_dir: Path, executor: Executor | None, settings: HostSettings | None = None, **wiring: Any
) -> GameHost:
    """A host for tests: tiny bot budgets, `settings` or `quick_settings()`; `wiring` goes
    to `GameHost` (database, store, workers)."""
    settings = settings or quick_settings()
    return GameHost(
        data_dir, bot_budgets=TINY_BUDGETS, bot_executor=executor, settings=settings, **wiring
    )


class StartHost(Protocol):
    """The `start_host` fixture (tests/host/conftest.py): `make_host`, started."""

    async def __call__(
        self, data_dir: Path | None = None, settings: HostSettings | None = None, **wiring: Any
    ) -> GameHost: ...


def sqlite_at(path: Path, version: int) -> sqlite3.Connection:
    """A SQLite database as a server of schema `version` left it (its tables and its
    version row), open for the test to add rows of that time; the test commits and closes."""
    db = sqlite3.connect(path)
    for step in range(1, version + 1):
        db.executescript(SQLITE[step])
    db.executescript("CREATE TABLE schema_version (version INTEGER NOT NULL);")
    db.execute("INSERT INTO schema_version VALUES (?)", (version,))
    return db


async def opened(url: str) -> Store:
    """A store on the database at `url`, open (the test's fixtures close the database)."""
    store = open_store(url)
    await store.open()
    return store


@asynccontextmanager
async def opened_stores(url: str, count: int) -> AsyncIterator[list[Any]]:
    """`count` stores on the database at `url`, each as one server process opens its own;
    all closed at the end."""
    stores = [open_store(url) for _ in range(count)]
    try:
        for store in stores:
            await store.open()
        yield stores
    finally:
        for store in stores:
            await store.close()


@asynccontextmanager
async def write_in_progress(store: SqliteStore) -> AsyncIterator[asyncio.Future[bool]]:
    """A write that holds `store` for as long as the block runs, as a commit waiting on
    the disk would: another connection holds the database's write lock, and a
    `claim_name` of a new name waits for it on the store's write thread, holding the
    store's own write lock. Yields that claim (not done as long as the write is held)."""
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    writer = asyncio.ensure_future(store.claim_name("writer", "SHA256:writer-key"))
    try:
        deadline = time.monotonic() + WAIT
        while not store._lock.locked():  # the writer has the store's write lock
            assert not writer.done() and time.monotonic() < deadline, "the write never began"
            await asyncio.sleep(0.01)
        yield writer
    finally:
        other.execute("ROLLBACK")
        other.close()
        await asyncio.wait_for(writer, WAIT)


def identity(name: str, guest: bool = False) -> Identity:
    return Identity(name, guest, None if guest else f"SHA256:{name}-key")


class HostConnection(Connection):
    """A client of an in-process host: keeps every byte string and decoded message."""

    def __init__(self, host: GameHost, who: Identity) -> None:
        super().__init__()
        self.raw: list[bytes] = []
        self.messages: list[Message] = []
        self.cursor = 0  # `next` looks at messages from here on
        self._arrived = asyncio.Event()
        self.set_receiver(self._receive)
        self.link = host.connect(who, self.deliver)

    def _receive(self, data: bytes) -> None:
        self.raw.append(data)
        self.messages.append(protocol.decode_host(data))
        self._arrived.set()

    def send(self, data: bytes) -> None:
        self.link.send(data)

    def close(self) -> None:
        self.link.close()

    def cmd(self, msg: ClientMessage) -> None:
        self.send(protocol.encode(msg))

    async def next(self, pred: Callable[[Message], bool] = lambda m: True) -> Message:
        """The first message from the cursor on that satisfies `pred`; the cursor moves past it."""

        async def wait() -> Message:
            while True:
                while self.cursor < len(self.messages):
                    msg = self.messages[self.cursor]
                    self.cursor += 1
                    if pred(msg):
                        return msg
                self._arrived.clear()
                await self._arrived.wait()

        return await asyncio.wait_for(wait(), WAIT)

    async def next_of(self, t: type[M], pred: Callable[[M], bool] = lambda m: True) -> M:
        """The next message of type `t` that satisfies `pred`."""
        msg = await self.next(lambda m: isinstance(m, t) and pred(m))
        assert isinstance(msg, t)
        return msg

    def skip(self) -> None:
        """Forget what has arrived so far."""
        self.cursor = len(self.messages)

    def since(self, mark: int) -> list[Message]:
        return self.messages[mark:]

    @property
    def last_table(self) -> TableUpdate:
        return next(m for m in reversed(self.messages) if isinstance(m, TableUpdate))

    @property
    def view(self) -> PlayerView:
        return self.last_table.view


def pick(view: PlayerView) -> Move:
    """A plain deterministic player: buy, else take, else return, else reserve, else pass."""
    for kind in (Buy, Take, Return, Reserve, ReserveDeck, Pass):
        for m in view.legal_moves:
            if isinstance(m, kind):
                return m
    raise AssertionError("no legal move in a view that asked for one")


def my_turn(m: Message) -> bool:
    return isinstance(m, TableUpdate) and (m.view.is_over or bool(m.view.legal_moves))


async def table_when(conn: HostConnection, pred: Callable[[TableUpdate], bool]) -> TableUpdate:
    """The latest table message if it satisfies `pred`, else the next one that does."""
    tables = [m for m in conn.messages if isinstance(m, TableUpdate)]
    if tables and pred(tables[-1]):
        conn.skip()
        return tables[-1]
    return await conn.next_of(TableUpdate, pred)


async def await_turn(conn: HostConnection) -> TableUpdate:
    """The table message that asks this seat to decide (or shows the game over)."""
    return await table_when(conn, my_turn)


async def play_move(conn: HostConnection, move: Move | str) -> TableUpdate:
    """Send `move` and return the table message that shows it played."""

    def moment(v: PlayerView) -> tuple[int, str, bool]:
        return v.turn, v.phase, v.is_over

    before = moment(conn.view)
    conn.cmd(PlayMove(move if isinstance(move, Move) else parse_move(move)))
    msg = await conn.next(
        lambda m: isinstance(m, Notice) or (isinstance(m, TableUpdate) and moment(m.view) != before)
    )
    assert isinstance(msg, TableUpdate), msg
    return msg


async def play_turn(conn: HostConnection) -> TableUpdate:
    """Wait for this seat's turn and play `pick` there; the table message that shows it."""
    return await play_move(conn, pick((await await_turn(conn)).view))


async def play_to_end(conn: HostConnection, limit: int = 400) -> PlayerView:
    """Play `pick` whenever it is this seat's decision until the game is over."""
    for _ in range(limit):
        msg = await await_turn(conn)
        if msg.view.is_over:
            return msg.view
        await play_move(conn, pick(msg.view))
    raise AssertionError(f"the game did not end in {limit} decisions")


class FakeClock:
    """A time source a test moves by hand (seconds since the epoch), for a host's clocks."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


async def table_of(
    host: GameHost, names: tuple[str, ...], bots: tuple[str | None, ...] = (), **create: Any
) -> tuple[list[HostConnection], str]:
    """A started table: the first name creates it (with `create`'s clock, patience...), the
    others join, `bots` fill the seats after them. The players' connections (their first
    table update received) and the table's id."""
    conns = [HostConnection(host, identity(n)) for n in names]
    seats = (None,) * len(names) + tuple(bots)
    conns[0].cmd(Create(len(seats), seats, **create))
    listed = await conns[0].next_of(LobbyList, lambda m: m.waiting_at() is not None)
    waiting = listed.waiting_at()
    assert waiting is not None
    table_id = waiting.id
    for conn in conns[1:]:
        conn.cmd(Join(table_id))
        await conns[0].next_of(LobbyList, lambda m, c=conn: _seated(m, table_id, c))
    conns[0].cmd(Start())
    for conn in conns:
        await conn.next_of(TableUpdate)
    return conns, table_id


def _seated(lobby: LobbyList, table_id: str, conn: HostConnection) -> bool:
    table = lobby.table(table_id)
    return table is not None and any(s.name == conn.link.identity.name for s in table.seats)
