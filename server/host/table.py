"""One table: its lifecycle, its game, its moves and its bots (its seats and the fan-out of
views are `server.host.seating`'s).

Lifecycle (an enum with guarded transitions, `server.host.seat`): ``WAITING → PLAYING →
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
from collections.abc import Callable

from shared.codec import dumps
from shared.deal import new_game
from shared.moves import Move, parse_move
from shared.protocol import (
    LoggedTurn,
    RatingChange,
    TableStatus,
)
from shared.state import GameState
from shared.view import ended_turn

from ..store import (
    ABANDONED,
    FINISHED,
    PLAYING,
    GameRecord,
    MoveTaken,
    SeatRecord,
    Store,
    StoreError,
    Timing,
    replay_record,
    turn_log,
)
from ..store.ratings import Rated, participants
from .bots import BotPool, bot_seed
from .clocks import Clocked
from .practice import Practice
from .seat import Peer, Seat, TableError, same_player
from .seating import BUSY, Seating
from .votes import Votes

__all__ = ["BUSY", "Peer", "Seat", "Table", "TableError", "TableStatus", "same_player"]

log = logging.getLogger("splendor")

SNAPSHOT_EVERY = 20  # moves between snapshots of a game's state (a cache for loading)


class Table(Clocked, Votes, Seating, Practice):
    """A table of 2–4 seats, as stored in `record`; seat 0 is its creator's. Its clocks are
    `server.host.clocks`', its vote on absent players `server.host.votes`'."""

    def __init__(
        self,
        record: GameRecord,
        store: Store,
        bots: BotPool,
        changed: Callable[[Seating, bool], None],
        bot_pause: float = 0.6,
        now: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(record, store, changed, now)
        if record.status == PLAYING:  # the latest snapshot, then each later move, checked
            self.state, self.moves = replay_record(record), list(record.moves)
            self.log.extend(turn_log(record))
            self.turn = self.state.turn
        self._bots = bots
        self._bot_pause = bot_pause
        self._bot_task: asyncio.Task[None] | None = None
        self._stopped = False  # the host is shutting down: no more bot turns
        self._bots_here = False  # this process runs the game's bots (it holds their lock)
        self._writes: set[asyncio.Future[None]] = set()  # snapshots being saved
        self.moved_at = time.monotonic()  # when its game last moved (here or elsewhere)

    # -- lifecycle ---------------------------------------------------------

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
                if any(s.stored.invited for s in self.seats):
                    raise TableError("every player invited to the rematch must accept first")
                return self.records(), self.host

            timing = self.first_timing(new_game(len(self.seats), seed).current_player)
            await self._edit(edit, status=PLAYING, seed=seed, timing=timing)
        log.info("game start %s: %s (seed %d)", self.id, self.describe(), seed)
        await self.hold_clock()
        self._started()

    def _started(self) -> None:
        """The game began (here or on another process): everyone is told they are at a
        game now (the lobby's `table_changed`), then sees the first view."""
        self.touch()
        self._changed(self, False)
        self.send_views()
        self.kick_bots()

    def _everyone_played(self, state: GameState) -> bool:
        """Every seat has played a turn itself: the first round is over, and no player's
        turn in it ran out of time (a bot played it for them)."""
        first_round = state.num_players
        return state.turn > first_round and not any(
            s.identity is not None and s.stored.timeouts and s.stored.late <= first_round
            for s in self.seats
        )

    async def abandon(self) -> None:
        """PLAYING → FINISHED without an outcome: every human left the game."""
        self._cancel_bots()
        async with self._lock:
            if self.status is not TableStatus.PLAYING:
                return
            rated: list[Rated] = []
            s = self.state
            if self.rated and s is not None and self._everyone_played(s):
                # Rated once everyone has played a turn; the players who left rank last.
                ranks = list(s.standing().ranks)
                left = {i: seat.left for i, seat in enumerate(self.seats) if seat.identity}
                rated = self._rated(ranks, left)
            if not await self._call(self._store.finish_game(self.id, ABANDONED, None, rated)):
                await self._reload()  # another process ended it first
                return
            self.version += 1
            self._to(TableStatus.FINISHED)
            self.result = "abandoned"
        await self._release_bots()
        turns = 0 if self.state is None else self.state.turn - 1  # the turns ended, as shown
        log.info("game end %s: abandoned after %d turns", self.id, turns)
        self._changed(self, False)

    async def stop(self) -> None:
        """The host is shutting down: no more bot moves; a move being saved completes."""
        self._stopped = True
        self._cancel_bots()
        async with self._lock:
            pass
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    # -- moves -------------------------------------------------------------

    async def play(self, seat: int, move: Move, bot: bool = False) -> None:
        """`seat` plays `move` (`bot`: a bot's, its own or standing in for a player): the
        engine checks it (`IllegalMoveError`), the store appends and commits it at the next
        place, with the clocks after it, and only then does anyone see it. A move that
        another process stored at that place first is refused, and this copy catches up."""
        async with self._lock:
            state = self.state
            if self.status is not TableStatus.PLAYING or state is None:
                raise TableError("there is no game in progress at this table")
            if seat != state.current_player:
                raise TableError(
                    f"`{move}`: it is not your turn ({self.name(state.current_player)} to play)"
                )
            if not bot:
                self.refuse_late(seat)
            after = state.apply(move)
            seq, text = len(self.moves), str(move)
            timing = self.timing_after(state, after)
            try:
                stored = self._store.append_move(self.id, seq, text, after.turn, timing)
                await self._call(stored)
            except MoveTaken:
                await self._catch_up()
                raise TableError(f"`{text}`: another move was played first") from None
            except StoreError:
                log.exception("game %s: could not store move %d `%s`", self.id, seq, text)
                raise TableError(f"`{text}` could not be saved; please try again") from None
            if self.seats[seat].identity is not None:
                self.touch()
            await self._applied(state, after, seat, text, timing)

    async def _applied(
        self, before: GameState, after: GameState, seat: int, text: str, timing: Timing | None
    ) -> None:
        """A stored move is this copy's too: the state, the log, the clocks, a snapshot now
        and then, the game's end; then everyone here sees it. Under the lock."""
        self.state, self.moves, self.turn = after, [*self.moves, text], after.turn
        self.timing = self.timing if timing is None else timing
        self.moved_at = time.monotonic()
        if (turn := ended_turn(before, after)) is not None:
            self.log.append(LoggedTurn(seat, turn))
        if after.is_over:
            await self._store_finish(after)
            self._to(TableStatus.FINISHED)
            self.result = "over"
            if self._bots_here:
                await self._release_bots()
        elif len(self.moves) % SNAPSHOT_EVERY == 0:
            task = asyncio.ensure_future(self._snapshot(len(self.moves), dumps(after)))
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)
        self.send_views()
        if after.is_over:
            o = after.outcome()
            log.info(
                "game end %s: %s scores %s after %d turns",  # as the table counts them: a
                self.id,  # return (R13) is part of its turn, not a move of its own
                self.describe(),
                None if o is None else list(o.scores),
                after.turn,
            )
            self._changed(self, False)
        elif before.turn != after.turn:
            self._changed(self, True)  # a minor change: the lobby shows each game's turn
        self.kick_bots()

    async def on_move(
        self, seq: int, turn: int, notation: str, timing: Timing | None = None
    ) -> None:
        """Another process stored move `seq`, and the clocks after it (this one's own come
        back too: ignored)."""
        async with self._lock:
            if self.state is None or seq < len(self.moves):
                return
            if seq > len(self.moves):  # one went missing on the way: read what there is
                await self._catch_up()
                return
            await self._apply_stored(notation, timing)

    async def catch_up(self) -> None:
        """Read and apply every stored move this copy does not have yet."""
        async with self._lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        if self.state is None:
            return
        texts = await self._call(self._store.moves(self.id, len(self.moves)))
        timing = None
        if texts and self.control.timed:  # the clocks as they are after the last of them
            record = await self._call(self._store.load_game(self.id, moves=False))
            timing = None if record is None else record.timing
        for text in texts:
            if self.state.is_over:
                break
            await self._apply_stored(text, timing)

    async def _apply_stored(self, text: str, timing: Timing | None) -> None:
        state = self.state
        assert state is not None
        seat = state.current_player
        await self._applied(state, state.apply(parse_move(text)), seat, text, timing)

    async def _store_finish(self, final: GameState) -> None:
        """Mark the game finished in the store, and a rated game's ratings with it. The move
        log already says it is over, so a failure here is only logged (the next load finds
        the game over and marks it)."""
        outcome = final.outcome()
        assert outcome is not None
        result = {"scores": list(outcome.scores), "ranks": list(outcome.ranks)}
        replaced = dict.fromkeys(self.replaced(), 0.0)  # they tie, after everyone
        rated = self._rated(list(outcome.ranks), replaced) if self.rated else []
        try:
            if await self._store.finish_game(self.id, FINISHED, result, rated):
                self.version += 1
            await self._load_ratings(rated)
        except Exception:
            log.exception("game %s: could not mark the game finished", self.id)

    def _rated(self, ranks: list[int], left: dict[int, float] | None = None) -> list[Rated]:
        seats = [
            (None if s.identity is None else s.identity.name.lower(),
             s.identity is not None and s.identity.guest, s.bot)
            for s in self.seats
        ]  # fmt: skip
        return participants(seats, ranks, left or {})

    async def _load_ratings(self, rated: list[Rated]) -> None:
        """The rated seats' new ratings, for the final views: None for a guest, and for
        the other seats of a bot level, which was rated once, at its best seat."""
        if not rated:
            return
        changes = await self._store.rating_changes(self.id)
        seats = {r.seat: r.player for r in rated}
        self.ratings = tuple(
            RatingChange(*changes[seats[i]]) if seats.get(i) in changes else None
            for i in range(len(self.seats))
        )

    async def _snapshot(self, seq: int, data: bytes) -> None:
        try:
            await self._store.save_snapshot(self.id, seq, data)
        except Exception:
            log.warning("game %s: snapshot at %d not saved", self.id, seq, exc_info=True)

    # -- bots --------------------------------------------------------------

    def _bot_to_move(self) -> str | None:
        """The level of the bot whose decision it is: a bot's seat, or a bot playing for a
        player (`server.host.clocks.Clocked.covering`)."""
        if self.status is not TableStatus.PLAYING or self.state is None:
            return None
        return self.seats[self.state.current_player].bot or self.covering()

    def attach(self, peer: Peer, seat: int | None) -> None:
        super().attach(peer, seat)
        self.greet(peer, seat)

    def kick_bots(self) -> None:
        """Start the bot loop if it is a bot's decision, a human is at the table (on any
        process; a timed game's bots play whoever is there, its clocks run anyway) and the
        loop is not running."""
        if self._stopped or self._bot_to_move() is None:
            return
        if not (self.human_connected or self.control.timed):
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
                late = self.seats[seat].stored.late == state.turn  # a time-out: at once
                pause = 0.0 if late else self._bot_pause
                await asyncio.sleep(max(0.0, pause - (loop.time() - begun)))
                if self.state is not state:
                    continue
                try:
                    await self.play(seat, move, bot=True)
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
