"""One table: its lifecycle, its game and its moves. It holds its parts, each given what it
needs when made (the parts below it, callables), never the table: `seating` (seats and status
as stored, the sessions at the table and who is sent which view), `clocks` (deadlines,
time-outs, bots standing in), `votes` (on absent players), `practice` (undo, hints), `bots`
(the bot loop, `server.host.botturns`), `archive` (snapshots, the result and ratings),
`held` (seats held for invited players) and `showing` (each session's view, the summary).
The lobby's names for what a part does (`sit`, `clock_due`, `vote`...) stay on the table.

Every move, a human's or a bot's, goes through `Table.play`: checked by the engine,
appended at the next sequence number and committed, then applied and sent, each seat's
sessions getting that seat's view. Other processes' moves arrive as events (`on_move`,
`reload`), applied the same way. A refusal raises `TableError` (or the engine's error).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from shared.deal import new_game
from shared.i18n import L_
from shared.moves import Move, parse_move
from shared.protocol import (
    LoggedTurn,
    TableStatus,
)
from shared.state import GameState
from shared.view import ended_turn

from ..store import (
    PLAYING,
    ChatRecord,
    GameRecord,
    MoveTaken,
    SeatRecord,
    Store,
    StoreError,
    Timing,
    replay_record,
    turn_log,
)
from .archive import Archive
from .bots import BotPool
from .botturns import BotTurns
from .clocks import Clocks, GameLock
from .heldseats import HeldSeats
from .practice import Practice
from .seat import Game, Peer, Seat, TableError, same_player
from .seating import BUSY, Seating
from .showing import Showing
from .votes import Votes

__all__ = ["BUSY", "Peer", "Seat", "Table", "TableError", "TableStatus", "same_player"]

log = logging.getLogger("splendor")


class Table:
    """A table of 2–4 seats, as stored in `record`; seat 0 is its creator's. `changed` tells
    the lobby that what it shows of the table changed (`True`: a minor change)."""

    def __init__(
        self,
        record: GameRecord,
        store: Store,
        bots: BotPool,
        changed: Callable[[Table, bool], None],
        bot_pause: float = 0.6,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.game = game = Game(turn=record.turn)
        self.seating = seating = Seating(
            record,
            store,
            game,
            began=self._began,
            started=self._started,
            news=lambda old: self.clocks.news(old),
            changed=lambda minor: changed(self, minor),
            message=lambda seat, with_log: self.showing.message(seat, with_log),
            now=now,
        )
        self.game_lock = GameLock(store, record.id)  # held: this process runs its bots
        self.clocks = Clocks(seating, game, self.game_lock, kick=self.kick_bots)
        self.votes = Votes(seating, game)
        covering, play = self.clocks.covering, self._bot_move
        self.bots = BotTurns(seating, game, self.game_lock, bots, covering, play, bot_pause)
        self.practice = Practice(seating, game, store, bots, stop_bots=self.bots.cancel)
        self.archive = Archive(seating, store, replaced=self.clocks.replaced)
        self.held = HeldSeats(seating)  # the lobby's `InviteDesk` asks it by name
        self.showing = Showing(
            seating, game, self.clocks, self.votes, self.archive, lambda: self.rematch
        )
        if record.status == PLAYING:  # the latest snapshot, then each later move, checked
            game.state, game.moves = replay_record(record), list(record.moves)
            game.log.extend(turn_log(record))
            game.turn = game.state.turn
        self.id, self.rated, self.settings = record.id, record.rated, record.settings
        self.control = seating.control
        self.seats, self.spectators = seating.seats, seating.spectators  # never replaced
        self.rematch: Table | None = None  # once over: the table offered as its rematch
        self.chat: dict[int, ChatRecord] = {}  # its chat lines by id (`server.host.chat`)
        self.chat_loaded = False  # ...once read from the store
        self.moved_at = time.monotonic()  # when its game last moved (here or elsewhere)
        self._store, self._changed = store, changed
        # What the lobby asks of a table, answered by the part that knows.
        self.seat_of, self.hosted_by = seating.seat_of, seating.hosted_by
        self.name, self.describe, self.idle_for = seating.name, seating.describe, seating.idle_for
        self.sit, self.stand, self.set_left = seating.sit, seating.stand, seating.set_left
        self.reload, self.detach = seating.reload, seating.detach
        self.send_views = seating.send_views
        self.awaits, self.clock_due = self.clocks.awaits, self.clocks.due
        self.clock_expired, self.hold_clock = self.clocks.expired, self.clocks.hold
        self.clear_votes, self.hint = self.votes.clear, self.practice.hint
        self.summary, self.rematch_offer = self.showing.summary, self.showing.rematch_offer

    # -- what changes, as the parts keep it ----------------------------------

    @property
    def status(self) -> TableStatus:
        return self.seating.status

    @property
    def result(self) -> str:
        """How it finished: "over", "abandoned", "closed" (empty before)."""
        return self.seating.result

    @property
    def host(self) -> str:
        return self.seating.host

    @property
    def humans(self) -> list[Seat]:
        return self.seating.humans

    @property
    def peers(self) -> set[Peer]:
        return self.seating.peers

    @property
    def timing(self) -> Timing:
        return self.seating.timing

    @property
    def state(self) -> GameState | None:
        return self.game.state

    @property
    def moves(self) -> list[str]:
        return self.game.moves

    # -- lifecycle ---------------------------------------------------------

    async def finish_if_over(self) -> bool:
        """For a loaded game whose log ends the game (it was not marked finished): mark it
        now. True if so."""
        state = self.game.state
        if state is None or not state.is_over or self.status is not TableStatus.PLAYING:
            return False
        await self.archive.finished(state)
        self.seating.ended("over")
        return True

    async def start(self, seed: int) -> None:
        """WAITING → PLAYING with every seat filled; stored before anyone sees the game."""
        seating = self.seating
        async with seating.lock:

            def edit() -> tuple[list[SeatRecord], str]:
                if seating.status is not TableStatus.WAITING:
                    raise TableError(L_("table {id} has already started", id=self.id))
                if any(s.empty for s in self.seats):
                    raise TableError(
                        L_("every seat needs a player or a bot before the game starts")
                    )
                if any(s.stored.invited for s in self.seats):
                    raise TableError(L_("every invited player must accept first"))
                return seating.records(), seating.host

            timing = self.clocks.first(new_game(seating.game_settings, seed).current_player)
            await seating.edit(edit, status=PLAYING, seed=seed, timing=timing)
        log.info("game start %s: %s (seed %d)", self.id, seating.describe(), seed)
        await self.clocks.hold()
        self._started()

    def _began(self) -> None:
        """The stored status has just become PLAYING: the game from its seed, no chat yet."""
        seed = self.seating.seed
        assert seed is not None
        game = self.game
        game.state, game.moves, game.turn = new_game(self.seating.game_settings, seed), [], 1
        game.log.clear()
        self.chat_loaded = True  # a game just begun: no chat to read yet

    def _started(self) -> None:
        """The game began (here or on another process): everyone is told they are at a
        game now (the lobby's `table_changed`), then sees the first view."""
        self.seating.touch()
        self._changed(self, False)
        self.seating.send_views()
        self.kick_bots()

    async def abandon(self) -> None:
        """PLAYING → FINISHED without an outcome: every human left the game."""
        self.bots.cancel()
        seating = self.seating
        async with seating.lock:
            if seating.status is not TableStatus.PLAYING:
                return
            if not await self.archive.abandoned(self.game.state):
                await seating.reread()  # another process ended it first
                return
            seating.ended("abandoned")
        await self.game_lock.release()
        state = self.game.state
        turns = 0 if state is None else state.turn - 1  # the turns ended, as shown
        log.info("game end %s: abandoned after %d turns", self.id, turns)
        self._changed(self, False)

    async def stop(self) -> None:
        """The host is shutting down: no more bot moves; a move being saved completes."""
        self.bots.stop()
        async with self.seating.lock:
            pass
        await self.archive.saved()

    # -- moves -------------------------------------------------------------

    async def play(self, seat: int, move: Move, bot: bool = False) -> None:
        """`seat` plays `move` (`bot`: a bot's, its own or standing in for a player): the
        engine checks it (`IllegalMoveError`), the store appends and commits it at the next
        place, with the clocks after it, and only then does anyone see it. A move that
        another process stored at that place first is refused, and this copy catches up."""
        async with self.seating.lock:
            state = self.game.state
            if self.status is not TableStatus.PLAYING or state is None:
                raise TableError(L_("there is no game in progress at this table"))
            if seat != state.current_player:
                who = self.seating.name(state.current_player)
                raise TableError(
                    L_("`{move}`: it is not your turn ({who} to play)", move=move, who=who)
                )
            if not bot:
                self.clocks.refuse_late(seat)
            after = state.apply(move)
            seq, text = len(self.moves), str(move)
            timing = self.clocks.after(state, after)
            try:
                stored = self._store.append_move(self.id, seq, text, after.turn, timing, held=bot)
                await self.seating.call(stored)
            except MoveTaken:
                await self._catch_up()
                raise TableError(L_("`{text}`: another move was played first", text=text)) from None
            except StoreError:
                log.exception("game %s: could not store move %d `%s`", self.id, seq, text)
                raise TableError(
                    L_("`{text}` could not be saved; please try again", text=text)
                ) from None
            if self.seats[seat].identity is not None:
                self.seating.touch()
            await self._applied(state, after, seat, text, timing)

    async def _applied(
        self, before: GameState, after: GameState, seat: int, text: str, timing: Timing | None
    ) -> None:
        """A stored move is this copy's too: the state, the log, the clocks, a snapshot now
        and then, the game's end; then everyone here sees it. Under the lock."""
        game, seating = self.game, self.seating
        game.state, game.moves, game.turn = after, [*game.moves, text], after.turn
        seating.timing = seating.timing if timing is None else timing
        self.moved_at = time.monotonic()
        if (turn := ended_turn(before, after)) is not None:
            game.log.append(LoggedTurn(seat, turn))
        if after.is_over:
            await self.archive.finished(after)
            seating.ended("over")
            if self.game_lock.held:
                await self.game_lock.release()
        else:
            self.archive.moved(len(self.moves), after)
        seating.send_views()
        if after.is_over:
            o = after.outcome()
            log.info(
                "game end %s: %s scores %s after %d turns",  # as the table counts them: a
                self.id,  # return (R13) is part of its turn, not a move of its own
                seating.describe(),
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
        async with self.seating.lock:
            if self.game.state is None or seq < len(self.moves):
                return
            if seq > len(self.moves):  # one went missing on the way: read what there is
                await self._catch_up()
                return
            await self._apply_stored(notation, timing)

    async def catch_up(self) -> None:
        """Read and apply every stored move this copy does not have yet."""
        async with self.seating.lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        if self.game.state is None:
            return
        texts = await self.seating.call(self._store.moves(self.id, len(self.moves)))
        timing = None
        if texts and self.control.timed:  # the clocks as they are after the last of them
            record = await self.seating.call(self._store.load_game(self.id, moves=False))
            timing = None if record is None else record.timing
        for text in texts:
            if self.game.state.is_over:
                break
            await self._apply_stored(text, timing)

    async def _apply_stored(self, text: str, timing: Timing | None) -> None:
        state = self.game.state
        assert state is not None
        seat = state.current_player
        await self._applied(state, state.apply(parse_move(text)), seat, text, timing)

    # -- sessions and bots -----------------------------------------------------

    def attach(self, peer: Peer, seat: int | None) -> None:
        """A session now shows this table, from `seat` (None: as a spectator); a player
        back at their seat hears what happened to it meanwhile (`Clocks.greet`)."""
        self.seating.attach(peer, seat)
        self.kick_bots()
        self.clocks.greet(peer, seat)

    def set_remote(self, counts: dict[int, int]) -> None:
        """The sessions at each seat on other processes (`counts`: seat → sessions)."""
        self.seating.set_remote(counts)
        if self.seating.human_connected:
            self.kick_bots()

    def kick_bots(self) -> None:
        """Set the bots going if one is to move (`BotTurns.kick`)."""
        self.bots.kick()

    async def _bot_move(self, seat: int, move: Move) -> None:
        await self.play(seat, move, bot=True)

    # -- the lobby's commands that several parts answer ------------------------

    def lock_lost(self) -> None:
        """The store lost this game's lock (`LocksLost`): its bots and clock stop here at
        once, until this process takes the lock again (`BotTurns`, `Clocks.hold`)."""
        if self.game_lock.held:
            log.info("game %s: its lock was lost; its bots and clock stop here", self.id)
        self.game_lock.lost()
        self.bots.cancel()

    async def vote(self, voter: int, target: int) -> bool:
        """`voter` votes to hand `target`'s seat to a bot (`Votes.vote`). True if no human
        plays any more."""
        await self.votes.vote(voter, target)
        self.kick_bots()
        return self.clocks.nobody_plays

    async def undo(self, seat: int) -> None:
        """Take back `seat`'s last move and the bots' after it (`Practice.undo`)."""
        await self.practice.undo(seat)
        self.seating.send_views(with_log=True)  # the move log lost turns: everyone gets it whole
        self._changed(self, True)
        self.kick_bots()
