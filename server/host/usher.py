"""Taking sessions where they go: to a table (seated or watching), back to the lobby (at
the waiting table their player sits at, if any), and out of a waiting table's seat. A part
of `server.host.lobby.Lobby`, which its other parts (rematches, a game in play, the
tournaments) are given `place` and `stand` of; every move goes through `Places.move`
(docs/design.md, "Where a player is")."""

from __future__ import annotations

from collections.abc import Callable

from shared.protocol import TableStatus

from .chat import ChatDesk
from .identity import Identity
from .link import HostLink
from .listing import Listings
from .places import Place, Places
from .table import Table, TableError
from .tasks import Tasks


class Usher:
    """Moves sessions between the lobby and the lobby's `tables`; `forget` drops a finished
    table nobody shows any more, `refresh` redraws the lobby list."""

    def __init__(
        self,
        places: Places,
        tables: dict[str, Table],
        listings: Listings,
        chat: ChatDesk,
        tasks: Tasks,
        forget: Callable[[str], None],
        refresh: Callable[[], None],
    ) -> None:
        self.places = places
        self.tables = tables
        self.listings = listings
        self.chat = chat
        self._tasks = tasks
        self._forget = forget
        self._refresh = refresh

    def place(self, link: HostLink, table: Table, seat: int | None) -> None:
        """`link` to `table` (in `seat`, or watching), through `Places.move`."""
        old = self.places.move(link, table, seat)
        if old.table is not None and old.table is not table:
            self.after_leaving(link, old)
        if table.status is not TableStatus.WAITING:
            self._tasks.spawn(self.chat.arrive(link, table))
        if seat is not None and table.seats[seat].stored.votes and table.seats[seat].connected:
            self._tasks.spawn(table.clear_votes(seat))  # back before the vote went through

    def to_lobby(self, link: HostLink) -> None:
        """`link` to the lobby screen, with the lobby list: at the waiting table its player
        sits at, if any (a waiting table shows in the lobby), else in the lobby."""
        waiting = [
            t
            for t in self.tables.values()
            if t.status is TableStatus.WAITING
            and (seat := t.seat_of(link.identity)) is not None
            and not t.seats[seat].stored.invited
        ]
        self.send_lobby(link)  # first: the lobby screen `Where` opens shows it at once
        if waiting:
            self.place(link, waiting[-1], waiting[-1].seat_of(link.identity))
        else:
            old = self.places.move(link)
            self.after_leaving(link, old)

    def send_lobby(self, link: HostLink) -> None:
        """The lobby list to `link`, arriving in the lobby, with the lobby's chat."""
        self.listings.send(link)
        self.chat.to_lobby_session(link)

    def after_leaving(self, link: HostLink, old: Place) -> None:
        """`link` no longer shows `old`'s table. A seat at a waiting table is given up when
        the last session of its player there goes (a game's seat is held)."""
        table, seat = old.table, old.seat
        if table is None:
            return
        if seat is not None and table.status is TableStatus.WAITING:
            if not table.seats[seat].connected:
                self._tasks.spawn(self.stand(table, link.identity))
        self.forget_if_done(table)

    def forget_if_done(self, table: Table) -> None:
        """A finished table nobody here shows any more is dropped from the lobby's."""
        if table.status is TableStatus.FINISHED and not table.peers:
            self._forget(table.id)

    async def stand(self, table: Table, identity: Identity) -> None:
        """A player leaves a waiting table; the last one out closes it. Their sessions at
        it go to the lobby. Its host leaving calls off the invitations not yet accepted."""
        seat = table.seat_of(identity)
        if seat is None:
            return
        peers = self.places.seated(table, seat)
        try:
            await table.stand(identity)  # the host's: their invitations called off too
        except TableError:  # the game is starting as they leave: their seat is held
            return
        for peer in peers:
            self.places.move(peer)
            self.send_lobby(peer)
        self.forget_if_done(table)
        self._refresh()
