"""One table: its seats, its lifecycle, its game, its bots and its fan-out of views.

Lifecycle (an enum with guarded transitions, `server.seat`): ``WAITING → PLAYING →
FINISHED`` and ``WAITING → FINISHED`` (closed before it started), nothing else;
`Table._to` refuses any other step.
Every move, a human's or a bot's, goes through `Table.play`: checked by the
engine, appended to the store and committed, and only then applied and sent,
each seat's sessions getting that seat's view and spectators the spectator
view. A refused request raises `TableError` (or the engine's error) for the
lobby to turn into a notice to the one player concerned.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable

from shared.codec import dumps
from shared.deal import new_game
from shared.moves import Move
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
from .practice import Practice
from .seat import TRANSITIONS, Peer, Seat, TableError, same_player
from .store import ABANDONED, FINISHED, AsyncStore, GameRecord, StoreError, replay_record, turn_log

__all__ = ["Peer", "Seat", "Table", "TableError", "TableStatus", "same_player"]

log = logging.getLogger("splendor")

SNAPSHOT_EVERY = 20  # moves between snapshots of a game's state (a cache for resuming)


LOG_SENT = 1000  # turns of history a (re)joining session gets, at most (a whole game)


class Table(Practice):
    """A table of 2–4 seats; seat 0 is the creator's."""

    def __init__(
        self,
        table_id: str,
        host: Identity,
        seats: list[Seat],
        store: AsyncStore,
        bots: BotPool,
        changed: Callable[[Table, bool], None],
        bot_pause: float = 0.6,
    ) -> None:
        if not 2 <= len(seats) <= 4:
            raise TableError("a table has 2 to 4 seats")
        self.id = table_id
        self.host = host
        self.seats = seats
        self.status = TableStatus.WAITING
        self.state: GameState | None = None
        self.moves: list[str] = []
        self.log: deque[LoggedTurn] = deque(maxlen=LOG_SENT)  # the newest turns
        self.spectators: set[Peer] = set()
        self.result = ""  # how it finished: "over", "abandoned" or "closed"
        self._store = store
        self._bots = bots
        self._changed = changed
        self._bot_pause = bot_pause
        self._lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._stopped = False  # the host is shutting down: no more bot turns
        self._starting = False  # the game is being stored: seats are fixed
        self._writes: set[asyncio.Future[None]] = set()  # snapshots being saved
        self.seen = time.monotonic()  # when a human last showed up or moved here

    # -- lifecycle ---------------------------------------------------------

    def _to(self, new: TableStatus) -> None:
        if new not in TRANSITIONS[self.status]:
            raise TableError(
                f"table {self.id} is {self.status.value}; it cannot become {new.value}"
            )
        self.status = new

    @classmethod
    def resume(
        cls,
        record: GameRecord,
        store: AsyncStore,
        bots: BotPool,
        changed: Callable[[Table, bool], None],
        bot_pause: float = 0.6,
    ) -> Table:
        """A table in PLAYING rebuilt from a stored game: the latest snapshot, then the
        moves after it, each checked by the engine (so a bad log fails loudly)."""
        seats = [Seat.from_record(s) for s in record.seats]
        host = next((s.identity for s in seats if s.identity is not None), None)
        host = host or Identity(record.host, False, None)
        table = cls(record.id, host, seats, store, bots, changed, bot_pause)
        table.state, table.moves = replay_record(record), list(record.moves)
        table.log.extend(turn_log(record))
        table.status = TableStatus.PLAYING
        return table

    async def finish_if_over(self) -> bool:
        """For a resumed game whose log ends the game (it was not marked finished): mark it
        now. True if so."""
        if self.state is None or not self.state.is_over or self.status is not TableStatus.PLAYING:
            return False
        await self._store_finish(self.state)
        self._to(TableStatus.FINISHED)
        self.result = "over"
        return True

    async def start(self, seed: int) -> None:
        """WAITING → PLAYING with every seat filled; the game is stored before anyone sees it."""
        async with self._lock:
            if self.status is not TableStatus.WAITING:
                raise TableError(f"table {self.id} has already started")
            if any(s.empty for s in self.seats):
                raise TableError("every seat needs a player or a bot before the game starts")
            records = [s.record() for s in self.seats]
            self._starting = True  # the seats are fixed from here: no one sits or stands
            try:
                await self._store.call(
                    self._store.store.create_game, self.id, seed, records, self.host.name
                )
            finally:
                self._starting = False
            self.state = new_game(len(self.seats), seed)
            self._to(TableStatus.PLAYING)
            self.touch()
        log.info("game start %s: %s (seed %d)", self.id, self.describe(), seed)
        self.send_views()
        self._changed(self, False)
        self.kick_bots()

    def close(self) -> None:
        """WAITING → FINISHED: the table emptied before its game began."""
        self._to(TableStatus.FINISHED)
        self.result = "closed"
        self._changed(self, False)

    async def abandon(self) -> None:
        """PLAYING → FINISHED without an outcome: every human left the game."""
        self._cancel_bots()
        async with self._lock:
            if self.status is not TableStatus.PLAYING:
                return
            await self._store.call(self._store.store.finish_game, self.id, ABANDONED, None)
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

    # -- seats -------------------------------------------------------------

    def seat_of(self, identity: Identity) -> int | None:
        for i, s in enumerate(self.seats):
            if s.identity is not None and same_player(s.identity, identity):
                return i
        return None

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.identity is not None]

    def sit(self, identity: Identity) -> int:
        """A player takes the first empty seat of a waiting table (or keeps their own)."""
        mine = self.seat_of(identity)
        if mine is not None:
            self.seats[mine].left = False
            return mine
        if self.status is not TableStatus.WAITING:
            raise TableError(f"the game at table {self.id} is in progress; watch it instead")
        if self._starting:
            raise TableError(f"the game at table {self.id} is starting")
        for i, s in enumerate(self.seats):
            if s.empty:
                s.identity = identity
                return i
        raise TableError(f"table {self.id} is full")

    def stand(self, identity: Identity) -> None:
        """A player gives up their seat at a waiting table; the host passes to the next."""
        if self.status is not TableStatus.WAITING or self._starting:
            raise TableError("the game has started; the seat is held")
        i = self.seat_of(identity)
        if i is not None:
            self.seats[i] = Seat()
        if same_player(self.host, identity) and self.humans:
            self.host = self.humans[0].identity  # type: ignore[assignment]

    def touch(self) -> None:
        """A human is here now (for `idle_for`)."""
        self.seen = time.monotonic()

    def idle_for(self) -> float:
        """Seconds since a human was last connected here; 0 while one is."""
        if any(s.identity is not None and s.connected for s in self.seats):
            return 0.0
        return time.monotonic() - self.seen

    def attach(self, peer: Peer, seat: int | None) -> None:
        """A session now shows this table, from `seat` (None: as a spectator). When that
        reconnects a seat, everyone at the table sees it; else only the newcomer is sent."""
        before = self._connections()
        if seat is None:
            self.spectators.add(peer)
        else:
            self.seats[seat].peers.add(peer)
            self.seats[seat].left = False
        if self._connections() != before:
            self.send_views(newcomer=peer)
            self._changed(self, False)
        elif self.state is not None:
            self.send_view(peer, seat)
        self.kick_bots()

    def detach(self, peer: Peer, left: bool = False) -> None:
        """A session no longer shows this table (it dropped, or moved elsewhere); with
        `left`, its player went back to the lobby and the seat shows as left."""
        before = self._connections()
        self.touch()
        self.spectators.discard(peer)
        for s in self.seats:
            if peer in s.peers:
                s.peers.discard(peer)
                s.left = s.left or left
        if self._connections() != before:
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
        and commits it, and only then does anyone see it."""
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
                await self._store.call(self._store.store.append_move, self.id, seq, text)
            except StoreError:
                log.exception("game %s: could not store move %d `%s`", self.id, seq, text)
                raise TableError(f"`{text}` could not be saved; please try again") from None
            if after.is_over:
                await self._store_finish(after)
                self._to(TableStatus.FINISHED)
                self.result = "over"
            self.state, self.moves = after, [*self.moves, text]
            if (turn := ended_turn(state, after)) is not None:
                self.log.append(LoggedTurn(seat, turn))
            if self.seats[seat].identity is not None:
                self.touch()
            if not after.is_over and len(self.moves) % SNAPSHOT_EVERY == 0:
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
        elif state.turn != after.turn:
            self._changed(self, True)  # a minor change: the lobby shows each game's turn
        self.kick_bots()

    async def _store_finish(self, final: GameState) -> None:
        """Mark the game finished in the store. The move log already says it is over, so a
        failure here is only logged (the next start finds the game over and marks it)."""
        outcome = final.outcome()
        assert outcome is not None
        result = {"scores": list(outcome.scores), "ranks": list(outcome.ranks)}
        try:
            await self._store.call(self._store.store.finish_game, self.id, FINISHED, result)
        except Exception:
            log.exception("game %s: could not mark the game finished", self.id)

    async def _snapshot(self, seq: int, data: bytes) -> None:
        try:
            await self._store.call(self._store.store.save_snapshot, self.id, seq, data)
        except Exception:
            log.warning("game %s: snapshot at %d not saved", self.id, seq, exc_info=True)

    # -- bots --------------------------------------------------------------

    def _bot_to_move(self) -> str | None:
        if self.status is not TableStatus.PLAYING or self.state is None:
            return None
        return self.seats[self.state.current_player].bot

    def kick_bots(self) -> None:
        """Start the bot loop if it is a bot's decision and the loop is not running."""
        if self._stopped or self._bot_to_move() is None:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    def _cancel_bots(self) -> None:
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()

    async def _run_bots(self) -> None:
        """While a bot is to move: think in the pool, let humans see the last move for at
        least the bot pause, then play like anyone else."""
        loop = asyncio.get_running_loop()
        try:
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
                await self.play(seat, move)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the bot loop stopped; it restarts on the next attach", self.id)

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
        turn = 0 if self.state is None else self.state.turn
        return TableSummary(self.id, self.host.name, self.status, self.seat_summaries(), turn)

    def _message(self, seat: int | None, with_log: bool = False) -> bytes:
        state = self.state
        assert state is not None
        log = tuple(self.log) if with_log else None
        seed = state.seed if state.is_over else None  # never before: it deals the decks
        return encode(
            TableUpdate(self.id, self.seat_summaries(), seat, state.view(seat), log, seed)
        )

    def send_view(self, peer: Peer, seat: int | None) -> None:
        """The table to a session that has just come to it: with the turns so far."""
        peer.deliver(self._message(seat, with_log=True))

    def send_views(self, newcomer: Peer | None = None, with_log: bool = False) -> None:
        """Each seat's sessions get that seat's view; spectators the spectator view; a
        `newcomer` (or everyone, `with_log`) also the turns so far."""
        if self.state is None:
            return
        for i, s in enumerate(self.seats):
            if s.peers:
                data = self._message(i, with_log)
                for p in list(s.peers):
                    p.deliver(self._message(i, with_log=True) if p is newcomer else data)
        if self.spectators:
            data = self._message(None, with_log)
            for p in list(self.spectators):
                p.deliver(data)
