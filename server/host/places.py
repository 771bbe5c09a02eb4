"""Where every session of this process is: the lobby, or a table (in a seat or watching).

The host owns this, not the transport: `Places.move` is the one place that changes a
session's place, and it tells the session's app where it now is (`shared.protocol.Where`),
before the table's first view, so the app shows the screen the host thinks it is on. A
table's status changing (a waiting table starting, a game ending) can change the screen
without a move: `Places.sync` tells each of its sessions again. The transitions between
places, key by key, are the table in docs/design.md ("Where a player is").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from shared import protocol
from shared.protocol import TableStatus, Where

from .link import HostLink
from .table import Table


@dataclass(frozen=True)
class Place:
    """A session's place: the lobby (no table), a seat at a table, or watching one."""

    table: Table | None = None
    seat: int | None = None

    @property
    def where(self) -> Where:
        """What the session's app is told: a waiting table shows on the lobby screen."""
        table = self.table
        if table is None:
            return Where()
        screen = "lobby" if table.status is TableStatus.WAITING else "table"
        return Where(screen, table.id, self.seat)


LOBBY = Place()


class Places:
    """Every session of this process and its place; `present` tells the other processes
    (through the store) where a session is whenever that changes."""

    def __init__(self, present: Callable[[HostLink, Place], None]) -> None:
        self._at: dict[HostLink, Place] = {}
        self._told: dict[HostLink, Where] = {}
        self._online: Counter[str] = Counter()  # names of this process's sessions
        self._present = present

    def __iter__(self) -> Iterator[HostLink]:
        return iter(list(self._at))

    def __contains__(self, link: object) -> bool:
        return link in self._at

    def __len__(self) -> int:
        return len(self._at)

    @property
    def names(self) -> frozenset[str]:
        """The players with a session here."""
        return frozenset(self._online)

    def of(self, link: HostLink) -> Place:
        return self._at.get(link, LOBBY)

    def at(self, table: Table) -> list[HostLink]:
        """The sessions of this process at `table`, seated or watching."""
        return [link for link, place in self._at.items() if place.table is table]

    def seated(self, table: Table, seat: int) -> list[HostLink]:
        """The sessions of this process at `table`'s `seat`."""
        return [link for link, p in self._at.items() if p.table is table and p.seat == seat]

    # -- arriving and leaving -------------------------------------------------------

    def arrive(self, link: HostLink) -> None:
        """A new session, in the lobby until it is moved."""
        self._at[link] = LOBBY
        self._online[link.identity.name] += 1

    def depart(self, link: HostLink) -> Place:
        """The session dropped: it is nowhere now; its place before is returned."""
        if link not in self._at:
            return LOBBY
        place = self._at.pop(link)
        self._told.pop(link, None)
        name = link.identity.name
        self._online[name] -= 1
        if self._online[name] <= 0:
            del self._online[name]
        if place.table is not None:
            place.table.detach(link)
        return place

    # -- moving -----------------------------------------------------------------------

    def move(self, link: HostLink, table: Table | None = None, seat: int | None = None) -> Place:
        """Put `link` at `table` (in `seat`, or watching) or, with no table, in the lobby:
        it leaves its old table, is told where it is, then gets the new table's view.
        Gives back the place it had."""
        old = self._at.get(link, LOBBY)
        if link not in self._at:
            return old  # a session that has gone stays gone
        new = Place(table, seat)
        if new == old:
            self.tell(link)
            return old
        if old.table is not None:
            old.table.detach(link)
        self._at[link] = new
        self.tell(link)  # before the table's first view: the app knows what it is for
        if table is not None:
            table.attach(link, seat)
        if not link.closed:
            self._present(link, new)
        return old

    def tell(self, link: HostLink) -> None:
        """Tell the session where it is, if that is news to it."""
        where = self.of(link).where
        if self._told.get(link) != where:
            self._told[link] = where
            link.deliver(protocol.encode(where))

    def sync(self, table: Table) -> None:
        """`table`'s status changed: its sessions are told their screen, if it changed."""
        for link in self.at(table):
            self.tell(link)
