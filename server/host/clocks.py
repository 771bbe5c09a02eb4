"""A table's clocks: deadlines, time-outs and the bots that stand in for players (`Clocks`,
one part of `server.host.table.Table`, over its `Seating` and `Game`).

A timed game (`shared.clock`) keeps one clock running at a time, the one of the
human whose decision it is, as a deadline: an absolute time, stored with each move
(`Store.append_move`'s `timing`), so that the clock survives a restart and a change
of process. A real-time game also stores each seat's bank as of its latest turn.
Nothing counts down on the server: a process looks, twice a second, at whether a
deadline has passed (`Play.check_clocks`).

Only the process that runs the game's bots acts on its clock: the one holding the
game's lock (`GameLock`, over `Store.try_lock_game`), taken by the process that starts the
game. When that process dies its lock goes, and another process, seeing a deadline passed
by more than `TAKEOVER_GRACE` seconds, takes the lock, the clock and the bots on.

When a player's time runs out a bot of `TIMEOUT_LEVEL` plays that turn at once. In
real time that is an empty bank, and in correspondence the third time-out of a game
(`shared.clock.MAX_TIMEOUTS`): then the bot stands in for the player for the rest of
the game, and the player ranks last for ratings. The same happens to an absent
player of a game without a clock when the others vote for it (`server.host.votes`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from shared import protocol, said
from shared.clock import MAX_TIMEOUTS, ClockView, TimeControl
from shared.i18n import L_, Ln_, Text
from shared.protocol import TableStatus

from ..store import SeatRecord, Store, Timing
from .identity import Identity
from .seat import Game, Peer, Seat, TableError
from .seating import Seating

if TYPE_CHECKING:
    from shared.state import GameState

log = logging.getLogger("splendor")

TIMEOUT_LEVEL = "medium"  # the bot that plays for a player whose time ran out
TAKEOVER_GRACE = 2.0  # seconds past a deadline before another process takes the clock on
LOCK_RETRY = 1.0  # seconds between two tries at another process's lock, at least


def start_timing(
    control: TimeControl, players: int, first: int, clocked: bool, now: float
) -> Timing | None:
    """The clocks as a game of `players` starts: every bank full; the first player's
    running if they are a human (`clocked`)."""
    if not control.timed:
        return None
    banks = (control.bank,) * players if control.realtime else ()
    return _run(control, Timing(None, banks), first, clocked, now)


def _run(control: TimeControl, timing: Timing, seat: int, clocked: bool, now: float) -> Timing:
    """`timing` with `seat`'s clock running from `now` (none running for a bot)."""
    if not clocked:
        return replace(timing, deadline=None)
    if control.realtime:
        return replace(timing, deadline=now + timing.banks[seat])
    return replace(timing, deadline=now + control.per_move)


def timing_after(
    control: TimeControl,
    timing: Timing,
    before: GameState,
    after: GameState,
    clocked: Callable[[int], bool],
    now: float,
) -> Timing | None:
    """The clocks after a move from `before` to `after` at `now`. Within a turn (an R13
    return still to come) nothing changes; at its end, a real-time mover keeps what was
    left of their bank plus the increment, and the next player's clock starts (none for
    a bot, or once the game is over)."""
    if not control.timed:
        return None
    if after.is_over:
        return replace(timing, deadline=None)
    if after.turn == before.turn:
        return timing  # R13: the same player decides what to give back, on the same clock
    if control.realtime:
        mover, banks = before.current_player, list(timing.banks)
        if timing.deadline is not None:
            banks[mover] = max(0.0, timing.deadline - now) + control.increment
        timing = replace(timing, banks=tuple(banks))
    return _run(control, timing, after.current_player, clocked(after.current_player), now)


