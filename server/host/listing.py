"""The lobby list: every open table and who is online, pushed to every session on the
lobby screen (in the lobby, or at a waiting table) after each change, coalesced, a batch
of sessions at a time, so that with hundreds in the lobby players' keys get the event
loop in between. A part of `server.host.lobby.Lobby`."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from shared import protocol
from shared.protocol import LobbyList, TableStatus, TableSummary

from .link import HostLink
from .places import Places
from .table import Table

Listing = tuple[tuple[TableSummary, ...], tuple[str, ...]]
Mine = tuple[tuple[str, ...], tuple[str, ...]]  # a player's tables, and those awaiting a move

LOBBY_BATCH = 8  # sessions sent the lobby at once...
LOBBY_BATCH_GAP = 0.02  # ...then the next batch this many seconds later


def _away_only_if_offline(table: TableSummary, online: frozenset[str]) -> TableSummary:
    """A seat whose player is online (in the lobby, or at another table) is not shown
    away in the lobby list: "(away)" there means the player has no session at all."""
    if all(s.connected or s.name not in online for s in table.seats):
        return table
    seats = tuple(
        replace(s, connected=True) if s.name in online and not s.connected else s
        for s in table.seats
    )
    return replace(table, seats=seats)


class Listings:
    """The lobby list of `tables` and who is online, pushed to the sessions of `places`
    that show the lobby screen."""

    def __init__(self, tables: dict[str, Table], places: Places, lobby_tick: float) -> None:
        self.tables = tables
        self.places = places
        self.remote_online: frozenset[str] = frozenset()  # other processes' (`server.host.cluster`)
        self.lobby_tick = lobby_tick  # seconds a minor change may wait to be pushed
        self._push_pending = False
        self._tick: asyncio.TimerHandle | None = None
        self._rest: asyncio.Handle | None = None  # a push still under way, batch by batch
        self._unreached: list[HostLink] = []  # ...and the sessions it has yet to reach

    @property
    def online(self) -> tuple[str, ...]:
        """Who is online on any process, in name order."""
        return tuple(sorted(self.places.names | self.remote_online, key=str.casefold))

    # -- the lobby list ----------------------------------------------------

    def refresh(self, minor: bool = False) -> None:
        """Push the lobby to every session in it, once, at the end of this loop turn; a
        `minor` change (a game's turn, who is online) waits up to `lobby_tick` seconds, so
        that busy games and arrivals do not redraw every lobby screen each time."""
        loop = asyncio.get_running_loop()
        if minor:
            if not self._push_pending and self._tick is None:
                self._tick = loop.call_later(self.lobby_tick, self.refresh)
        elif not self._push_pending:
            self._push_pending = True
            loop.call_soon(self._push)

    def _push(self) -> None:
        self._push_pending = False
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        waiting: list[HostLink] = []  # those the last push had not reached yet go first
        if self._rest is not None:
            self._rest.cancel()
            self._rest = None
            waiting = [link for link in self._unreached if link in self.places]
        first = set(waiting)
        links = waiting + [link for link in self.places if link not in first]
        listing = self._listing()
        encoded: dict[Mine, bytes] = {}  # most sessions share mine == ()
        self._push_batch(links, listing, encoded)

    def _push_batch(
        self, links: list[HostLink], listing: Listing, encoded: dict[Mine, bytes]
    ) -> None:
        """The lobby to `LOBBY_BATCH` sessions now and the rest in later batches: every
        session redraws its lobby when it gets one, and with hundreds in the lobby,
        players' keys must get their turn in between (200 sessions: half a second)."""
        rest = self._unreached = links[LOBBY_BATCH:]
        loop = asyncio.get_running_loop()
        self._rest = (  # scheduled first: nothing below can stop the later batches
            loop.call_later(LOBBY_BATCH_GAP, self._push_batch, rest, listing, encoded)
            if rest
            else None
        )
        for link in links[:LOBBY_BATCH]:
            if link in self.places and self.places.of(link).where.screen == "lobby":
                self.send(link, listing, encoded)

    def stop(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if self._rest is not None:
            self._rest.cancel()
            self._rest = None

    def _listing(self) -> Listing:
        online = self.online
        here = frozenset(online)
        tables = tuple(
            _away_only_if_offline(t.summary(), here)
            for t in self.tables.values()
            if t.status is not TableStatus.FINISHED
        )
        return tables, online

    def send(
        self,
        link: HostLink,
        listing: Listing | None = None,
        encoded: dict[Mine, bytes] | None = None,
    ) -> None:
        """The lobby list to `link`, with the tables where its player holds a seat."""
        tables, online = listing or self._listing()
        mine = tuple(
            t.id
            for t in self.tables.values()
            if t.status is not TableStatus.FINISHED and t.seat_of(link.identity) is not None
        )
        to_move = tuple(i for i in mine if self.tables[i].awaits(link.identity))
        data = None if encoded is None else encoded.get((mine, to_move))
        if data is None:
            data = protocol.encode(LobbyList(tables, online, mine, to_move))
            if encoded is not None:
                encoded[(mine, to_move)] = data
        link.deliver(data)
