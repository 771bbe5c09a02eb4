"""The lobby's commands for playing with others over time: rematches, the vote on an absent
player, going from one game where it is your move to the next, the cap on tables a
player may sit at (live and correspondence apart), and the clocks' watch.

`server.host.lobby.Lobby` builds on it (it provides the tables, the sessions and placing a
session at a table).

- **Rematch**: at a finished game, `Rematch` makes a new waiting table for the same
  players, seats rotated (seat 1's player at seat 2, ...), same clock, patience and
  rating; the other players are invited (their seats held) and accept with `Rematch`
  or by joining it from the lobby; bots accept at once. It starts when all have
  accepted, and everyone who accepted is taken to it. One rematch a game: two
  players offering at once on two processes make one table (the store refuses a
  second).
- **Next game**: `NextGame` goes to the next table where it is the player's move
  (their seat where they were stays theirs, not left), or back to the lobby.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from shared import protocol
from shared.protocol import TableStatus

from ..store import WAITING, GameRecord, SeatRecord, StoreError
from .hostsettings import HostSettings
from .identity import Identity, new_table_id
from .link import HostLink
from .listing import Listing, Mine
from .seat import Seat, TableError, same_player
from .table import BUSY, Table

if TYPE_CHECKING:
    from ..store import Store

log = logging.getLogger("splendor")

CLOCK_EVERY = 0.5  # seconds between two looks at the deadlines of this process's games


class Company:
    """Rematches, votes, next games, caps and the clocks' watch, for `server.host.lobby.Lobby`."""

    tables: dict[str, Table]
    links: set[HostLink]
    store: Store
    settings: HostSettings

    if TYPE_CHECKING:  # the lobby's own

        def add(self, record: GameRecord) -> Table: ...
        def refresh(self, minor: bool = False) -> None: ...
        def send_lobby(
            self,
            link: HostLink,
            listing: Listing | None = None,
            encoded: dict[Mine, bytes] | None = None,
        ) -> None: ...
        def _place(self, link: HostLink, table: Table, seat: int | None) -> None: ...
        def _unplace(self, link: HostLink, stand: bool = True) -> None: ...
        def _seed(self, asked: int | None) -> int: ...
        def _playing(self, link: HostLink) -> tuple[Table, int]: ...
        async def abandon(self, table: Table) -> None: ...
        async def _join(self, link: HostLink, table: Table) -> None: ...

    # -- caps --------------------------------------------------------------------

    def check_cap(self, identity: Identity, correspondence: bool = False) -> None:
        """Refuse a new seat to a player who holds as many as they may: live tables
        (no clock, real time) and correspondence tables count apart."""
        held = [
            t
            for t in self.tables.values()
            if t.status is not TableStatus.FINISHED
            and t.seat_of(identity) is not None
            and t.control.correspondence == correspondence
        ]
        caps = self.settings
        cap = caps.max_correspondence_tables if correspondence else caps.max_tables_per_player
        if len(held) >= cap:
            ids = ", ".join(t.id for t in held)
            kind = "correspondence tables" if correspondence else "tables"
            raise TableError(
                f"you already have a seat at {len(held)} {kind} ({ids}); leave one first"
            )
        if len(self.tables) >= self.settings.max_tables:
            raise TableError("the server has as many tables as it can hold; try again later")

    # -- your move -------------------------------------------------------------

    def to_move(self, identity: Identity) -> tuple[str, ...]:
        """The games where it is this player's move, in the lobby's order."""
        return tuple(t.id for t in self.tables.values() if t.awaits(identity))

    def tell_moves(self, link: HostLink) -> None:
        """On arrival: where it is the player's move, when it is not only the game they
        were taken to."""
        ids = self.to_move(link.identity)
        here = link.table.id if link.table is not None else None
        if not ids or ids == (here,):
            return
        s = "" if len(ids) == 1 else "s"
        text = f"Your move at {len(ids)} table{s}: {', '.join(ids)} (m goes to each in turn)"
        link.deliver(protocol.notice(text, "info"))

    async def next_game(self, link: HostLink) -> None:
        """The next game where it is this player's move after the one it is at; with none,
        the lobby (a seat in a game stays the player's: it is not left)."""
        ids = list(self.to_move(link.identity))
        here = link.table.id if link.table is not None else None
        if here in ids:
            at = ids.index(here)
            ids = ids[at + 1 :] + ids[:at]
        if ids:
            await self._join(link, self.tables[ids[0]])
            return
        self._unplace(link)
        self.send_lobby(link)

    # -- votes -------------------------------------------------------------------

    async def vote(self, link: HostLink, target: int) -> None:
        table, seat = self._playing(link)
        if await table.vote(seat, target):
            await self.abandon(table)

    # -- rematches -----------------------------------------------------------------

    async def rematch(self, link: HostLink) -> None:
        """Offer a rematch of the finished game `link` shows, or accept the one offered."""
        old = link.table
        if old is None or link.seat is None or old.status is not TableStatus.FINISHED:
            raise TableError("a rematch is offered at the end of a game you played")
        if old.result != "over":
            raise TableError(f"the game at table {old.id} did not end: no rematch")
        new = old.rematch if isinstance(old.rematch, Table) else None
        if new is None or new.status is TableStatus.FINISHED:
            new = await self._offer(old, link.identity)
        if new.status is not TableStatus.WAITING:
            raise TableError(f"the rematch at table {new.id} has started")
        await new.sit(link.identity)
        await self.start_if_accepted(new)
        self.refresh()

    async def _offer(self, old: Table, offerer: Identity) -> Table:
        """A new waiting table for the players of `old`, seats rotated, the others invited;
        or, when another process made it first, that one."""
        if len(self.tables) >= self.settings.max_tables:
            raise TableError("the server has as many tables as it can hold; try again later")
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
                    raise StoreError(f"the rematch of {old.id} went missing")
                return self.add(record)
        else:
            raise TableError(BUSY)
        log.info("rematch of %s offered by %s at table %s", old.id, offerer.name, table_id)
        record = GameRecord(
            table_id, None, tuple(seats), offerer.name, WAITING, time.time(),
            rated=old.rated, settings=settings,
        )  # fmt: skip
        return self.add(record)

    async def start_if_accepted(self, table: Table) -> None:
        """A rematch starts once every seat is filled and every player has accepted; those
        who accepted are taken to it (from the old table, or the lobby)."""
        if table.settings.rematch_of is None or table.status is not TableStatus.WAITING:
            return
        if any(s.empty or s.stored.invited for s in table.seats):
            return
        try:
            await table.start(self._seed(None))
        except TableError:
            return  # another player's acceptance started it just now
        self.seat_rematch(table)

    def seat_rematch(self, table: Table) -> None:
        """Sessions of a rematch's players at the old table, or in the lobby, go to it."""
        old = table.settings.rematch_of
        if old is None or table.status is not TableStatus.PLAYING:
            return
        for link in list(self.links):
            seat = table.seat_of(link.identity)
            where = link.table
            if seat is not None and (where is None or where.id == old):
                self._place(link, table, seat)

    def link_rematch(self, table: Table) -> None:
        """A table made as a rematch: the old table's screens show the offer."""
        old = self.tables.get(table.settings.rematch_of or "")
        if old is not None:
            old.rematch = table
            old.send_views()

    # -- clocks ------------------------------------------------------------------

    async def check_clocks(self) -> None:
        """Act on every deadline passed in a game whose clock this process runs (or takes
        over: `server.host.clocks`); a game nobody plays any more is abandoned."""
        now = self.settings.now()
        for table in list(self.tables.values()):
            if not table.clock_due(now):
                continue
            try:
                if await table.clock_expired(now):
                    await self.abandon(table)
            except (TableError, StoreError) as e:
                log.info("game %s: its clock could not act now: %s", table.id, e)