class GameLock:
    """The game's lock in the store: the process holding it runs the game's clock and bots
    (one process at a time)."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.held = False  # this process holds it (until the game ends, or `lost`)
        self._store, self._id = store, game_id

    @property
    def shared(self) -> bool:
        """Whether other processes play from the same store (a cluster)."""
        return self._store.shared

    async def take(self) -> bool:
        """Take the lock (again, for its holder); True if this process holds it now."""
        if not await self._store.try_lock_game(self._id):
            return False
        self.held = True
        return True

    def lost(self) -> None:
        """The store lost it (its connection closed): not held until taken again."""
        self.held = False

    async def release(self) -> None:
        """Let go of it: the game is over."""
        try:
            await self._store.unlock_game(self._id)
        except Exception:
            log.warning("game %s: could not let go of its bots", self._id, exc_info=True)


class Clocks:
    """A table's clocks, over its seats (`Seating`: the timing as stored, the seats' time-outs
    and stand-ins) and its `Game`; `kick` sets the bots going after a time-out."""

    def __init__(
        self, seating: Seating, game: Game, lock: GameLock, kick: Callable[[], None]
    ) -> None:
        self._seating, self._game, self._lock, self._kick = seating, game, lock, kick
        self._lock_tried = 0.0  # when this process last tried to take the clock over

    # -- the clocks ------------------------------------------------------------

    @property
    def control(self) -> TimeControl:
        return self._seating.control

    @property
    def timing(self) -> Timing:
        """The clocks as stored, with the seats or with the latest move."""
        return self._seating.timing

    def clocked(self, seat: int) -> bool:
        """Whether `seat`'s decisions are timed: a human playing it, in a timed game."""
        return self.control.timed and self._seating.seats[seat].player

    def first(self, first: int) -> Timing | None:
        """The clocks as the game starts, `first` to play."""
        players, now = len(self._seating.seats), self._seating.now()
        return start_timing(self.control, players, first, self.clocked(first), now)

    def after(self, before: GameState, after: GameState) -> Timing | None:
        """The clocks after a move from `before` to `after`, now (`timing_after`)."""
        now = self._seating.now()
        return timing_after(self.control, self.timing, before, after, self.clocked, now)

    def view(self) -> ClockView | None:
        """Each seat's time left now, for a view (the client counts the running one down)."""
        state, seats = self._game.state, self._seating.seats
        if not self.control.timed or state is None:
            return None
        now, deadline = self._seating.now(), self.timing.deadline
        running = None if state.is_over or deadline is None else state.current_player
        left: list[float | None] = []
        for i in range(len(seats)):
            if not seats[i].player:
                left.append(None)
            elif i == running:
                assert deadline is not None
                left.append(round(max(0.0, deadline - now), 3))
            elif self.control.realtime:
                left.append(self.timing.banks[i] if i < len(self.timing.banks) else None)
            else:
                left.append(self.control.per_move)
        return ClockView(self.control, tuple(left), running)

    def covering(self) -> str | None:
        """The bot level playing the current decision for its player: a bot that stands
        in, or the one playing the turn whose time ran out."""
        state = self._game.state
        if state is None or state.is_over:
            return None
        s = self._seating.seats[state.current_player]
        if s.identity is None:
            return None
        if s.standin is not None:
            return s.standin
        return TIMEOUT_LEVEL if s.stored.late == state.turn else None

    def refuse_late(self, seat: int) -> None:
        """A human's own move: refused once a bot plays for them, or their time is up."""
        s, state = self._seating.seats[seat], self._game.state
        assert state is not None
        if s.standin is not None:
            raise TableError(
                L_("a {standin} bot plays your seat for the rest of this game", standin=s.standin)
            )
        deadline = self.timing.deadline
        late = s.stored.late == state.turn
        now = self._seating.now()
        if late or (self.clocked(seat) and deadline is not None and now >= deadline):
            raise TableError(L_("your time ran out: a bot plays this turn for you"))

    def awaits(self, identity: Identity) -> bool:
        """Whether this game waits for `identity`'s move (their own, not a bot's for them)."""
        state, seating = self._game.state, self._seating
        if seating.status is not TableStatus.PLAYING or state is None or state.is_over:
            return False
        seat = seating.seat_of(identity)
        if seat is None or seat != state.current_player:
            return False
        return seating.seats[seat].player and seating.seats[seat].stored.late != state.turn

    def replaced(self) -> tuple[int, ...]:
        """Seats whose player a bot stands in for: they rank last for ratings."""
        return tuple(i for i, s in enumerate(self._seating.seats) if s.standin is not None)

    @property
    def nobody_plays(self) -> bool:
        """Every human seat is played by a bot now (the game is then abandoned)."""
        humans = self._seating.humans
        return bool(humans) and not any(s.player for s in humans)

    # -- time-outs -------------------------------------------------------------

    def due(self, now: float) -> bool:
        """Whether a running clock has run out and nothing was done about it yet."""
        deadline = self.timing.deadline
        return (
            self._seating.status is TableStatus.PLAYING
            and self.control.timed
            and deadline is not None
            and now >= deadline
            and self.covering() is None
        )

    async def hold(self) -> None:
        """Run this game's clock (and bots) from this process if no other does."""
        if self.control.timed and not self._lock.held:
            await self._lock.take()

    async def expired(self, now: float) -> bool:
        """A deadline has passed (`due`): act on it if this process runs the game's clock,
        or take it over from a process that has not acted for `TAKEOVER_GRACE` seconds
        (it died). True if no human plays the game any more."""
        deadline = self.timing.deadline
        if not self._lock.held:
            if deadline is None or now < deadline + TAKEOVER_GRACE:
                return False
            if time.monotonic() - self._lock_tried < LOCK_RETRY:
                return False
            self._lock_tried = time.monotonic()
            if not await self._lock.take():
                return False
            log.info("game %s: its clock and bots run from this process now", self._seating.id)
        return await self.time_out(now)

    async def time_out(self, now: float) -> bool:
        """The current player's time ran out: a bot plays this turn, or stands in for them
        for the rest of the game (real time; the third time-out). Stored (every process
        sees it), then the bot moves. True if no human plays the game any more."""
        seating = self._seating
        async with seating.lock:
            state, deadline = self._game.state, self.timing.deadline
            if state is None or deadline is None or not self.due(now):
                return False
            seat, turn = state.current_player, state.turn
            if not seating.seats[seat].player:
                return False
            count = seating.seats[seat].stored.timeouts + 1
            final = self.control.realtime or count >= MAX_TIMEOUTS
            if count >= MAX_TIMEOUTS:
                reason = L_("your time ran out for the third time at turn {turn}", turn=turn)
            else:
                reason = L_("your time ran out at turn {turn}", turn=turn)
            why = said.stored(reason) if final else ""  # each reader sees it in theirs

            def edit() -> tuple[list[SeatRecord], str]:
                records = seating.records()
                r = records[seat]
                standin = TIMEOUT_LEVEL if final else r.standin
                records[seat] = replace(
                    r, timeouts=count, late=turn, standin=standin, why=why or r.why
                )
                return records, seating.host

            await seating.edit(edit, held=True)  # only while this process holds the lock
        who = seating.name(seat)
        log.info("game %s: %s ran out of time at turn %d (%d)", seating.id, who, turn, count)
        self._kick()
        return self.nobody_plays

    # -- telling the players -----------------------------------------------------

    def news(self, old: list[Seat]) -> None:
        """The stored seats changed from `old` (by this process or another): tell everyone
        at the table of a time-out or a bot standing in."""
        for i, (was, now) in enumerate(zip(old, self._seating.seats, strict=True)):
            if now.identity is None or was.identity is None:
                continue
            timed_out = now.stored.timeouts > was.stored.timeouts
            replaced = now.standin is not None and was.standin is None
            if timed_out or replaced:
                self._tell(i, timed_out)

    def _tell(self, seat: int, timed_out: bool) -> None:
        if self.nobody_plays:
            return  # the game is abandoned: its players are told that instead
        s = self._seating.seats[seat]
        name = self._seating.name(seat)
        if s.standin is not None:
            mine = L_(
                "{why}: {standing_in}",
                why=said.from_stored(s.stored.why),
                standing_in=standing_in(s.standin),
            )
            if timed_out:
                theirs = L_(
                    "{name}'s time ran out: a {level} bot plays {name}'s seat from now on",
                    name=name,
                    level=s.standin,
                )
            else:
                theirs = L_(
                    "a {level} bot plays {name}'s seat from now on", name=name, level=s.standin
                )
        else:
            mine = L_(
                "Your time ran out ({n} of {most} in this game): a {level} bot plays this turn "
                "for you",
                n=s.stored.timeouts,
                most=MAX_TIMEOUTS,
                level=TIMEOUT_LEVEL,
            )
            theirs = L_(
                "{name}'s time ran out: a {level} bot plays this turn",
                name=name,
                level=TIMEOUT_LEVEL,
            )
        for peer, text in self._audience(seat, mine, theirs):
            peer.deliver(protocol.notice(text, "info"))

    def _audience(self, seat: int, mine: Text, theirs: Text) -> list[tuple[Peer, Text]]:
        seats = self._seating.seats
        out = [(p, mine) for p in seats[seat].peers]
        for i, s in enumerate(seats):
            if i != seat:
                out += [(p, theirs) for p in s.peers]
        return out + [(p, theirs) for p in self._seating.spectators]

    def greet(self, peer: Peer, seat: int | None) -> None:
        """A player back at their seat hears what happened to it while they were away."""
        if seat is None:
            return
        s = self._seating.seats[seat]
        if s.standin is not None:
            text = L_(
                "At table {table}: {why}; {standing_in}",
                table=self._seating.id,
                why=said.from_stored(s.stored.why),
                standing_in=standing_in(s.standin),
            )
        elif s.stored.timeouts:
            text = Ln_(
                "Your time has run out {n} time in this game (a bot played that turn); at "
                "{most} a bot takes your seat",
                "Your time has run out {n} times in this game (a bot played those turns); at "
                "{most} a bot takes your seat",
                s.stored.timeouts,
                most=MAX_TIMEOUTS,
            )
        else:
            return
        peer.deliver(protocol.notice(text, "info"))


def standing_in(level: str) -> Text:
    return L_(
        "a {level} bot plays your seat to the end of the game, and you rank last", level=level
    )
