"""A game in play, seen from the lobby: a session's move, its undo and hint (offline),
its vote on an absent player, the clocks' deadlines, and games nobody comes back to.
A part of `server.host.lobby.Lobby`; `abandon` and `stand` are the lobby's, since they
move sessions."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from shared import protocol
from shared.i18n import L_, Text
from shared.moves import Move
from shared.protocol import Advice, TableStatus

from ..store import StoreError
from .hostsettings import HostSettings
from .identity import Identity
from .link import HostLink
from .places import Places
from .table import Table, TableError

log = logging.getLogger("splendor")

WAITING_IDLE = 600.0  # seconds a waiting table with nobody at it is kept (after a restart)


class Play:
    """The commands of a player at a game, and the upkeep of every game."""

    def __init__(
        self,
        places: Places,
        tables: dict[str, Table],
        settings: HostSettings,
        abandon: Callable[[Table], Awaitable[None]],
        stand: Callable[[Table, Identity], Awaitable[None]],
    ) -> None:
        self.places = places
        self.tables = tables
        self.settings = settings
        self._abandon = abandon
        self._stand = stand

    def playing(self, link: HostLink) -> tuple[Table, int]:
        """The game `link` plays and its seat; else a refusal."""
        place = self.places.of(link)
        table, seat = place.table, place.seat
        if table is None or seat is None or table.status is not TableStatus.PLAYING:
            raise TableError(L_("you are not playing a game"))
        return table, seat

    async def move(self, link: HostLink, move: Move) -> None:
        table, seat = self.playing(link)
        await table.play(seat, move)

    async def undo(self, link: HostLink) -> None:
        if not self.settings.undo:
            raise TableError(L_("moves are taken back only in offline games against bots"))
        table, seat = self.playing(link)
        await table.undo(seat)

    async def hint(self, link: HostLink) -> None:
        if not self.settings.hints:
            raise TableError(L_("hints are only for offline games against bots"))
        table, seat = self.playing(link)
        move, reason = await table.hint(seat)
        said = reason if isinstance(reason, Text) else None  # each reader's language
        english = reason.english() if isinstance(reason, Text) else reason
        link.deliver(protocol.encode(Advice(move, english, said)))

    async def vote(self, link: HostLink, target: int) -> None:
        table, seat = self.playing(link)
        if await table.vote(seat, target):
            await self._abandon(table)

    # -- upkeep ------------------------------------------------------------

    async def check_clocks(self) -> None:
        """Act on every deadline passed in a game whose clock this process runs (or takes
        over: `server.host.clocks`); a game nobody plays any more is abandoned."""
        now = self.settings.now()
        for table in list(self.tables.values()):
            if not table.clock_due(now):
                continue
            try:
                if await table.clock_expired(now):
                    await self._abandon(table)
            except (TableError, StoreError) as e:
                log.info("game %s: its clock could not act now: %s", table.id, e)

    async def abandon_idle(self, after: float) -> None:
        """Abandon every game without a clock that no human has been connected to (on any
        process) for `after` seconds, so games nobody comes back to do not pile up; close
        waiting tables nobody is at any more."""
        for table in list(self.tables.values()):
            patience = after if table.status is TableStatus.PLAYING else min(after, WAITING_IDLE)
            if table.idle_for() <= patience:
                continue
            if table.status is TableStatus.PLAYING and table.control.timed:
                continue  # its clocks see to absent players (correspondence: for days)
            if table.status is TableStatus.PLAYING:
                log.info("game %s: no player for %.0f s", table.id, table.idle_for())
                await self._abandon(table)
            elif table.status is TableStatus.WAITING:
                for seat in table.humans:
                    if seat.identity is not None:
                        await self._stand(table, seat.identity)
