"""Playing with others over time: rematches (a part of `server.host.lobby.Lobby`), the
cap on tables a player may sit at (live and correspondence apart), and the games where
it is a player's move.

- **Rematch**: at a finished game, `Rematch` makes a new waiting table for the same
  players, seats rotated (seat 1's player at seat 2, ...), same clock, patience and
  rating; the other players are invited (their seats held) and accept with `Rematch`
  or by joining it from the lobby; bots accept at once. It starts when all have
  accepted, and everyone who accepted is taken to it. A player who leaves it (`Leave`
  in the lobby, invited or not) calls it off: the table closes and the others are told.
  One rematch a game: two players offering at once on two processes make one table
  (the store refuses a second).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from shared import protocol
from shared.i18n import L_, Ln_, Text
from shared.protocol import TableStatus

from ..store import WAITING, GameRecord, SeatRecord, StoreError
from .hostsettings import HostSettings
from .identity import Identity, new_table_id
from .link import HostLink
from .places import Places
from .seat import Seat, TableError, same_player
from .table import BUSY, Table

if TYPE_CHECKING:
    from ..store import Store

log = logging.getLogger("splendor")

CLOCK_EVERY = 0.5  # seconds between two looks at the deadlines of this process's games

Place = Callable[[HostLink, Table, "int | None"], None]


def check_cap(
    tables: dict[str, Table],
    settings: HostSettings,
    identity: Identity,
    correspondence: bool,
    accepting: Table | None = None,
) -> None:
    """Refuse a new seat to a player who holds as many as they may: live tables (no
    clock, real time) and correspondence tables count apart. A seat held for them that
    they have not accepted does not count (others cannot fill their cap with invitations);
    `accepting`: the table whose held seat they take now (it exists: no server cap)."""
    held = [
        t
        for t in tables.values()
        if t is not accepting
        and t.status is not TableStatus.FINISHED
        and (seat := t.seat_of(identity)) is not None
        and not t.seats[seat].stored.invited
        and t.control.correspondence == correspondence
    ]
    cap = settings.max_correspondence_tables if correspondence else settings.max_tables_per_player
    if len(held) >= cap:
        ids = ", ".join(t.id for t in held)
        kind = L_("correspondence tables") if correspondence else L_("tables")
        raise TableError(
            L_(
                "you already have a seat at {count} {kind} ({ids}); leave one first",
                count=len(held),
                kind=kind,
                ids=ids,
            )
        )
    if accepting is None and len(tables) >= settings.max_tables:
        raise TableError(L_("the server has as many tables as it can hold; try again later"))


def check_accepting(
    tables: dict[str, Table], settings: HostSettings, identity: Identity, table: Table
) -> None:
    """Taking the seat `table` holds for this player (an invitation, a rematch) is a new
    seat: refused at the cap like any other (`check_cap`)."""
    seat = table.seat_of(identity)
    if seat is not None and table.seats[seat].stored.invited:
        check_cap(tables, settings, identity, table.control.correspondence, table)


def to_move(tables: dict[str, Table], identity: Identity) -> tuple[str, ...]:
    """The games where it is this player's move, in the lobby's order."""
    return tuple(t.id for t in tables.values() if t.awaits(identity))


def moves_waiting(ids: tuple[str, ...], here: str | None) -> Text | None:
    """On arrival: where it is the player's move, when it is not only the game they were
    taken to."""
    if not ids or ids == (here,):
        return None
    return Ln_(
        "Your move at {n} table: {tables} (m goes to each in turn)",
        "Your move at {n} tables: {tables} (m goes to each in turn)",
        len(ids),
        tables=", ".join(ids),
    )


class Rematches:
    """Rematches offered, accepted and called off: a new table for the players of a
    finished one. `add` makes this process's copy of a stored table; `place` puts a
    session at a table and `stand` takes a player from a waiting one (the lobby's, which
    move sessions); `seed` deals."""

    def __init__(
        self,
        store: Store,
        tables: dict[str, Table],
        places: Places,
        settings: HostSettings,
        add: Callable[[GameRecord], Table],
        place: Place,
        stand: Callable[[Table, Identity], Awaitable[None]],
        seed: Callable[[], int],
    ) -> None:
        self.store = store
        self.tables = tables
        self.places = places
        self.settings = settings
        self._add = add
        self._place = place
        self._stand = stand
        self._seed = seed

    # -- rematches -----------------------------------------------------------------

    async def offer(self, link: HostLink) -> None:
        """Offer a rematch of the finished game `link` shows, or accept the one offered."""
        old, seat = self.places.of(link).table, self.places.of(link).seat
        if old is None or seat is None or old.status is not TableStatus.FINISHED:
            raise TableError(L_("a rematch is offered at the end of a game you played"))
        if old.result != "over":
            raise TableError(L_("the game at table {id} did not end: no rematch", id=old.id))
        new = old.rematch if isinstance(old.rematch, Table) else None
        if new is None or new.status is TableStatus.FINISHED:
            new = await self._offer(old, link.identity)
        if new.status is not TableStatus.WAITING:
            raise TableError(L_("the rematch at table {id} has started", id=new.id))
        check_accepting(self.tables, self.settings, link.identity, new)
        await new.sit(link.identity)
        await self.start_if_accepted(new)

    async def _offer(self, old: Table, offerer: Identity) -> Table:
        """A new waiting table for the players of `old`, seats rotated, the others invited;
        or, when another process made it first, that one."""
        if len(self.tables) >= self.settings.max_tables:
            raise TableError(L_("the server has as many tables as it can hold; try again later"))
        n = len(old.seats)
        seats = [SeatRecord()] * n
        for i, s in enumerate(old.seats):
            if s.identity is None:
                seats[(i + 1) % n] = SeatRecord(bot=s.bot)
            else:
                invited = not same_player(s.identity, offerer)
                seats[(i + 1) % n] = replace(Seat(identity=s.identity).record(), invited=invited)
        settings = replace(old.settings, rematch_of=old.id)
        for _ in range(20):
            table_id = new_table_id()
            if table_id in self.tables:
                continue
            if await self.store.create_table(table_id, seats, offerer.name, old.rated, settings):
                break
            made = await self.store.rematch_for(old.id)
            if made is not None:  # another player offered it first
                record = await self.store.load_game(made)
                if record is None:
                    raise StoreError(L_("the rematch of {id} went missing", id=old.id))
                return self._add(record)
        else:
            raise TableError(BUSY)
        log.info("rematch of %s offered by %s at table %s", old.id, offerer.name, table_id)
        record = GameRecord(
            table_id, None, tuple(seats), offerer.name, WAITING, time.time(),
            rated=old.rated, settings=settings,
        )  # fmt: skip
        return self._add(record)

    async def start_if_accepted(self, table: Table) -> None:
        """A rematch starts once every seat is filled and every player has accepted; those
        who accepted are taken to it (from the old table, or the lobby)."""
        if table.settings.rematch_of is None or table.status is not TableStatus.WAITING:
            return
        if any(s.empty or s.stored.invited for s in table.seats):
            return
        try:
            await table.start(self._seed())
        except TableError:
            return  # another player's acceptance started it just now
        self.seat_players(table)

    def seat_players(self, table: Table) -> None:
        """Sessions of a rematch's players at the old table, or in the lobby, go to it."""
        old = table.settings.rematch_of
        if old is None or table.status is not TableStatus.PLAYING:
            return
        for link in self.places:
            seat = table.seat_of(link.identity)
            where = self.places.of(link).table
            if seat is not None and (where is None or where.id == old):
                self._place(link, table, seat)

    async def call_off(self, table: Table, identity: Identity) -> None:
        """A player leaves a waiting rematch (invited, or having accepted): it cannot take
        place, so it closes; the others who sat there are told, and so is the old table."""
        others = [
            s.identity
            for s in table.seats
            if s.identity is not None and not same_player(s.identity, identity)
        ]
        for player in [identity, *others]:
            await self._stand(table, player)
        if table.status is not TableStatus.FINISHED:
            return  # it started as they left: the seats are held
        text = L_(
            "{name} declined the rematch at table {table}", name=identity.name, table=table.id
        )
        for link in self.places:
            if any(same_player(link.identity, p) for p in others):
                link.deliver(protocol.notice(text, "info"))
        old = self.tables.get(table.settings.rematch_of or "")
        if old is not None and old.rematch is table:
            old.rematch = None
            old.send_views()

    def link(self, table: Table) -> None:
        """A table made as a rematch: the old table's screens show the offer."""
        old = self.tables.get(table.settings.rematch_of or "")
        if old is not None:
            old.rematch = table
            old.send_views()
