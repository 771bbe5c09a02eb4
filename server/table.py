"""One table: its seats, its lifecycle, its game, its bots and its fan-out of views.

Lifecycle (an enum with guarded transitions, `server.seat`): ``WAITING → PLAYING →
FINISHED`` and ``WAITING → FINISHED`` (closed before it started), nothing else;
`Table._to` refuses any other step.

Every process of a cluster keeps a copy of every open table, and the database
orders every change (docs/cluster.md). A change of seats or status is stored first,
from the version this copy has (`Store.update_table`); when another process changed
the table first, the copy is read again and the change worked out anew. Every
move, a human's or a bot's, goes through `Table.play`: checked by the engine,
appended at the next sequence number and committed, and only then applied and sent,
each seat's sessions getting that seat's view and spectators the spectator view.
Moves and changes made by other processes arrive as events (`on_move`, `reload`)
and are applied the same way. A refused request raises `TableError` (or the
engine's error) for the lobby to turn into a notice to the one player concerned.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from shared.codec import dumps
from shared.deal import new_game
from shared.moves import Move, parse_move
from shared.protocol import (
    LoggedTurn,
    SeatSummary,
    TableStatus,
    TableSummary,
    TableUpdate,
    encode,
)
from shared.state import GameState
from shared.view import ended_turn

from .bots import BotPool, bot_seed
from .identity import Identity
from .seat import TRANSITIONS, Peer, Seat, TableError, same_player
from .store import (
    ABANDONED,
    CLOSED,
    FINISHED,
    PLAYING,
    WAITING,
    GameRecord,
    MoveTaken,
    SeatRecord,
    Store,
    StoreError,
    StoreUnavailable,
    replay_record,
    turn_log,
)

__all__ = ["BUSY", "Peer", "Seat", "Table", "TableError", "TableStatus", "same_player"]

log = logging.getLogger("splendor")

SNAPSHOT_EVERY = 20  # moves between snapshots of a game's state (a cache for loading)
LOG_SENT = 200  # turns of history a (re)joining session gets, at most
EDIT_TRIES = 5  # a change of seats redone after another process changed the table first
BUSY = "the server is busy; try again in a moment"

T = TypeVar("T")
STATUS = {
    WAITING: TableStatus.WAITING,
    PLAYING: TableStatus.PLAYING,
    FINISHED: TableStatus.FINISHED,
    ABANDONED: TableStatus.FINISHED,
    CLOSED: TableStatus.FINISHED,
}
RESULT = {FINISHED: "over", ABANDONED: "abandoned", CLOSED: "closed"}


class Table:
    """A table of 2–4 seats, as stored in `record`; seat 0 is its creator's."""

    def __init__(
        self,
        record: GameRecord,
        store: Store,
        bots: BotPool,
        changed: Callable[[Table, bool], None],
        bot_pause: float = 0.6,
    ) -> None:
        if not 2 <= len(record.seats) <= 4:
            raise TableError("a table has 2 to 4 seats")
        self.id = record.id
        self.seats = [Seat.from_record(r) for r in record.seats]
        self.host = record.host  # the name of the player who may start it
        self.status = STATUS[record.status]
        self.result = RESULT.get(record.status, "")  # how it finished
        self.version = record.version
        self.seed = record.seed
        self.turn = record.turn
        self.state: GameState | None = None
        self.moves: list[str] = []
        self.log: deque[LoggedTurn] = deque(maxlen=LOG_SENT)  # the newest turns
        if record.status == PLAYING:  # the latest snapshot, then each later move, checked
            self.state, self.moves = replay_record(record), list(record.moves)
            self.log.extend(turn_log(record))
            self.turn = self.state.turn
        self.spectators: set[Peer] = set()
        self._store = store
        self._bots = bots
        self._changed = changed
        self._bot_pause = bot_pause
        self._lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._stopped = False  # the host is shutting down: no more bot turns
        self._bots_here = False  # this process runs the game's bots (it holds their lock)
        self._writes: set[asyncio.Future[None]] = set()  # snapshots being saved
        self.seen = time.monotonic()  # when a human was last seen connected here
        self.moved_at = time.monotonic()  # when its game last moved (here or elsewhere)

    # -- lifecycle ---------------------------------------------------------

    def _to(self, new: TableStatus) -> None:
        if new not in TRANSITIONS[self.status]:
            raise TableError(
                f"table {self.id} is {self.status.value}; it cannot become {new.value}"
            )
        self.status = new

    async def _call(self, call: Awaitable[T]) -> T:
        """A store call; an unreachable database is a refusal the player can retry."""
        try:
            return await call
        except StoreUnavailable:
            raise TableError(BUSY) from None

    async def finish_if_over(self) -> bool:
        """For a loaded game whose log ends the game (it was not marked finished): mark it
        now. True if so."""
        if self.state is None or not self.state.is_over or self.status is not TableStatus.PLAYING:
            return False
        await self._store_finish(self.state)
        self._to(TableStatus.FINISHED)
        self.result = "over"
        return True

    async def start(self, seed: int) -> None:
        """WAITING → PLAYING with every seat filled; stored before anyone sees the game."""
        async with self._lock:

            def edit() -> tuple[list[SeatRecord], str]:
                if self.status is not TableStatus.WAITING:
                    raise TableError(f"table {self.id} has already started")
                if any(s.empty for s in self.seats):
                    raise TableError("every seat needs a player or a bot before the game starts")
                return self.records(), self.host

            await self._edit(edit, status=PLAYING, seed=seed)
        log.info("game start %s: %s (seed %d)", self.id, self.describe(), seed)
        self._started()

    def _started(self) -> None:
        """The game began (here or on another process): everyone sees the first view."""
        self.touch()
        self.send_views()
        self._changed(self, False)
        self.kick_bots()

    async def abandon(self) -> None:
        """PLAYING → FINISHED without an outcome: every human left the game."""
        self._cancel_bots()
        async with self._lock:
            if self.status is not TableStatus.PLAYING:
                return
            if not await self._call(self._store.finish_game(self.id, ABANDONED, None)):
                await self._reload()  # another process ended it first
                return
            self.version += 1
            self._to(TableStatus.FINISHED)
            self.result = "abandoned"
        log.info("game end %s: abandoned after %d moves", self.id, len(self.moves))
        self._changed(self, False)

    async def stop(self) -> None:
        """The host is shutting down: no more bot moves; a move being saved completes."""
        self._stopped = True
        self._cancel_bots()
        async with self._lock:
            pass
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    # -- seats -------------------------------------------------------------

    def records(self) -> list[SeatRecord]:
        return [s.record() for s in self.seats]

    def seat_of(self, identity: Identity) -> int | None:
        for i, s in enumerate(self.seats):
            if s.identity is not None and same_player(s.identity, identity):
                return i
        return None

    def hosted_by(self, identity: Identity) -> bool:
        seat = self.seat_of(identity)
        return seat is not None and self.seats[seat].identity.name == self.host  # type: ignore[union-attr]

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.identity is not None]

    async def sit(self, identity: Identity) -> int:
        """A player takes the first empty seat of a waiting table, or comes back to their
        own (in a game: their seat no longer shows as left)."""
        async with self._lock:
            taken: list[int] = []

            def edit() -> tuple[list[SeatRecord], str]:
                records, mine = self.records(), self.seat_of(identity)
                if mine is None:
                    if self.status is not TableStatus.WAITING:
                        raise TableError(
                            f"the game at table {self.id} is in progress; watch it instead"
                        )
                    mine = next((i for i, s in enumerate(self.seats) if s.empty), None)
                    if mine is None:
                        raise TableError(f"table {self.id} is full")
                    records[mine] = Seat(identity=identity).record()
                else:
                    records[mine] = replace(records[mine], left=False)
                taken[:] = [mine]
                return records, self.host

            mine = self.seat_of(identity)
            if mine is not None and not self.seats[mine].left:
                return mine  # nothing to store
            await self._edit(edit)
            return taken[0]

    async def stand(self, identity: Identity) -> bool:
        """A player gives up their seat at a waiting table; the host passes to the next
        player; the last one out closes the table. True if the table closed."""
        async with self._lock:

            def edit() -> tuple[list[SeatRecord], str]:
                if self.status is not TableStatus.WAITING:
                    raise TableError("the game has started; the seat is held")
                records, host = self.records(), self.host
                i = self.seat_of(identity)
                if i is not None:
                    records[i] = SeatRecord()
                humans = [r.name for r in records if r.name is not None]
                if host == identity.name and humans:
                    host = humans[0]
                return records, host

            if self.seat_of(identity) is None:
                return False
            closing = len(self.humans) == 1
            await self._edit(edit, status=CLOSED if closing else None)
            return self.status is TableStatus.FINISHED

    async def set_left(self, seat: int, left: bool) -> None:
        """A player of a game in progress went back to the lobby (or came back): stored,
        so that every process sees the seat as left, and the game as abandoned once every
        player has left it."""
        async with self._lock:

            def edit() -> tuple[list[SeatRecord], str]:
                if self.status is not TableStatus.PLAYING:
                    raise TableError("there is no game in progress at this table")
                records = self.records()
                records[seat] = replace(records[seat], left=left)
                return records, self.host

            if self.seats[seat].left != left:
                await self._edit(edit)

    async def _edit(
        self,
        edit: Callable[[], tuple[list[SeatRecord], str]],
        status: str | None = None,
        seed: int | None = None,
    ) -> None:
        """Store the seats and host `edit` works out from this copy (and `status`, `seed`),
        from this copy's version; when another process changed the table first, read it
        again and work the change out anew (`edit` may then refuse it). Under the lock."""
        for _ in range(EDIT_TRIES):
            records, host = edit()
            stored = self._store.update_table(self.id, self.version, records, host, status, seed)
            if await self._call(stored):
                self.version += 1
                self.seed = self.seed if seed is None else seed
                self._apply(records, host, status)
                return
            await self._reload()
        raise TableError(BUSY)

    async def reload(self) -> None:
        """Another process changed this table: read it again and show what changed."""
        async with self._lock:
            await self._reload()

    async def _reload(self) -> None:
        record = await self._call(self._store.load_game(self.id, moves=False))
        if record is None or record.version == self.version:
            return
        self.version, self.seed = record.version, record.seed
        if self._apply(list(record.seats), record.host, record.status):
            log.info("game start %s: %s (on another process)", self.id, self.describe())
            self._started()

    def _apply(self, records: list[SeatRecord], host: str, status: str | None) -> bool:
        """Make this copy's seats, host and status the stored ones. Sessions here stay
        at their seat when it is still their player's; the lobby moves the others. True
        if the game has just started (the caller then shows it: `_started`)."""
        before = (self.status, [s.summary() for s in self.seats], self.host)
        for i, r in enumerate(records):
            old, new = self.seats[i], Seat.from_record(r)
            if old.identity is not None and new.identity is not None:
                if same_player(old.identity, new.identity):
                    new.peers, new.remote = old.peers, old.remote
            self.seats[i] = new
        self.host = host
        if status is not None and STATUS[status] is not self.status:
            self._to(STATUS[status])
            self.result = RESULT.get(status, "")
            if status == PLAYING:
                assert self.seed is not None
                self.state, self.moves, self.turn = new_game(len(self.seats), self.seed), [], 1
                self.log.clear()
                return True
        if before != (self.status, [s.summary() for s in self.seats], self.host):
            self._changed(self, False)
            if self.status is TableStatus.PLAYING:
                self.send_views()
        return False

    def touch(self) -> None:
        """A human is here now (for `idle_for`)."""
        self.seen = time.monotonic()

    def idle_for(self) -> float:
        """Seconds since a human was last connected here (on any process); 0 while one is."""
        if self.human_connected:
            self.touch()
            return 0.0
        return time.monotonic() - self.seen

    @property
    def human_connected(self) -> bool:
        return any(s.identity is not None and s.connected for s in self.seats)

    def attach(self, peer: Peer, seat: int | None) -> None:
        """A session now shows this table, from `seat` (None: as a spectator). When that
        reconnects a seat, everyone at the table sees it; else only the newcomer is sent."""
        before = self._connections()
        if seat is None:
            self.spectators.add(peer)
        else:
            self.seats[seat].peers.add(peer)
        if self._connections() != before:
            self.touch()
            self.send_views(newcomer=peer)
            self._changed(self, False)
        elif self.state is not None:
            self.send_view(peer, seat)
        self.kick_bots()

    def detach(self, peer: Peer) -> None:
        """A session no longer shows this table (it dropped, or moved elsewhere)."""
        before = self._connections()
        self.spectators.discard(peer)
        for s in self.seats:
            s.peers.discard(peer)
        self._connections_changed(before)

    def set_remote(self, counts: dict[int, int]) -> None:
        """The sessions at each seat on other processes (`counts`: seat → sessions)."""
        before = self._connections()
        for i, s in enumerate(self.seats):
            s.remote = counts.get(i, 0)
        self._connections_changed(before)
        if self.human_connected:
            self.kick_bots()

    def _connections_changed(self, before: tuple[bool, ...]) -> None:
        if self._connections() != before:
            self.touch()  # a human was here until now
            if self.status is TableStatus.PLAYING:
                self.send_views()
            self._changed(self, False)

    def _connections(self) -> tuple[bool, ...]:
        return tuple(s.connected for s in self.seats)

    @property
    def peers(self) -> set[Peer]:
        out = set(self.spectators)
        for s in self.seats:
            out |= s.peers
        return out

    # -- moves -------------------------------------------------------------

    async def play(self, seat: int, move: Move) -> None:
        """`seat` plays `move`: the engine checks it (`IllegalMoveError`), the store appends
        and commits it at the next place, and only then does anyone see it. A move that
        another process stored at that place first is refused, and this copy catches up."""
        async with self._lock:
            state = self.state
            if self.status is not TableStatus.PLAYING or state is None:
                raise TableError("there is no game in progress at this table")
            if seat != state.current_player:
                raise TableError(
                    f"`{move}`: it is not your turn ({self.name(state.current_player)} to play)"
                )
            after = state.apply(move)
            seq, text = len(self.moves), str(move)
            try:
                await self._call(self._store.append_move(self.id, seq, text, after.turn))
            except MoveTaken:
                await self._catch_up()
                raise TableError(f"`{text}`: another move was played first") from None
            except StoreError:
                log.exception("game %s: could not store move %d `%s`", self.id, seq, text)
                raise TableError(f"`{text}` could not be saved; please try again") from None
            if self.seats[seat].identity is not None:
                self.touch()
            await self._applied(state, after, seat, text)

    async def _applied(self, before: GameState, after: GameState, seat: int, text: str) -> None:
        """A stored move is this copy's too: the state, the log, a snapshot now and then,
        the game's end; then everyone here sees it. Under the lock."""
        self.state, self.moves, self.turn = after, [*self.moves, text], after.turn
        self.moved_at = time.monotonic()
        if (turn := ended_turn(before, after)) is not None:
            self.log.append(LoggedTurn(seat, turn))
        if after.is_over:
            await self._store_finish(after)
            self._to(TableStatus.FINISHED)
            self.result = "over"
        elif len(self.moves) % SNAPSHOT_EVERY == 0:
            task = asyncio.ensure_future(self._snapshot(len(self.moves), dumps(after)))
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)
        self.send_views()
        if after.is_over:
            o = after.outcome()
            log.info(
                "game end %s: %s scores %s after %d moves",
                self.id,
                self.describe(),
                None if o is None else list(o.scores),
                len(self.moves),
            )
            self._changed(self, False)
        elif before.turn != after.turn:
            self._changed(self, True)  # a minor change: the lobby shows each game's turn
        self.kick_bots()

    async def on_move(self, seq: int, turn: int, notation: str) -> None:
        """Another process stored move `seq` (this one's own come back too: ignored)."""
        async with self._lock:
            if self.state is None or seq < len(self.moves):
                return
            if seq > len(self.moves):  # one went missing on the way: read what there is
                await self._catch_up()
                return
            await self._apply_stored(notation)

    async def catch_up(self) -> None:
        """Read and apply every stored move this copy does not have yet."""
        async with self._lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        if self.state is None:
            return
        for text in await self._call(self._store.moves(self.id, len(self.moves))):
            if self.state.is_over:
                break
            await self._apply_stored(text)

    async def _apply_stored(self, text: str) -> None:
        state = self.state
        assert state is not None
        seat = state.current_player
        await self._applied(state, state.apply(parse_move(text)), seat, text)

    async def _store_finish(self, final: GameState) -> None:
        """Mark the game finished in the store. The move log already says it is over, so a
        failure here is only logged (the next load finds the game over and marks it)."""
        outcome = final.outcome()
        assert outcome is not None
        result = {"scores": list(outcome.scores), "ranks": list(outcome.ranks)}
        try:
            if await self._store.finish_game(self.id, FINISHED, result):
                self.version += 1
        except Exception:
            log.exception("game %s: could not mark the game finished", self.id)

    async def _snapshot(self, seq: int, data: bytes) -> None:
        try:
            await self._store.save_snapshot(self.id, seq, data)
        except Exception:
            log.warning("game %s: snapshot at %d not saved", self.id, seq, exc_info=True)

    # -- bots --------------------------------------------------------------

    def _bot_to_move(self) -> str | None:
        if self.status is not TableStatus.PLAYING or self.state is None:
            return None
        return self.seats[self.state.current_player].bot

    def kick_bots(self) -> None:
        """Start the bot loop if it is a bot's decision, a human is at the table (on any
        process) and the loop is not running."""
        if self._stopped or self._bot_to_move() is None or not self.human_connected:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    def _cancel_bots(self) -> None:
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()

    async def _run_bots(self) -> None:
        """While a bot is to move: if this process runs this game's bots (one process at
        a time does), think in the pool, let humans see the last move for at least the bot
        pause, then play like anyone else."""
        loop = asyncio.get_running_loop()
        try:
            if not await self._store.try_lock_game(self.id):
                return  # another process runs them
            if not self._bots_here:
                self._bots_here = True
                if self._store.shared:
                    log.info("game %s: its bots play from this process", self.id)
            while (level := self._bot_to_move()) is not None:
                state = self.state
                assert state is not None
                seat, begun = state.current_player, loop.time()
                move = await self._bots.choose(
                    state.view(seat), level, bot_seed(state.seed, len(self.moves))
                )
                await asyncio.sleep(max(0.0, self._bot_pause - (loop.time() - begun)))
                if self.state is not state:
                    continue
                try:
                    await self.play(seat, move)
                except TableError as e:
                    log.info("game %s: bot move `%s` not played: %s", self.id, move, e)
                    await asyncio.sleep(1.0)  # the store is busy, or another move came first
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the bot loop stopped; it restarts on the next attach", self.id)
        finally:
            if self.status is not TableStatus.PLAYING:
                await self._release_bots()

    async def _release_bots(self) -> None:
        try:
            await self._store.unlock_game(self.id)
        except Exception:
            log.warning("game %s: could not let go of its bots", self.id, exc_info=True)

    # -- fan-out -----------------------------------------------------------

    def name(self, seat: int) -> str:
        s = self.seats[seat]
        if s.identity is not None:
            return s.identity.name
        return f"{s.bot} bot" if s.bot else "nobody"

    def describe(self) -> str:
        return ", ".join(self.name(i) for i in range(len(self.seats)))

    def seat_summaries(self) -> tuple[SeatSummary, ...]:
        return tuple(s.summary() for s in self.seats)

    def summary(self) -> TableSummary:
        return TableSummary(self.id, self.host, self.status, self.seat_summaries(), self.turn)

    def _message(self, seat: int | None, with_log: bool = False) -> bytes:
        assert self.state is not None
        view = self.state.view(seat)
        log = tuple(self.log) if with_log else None
        return encode(TableUpdate(self.id, self.seat_summaries(), seat, view, log))

    def send_view(self, peer: Peer, seat: int | None) -> None:
        """The table to a session that has just come to it: with the turns so far."""
        peer.deliver(self._message(seat, with_log=True))

    def send_views(self, newcomer: Peer | None = None) -> None:
        """Each seat's sessions get that seat's view; spectators the spectator view; a
        `newcomer` also the turns so far."""
        if self.state is None:
            return
        for i, s in enumerate(self.seats):
            if s.peers:
                data = self._message(i)
                for p in list(s.peers):
                    p.deliver(self._message(i, with_log=True) if p is newcomer else data)
        if self.spectators:
            data = self._message(None)
            for p in list(self.spectators):
                p.deliver(data)
