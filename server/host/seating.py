"""A table's seats and status, kept as the store orders them, the sessions at them, and
who is sent which view (the fan-out). One part of `server.host.table.Table`, which hands it
the table's `Game` and what it calls back: a game that began, news of the seats, a change
for the lobby, and what a session at a seat is sent. A change of seats or status is stored
first, from the version this copy has (`Store.update_table`); when another process changed
the table first, the copy is read again and the change worked out anew. The table's one
lock (`Seating.lock`) orders every change any part makes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from shared.clock import parse_time_control
from shared.i18n import L_
from shared.players import bot_label
from shared.protocol import SeatSummary, TableStatus

from ..store import (
    ABANDONED,
    CLOSED,
    FINISHED,
    PLAYING,
    WAITING,
    GameRecord,
    SeatRecord,
    Store,
    StoreUnavailable,
    Timing,
)
from .identity import Identity
from .seat import TRANSITIONS, Busy, Game, Peer, Seat, TableError, same_player

log = logging.getLogger("splendor")

EDIT_TRIES = 5  # a change of seats redone after another process changed the table first
BUSY = L_("the server is busy; try again in a moment")

T = TypeVar("T")
STATUS = {
    WAITING: TableStatus.WAITING,
    PLAYING: TableStatus.PLAYING,
    FINISHED: TableStatus.FINISHED,
    ABANDONED: TableStatus.FINISHED,
    CLOSED: TableStatus.FINISHED,
}
RESULT = {FINISHED: "over", ABANDONED: "abandoned", CLOSED: "closed"}


class Seating:
    """A table's seats and status as stored, the sessions at it, and who is sent what."""

    def __init__(
        self,
        record: GameRecord,
        store: Store,
        game: Game,
        *,
        began: Callable[[], None],
        started: Callable[[], None],
        news: Callable[[list[Seat]], None],
        changed: Callable[[bool], None],
        message: Callable[[int | None, bool], bytes],
        now: Callable[[], float] = time.time,
    ) -> None:
        """`game` is only read (is there a game to show). Called back: `began` when the game
        has just started (set it up), `started` when another process started it (show it),
        `news` with the seats as they were before a stored change, `changed` when the lobby's
        view changed (`True`: minor), `message`: a seat's (None: a watcher's) bytes."""
        if not 2 <= len(record.seats) <= 4:
            raise TableError(L_("a table has 2 to 4 seats"))
        self.id = record.id
        self.seats = [Seat.from_record(r) for r in record.seats]  # the list is never replaced
        self.host = record.host  # the name of the player who may start it
        self.status = STATUS[record.status]
        self.result = RESULT.get(record.status, "")  # how it finished
        self.version = record.version
        self.seed = record.seed
        self.rated = record.rated
        self.settings = record.settings  # clock, patience, the game it is a rematch of
        self.game_settings = record.game_settings  # what its game is dealt with (R15's target)
        self.control = parse_time_control(record.settings.clock)
        self.timing = record.timing  # the clocks as stored (server.host.clocks)
        self.now = now  # the time (an absolute one, like the stored deadlines)
        self.away_since: dict[int, float] = {}  # seats whose player is away: since when
        self.spectators: set[Peer] = set()  # never replaced
        self.lock = asyncio.Lock()  # the table's: every change of any part holds it
        self.seen = time.monotonic()  # when a human was last seen connected here
        self._store = store
        self._game = game
        self._began, self._started, self._news, self._changed = began, started, news, changed
        self._message = message

    # -- lifecycle ---------------------------------------------------------

    def transition(self, new: TableStatus) -> None:
        """The status becomes `new`, if the lifecycle allows that step (`TRANSITIONS`)."""
        if new not in TRANSITIONS[self.status]:
            raise TableError(
                L_(
                    "table {id} is {status}; it cannot become {new}",
                    id=self.id,
                    status=self.status.value,
                    new=new.value,
                )
            )
        self.status = new

    def ended(self, result: str) -> None:
        """The game ended ("over", "abandoned"), as stored by the caller: FINISHED."""
        self.transition(TableStatus.FINISHED)
        self.result = result

    async def call(self, call: Awaitable[T]) -> T:
        """A store call; an unreachable database is a refusal the player can retry."""
        try:
            return await call
        except StoreUnavailable as e:
            log.warning("table %s: %s", self.id, e)  # the player is told only to retry
            raise Busy(BUSY) from None

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
        async with self.lock:
            taken: list[int] = []

            def edit() -> tuple[list[SeatRecord], str]:
                records, mine = self.records(), self.seat_of(identity)
                if mine is None:
                    if self.status is not TableStatus.WAITING:
                        raise TableError(
                            L_(
                                "the game at table {id} is in progress; watch it instead",
                                id=self.id,
                            )
                        )
                    mine = next((i for i, s in enumerate(self.seats) if s.empty), None)
                    if mine is None:
                        raise TableError(L_("table {id} is full", id=self.id))
                    records[mine] = Seat(identity=identity).record()
                else:  # back at their seat, or accepting a rematch
                    records[mine] = replace(records[mine], left=0.0, invited=False)
                taken[:] = [mine]
                return records, self.host

            mine = self.seat_of(identity)
            if mine is not None and not (self.seats[mine].left or self.seats[mine].stored.invited):
                return mine  # nothing to store
            await self.edit(edit)
            return taken[0]

    async def stand(self, identity: Identity) -> bool:
        """A player gives up their seat at a waiting table; the host passes to the next
        player (their leaving calls the invitations off in the same change, which
        `InviteDesk` tells from a refusal); the last one out closes it. True if it closed."""
        async with self.lock:

            def edit() -> tuple[list[SeatRecord], str]:
                if self.status is not TableStatus.WAITING:
                    raise TableError(L_("the game has started; the seat is held"))
                records, host = self.records(), self.host
                i = self.seat_of(identity)
                if i is not None:
                    records[i] = SeatRecord()
                if host == identity.name:
                    records = [SeatRecord() if r.invited else r for r in records]
                humans = [r.name for r in records if r.name is not None]
                if host == identity.name and humans:
                    host = humans[0]
                return records, host

            mine, hosting = self.seat_of(identity), self.host == identity.name
            if mine is None:
                return False
            stay = [s for s in self.humans if not (hosting and s.stored.invited)]
            await self.edit(edit, status=CLOSED if len(stay) == 1 else None)
            return self.status is TableStatus.FINISHED

    async def set_left(self, seat: int, left: bool) -> None:
        """A player of a game in progress went back to the lobby (or came back): stored,
        so that every process sees the seat as left, and the game as abandoned once every
        player has left it."""
        async with self.lock:

            def edit() -> tuple[list[SeatRecord], str]:
                if self.status is not TableStatus.PLAYING:
                    raise TableError(L_("there is no game in progress at this table"))
                records = self.records()
                records[seat] = replace(records[seat], left=time.time() if left else 0.0)
                return records, self.host

            if bool(self.seats[seat].left) != left:
                await self.edit(edit)

    async def edit(
        self,
        edit: Callable[[], tuple[list[SeatRecord], str]],
        status: str | None = None,
        seed: int | None = None,
        timing: Timing | None = None,
        held: bool = False,
    ) -> None:
        """Store the seats and host `edit` works out from this copy (and `status`, `seed`,
        the clocks' `timing`), from this copy's version; when another process changed the
        table first, read it again and work the change out anew (`edit` may then refuse
        it). `held`: an act of the game's lock holder (`Store.update_table`). Locked."""
        for _ in range(EDIT_TRIES):
            records, host = edit()
            stored = self._store.update_table(
                self.id, self.version, records, host, status, seed, timing, held
            )
            if await self.call(stored):
                self.version += 1
                self.seed = self.seed if seed is None else seed
                self.timing = self.timing if timing is None else timing
                self._apply(records, host, status)
                return
            await self.reread()
        raise TableError(BUSY)

    async def reload(self, version: int | None = None) -> None:
        """Another process changed this table: read it again and show what changed;
        nothing to read if this copy is at `version` already (its own change, say)."""
        async with self.lock:
            if version is None or self.version < version:
                await self.reread()

    async def reread(self) -> None:
        """Read this table again from the store (under the lock)."""
        record = await self.call(self._store.load_game(self.id, moves=False))
        if record is None or record.version == self.version:
            return
        self.version, self.seed, self.timing = record.version, record.seed, record.timing
        if self._apply(list(record.seats), record.host, record.status):
            log.info("game start %s: %s (on another process)", self.id, self.describe())
            self._started()

    def _apply(self, records: list[SeatRecord], host: str, status: str | None) -> bool:
        """Make this copy's seats, host and status the stored ones. Sessions here stay
        at their seat when it is still their player's; the lobby moves the others. True
        if the game has just started (set up by `began`; shown by `started` after a read,
        by `Table.start` itself after its own change)."""
        before = self._shown()
        before_seats = list(self.seats)
        for i, r in enumerate(records):
            old, new = self.seats[i], Seat.from_record(r)
            if old.identity is not None and new.identity is not None:
                if same_player(old.identity, new.identity):
                    new.peers, new.remote = old.peers, old.remote
            self.seats[i] = new
        self.host = host
        if status is not None and STATUS[status] is not self.status:
            self.transition(STATUS[status])
            self.result = RESULT.get(status, "")
            if status == PLAYING:
                assert self.seed is not None
                self._began()
                return True
        if before != self._shown():
            self._news(before_seats)
            self._changed(False)
            if self.status is TableStatus.PLAYING:
                self.send_views()
        return False

    def _shown(self) -> tuple[object, ...]:
        """What a change of seats may change for those who look (votes included)."""
        seats = [(s.summary(), s.stored.votes) for s in self.seats]
        return self.status, seats, self.host

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
            self._mark_away()
            self.touch()
            self.send_views(newcomer=peer)
            self._changed(False)
        elif self._game.state is not None:
            self.send_view(peer, seat)

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

    def _connections_changed(self, before: tuple[bool, ...]) -> None:
        if self._connections() != before:
            self._mark_away()
            self.touch()  # a human was here until now
            if self.status is TableStatus.PLAYING:
                self.send_views()
            self._changed(False)

    def _connections(self) -> tuple[bool, ...]:
        return tuple(s.connected for s in self.seats)

    def _mark_away(self) -> None:
        """Note since when each player who is away has been (for the vote on absent
        players); a player who came back is no longer away."""
        for i, s in enumerate(self.seats):
            if s.identity is not None and not s.connected:
                self.away_since.setdefault(i, self.now())
            else:
                self.away_since.pop(i, None)

    @property
    def peers(self) -> set[Peer]:
        out = set(self.spectators)
        for s in self.seats:
            out |= s.peers
        return out

    # -- fan-out -----------------------------------------------------------

    def name(self, seat: int) -> str:
        s = self.seats[seat]
        if s.identity is not None:
            return s.identity.name
        return bot_label(s.bot) if s.bot else "nobody"

    def describe(self) -> str:
        return ", ".join(self.name(i) for i in range(len(self.seats)))

    def seat_summaries(self) -> tuple[SeatSummary, ...]:
        return tuple(s.summary() for s in self.seats)

    def send_view(self, peer: Peer, seat: int | None) -> None:
        """The table to a session that has just come to it: with the turns so far."""
        peer.deliver(self._message(seat, True))

    def send_views(self, newcomer: Peer | None = None, with_log: bool = False) -> None:
        """Each seat's sessions get that seat's view; spectators the spectator view; a
        `newcomer` (or everyone, `with_log`) also the turns so far."""
        if self._game.state is None:
            return
        for i, s in enumerate(self.seats):
            if s.peers:
                data = self._message(i, with_log)
                for p in list(s.peers):
                    p.deliver(self._message(i, True) if p is newcomer else data)
        if self.spectators:
            data = self._message(None, with_log)
            for p in list(self.spectators):
                p.deliver(data)
