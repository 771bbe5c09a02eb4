"""What a table shows: the view a session at a seat (or watching) is sent, the lobby's
summary of the table, and, once its game is over, the rematch offered. One part of
`server.host.table.Table`, over its other parts; it only reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from shared.protocol import RematchOffer, TableStatus, TableSummary, TableUpdate, encode

from .archive import Archive
from .clocks import Clocks
from .seat import Game
from .seating import Seating
from .votes import Votes

if TYPE_CHECKING:
    from .table import Table


class Showing:
    """A table's views and summary; `rematch` gives the table offered as its rematch."""

    def __init__(
        self,
        seating: Seating,
        game: Game,
        clocks: Clocks,
        votes: Votes,
        archive: Archive,
        rematch: Callable[[], Table | None],
    ) -> None:
        self._seating, self._game, self._clocks = seating, game, clocks
        self._votes, self._archive, self._rematch = votes, archive, rematch

    def summary(self) -> TableSummary:
        """The table as the lobby list shows it."""
        seating = self._seating
        seats, host, status = seating.seat_summaries(), seating.host, seating.status
        target = seating.game_settings.target  # R15's, when it is not 15 (the lobby says)
        rematch = seating.settings.rematch_of is not None
        return TableSummary(
            seating.id, host, status, seats, self._game.turn, seating.rated, seating.control,
            target, rematch,
        )  # fmt: skip

    def rematch_offer(self) -> RematchOffer | None:
        """Once over: the rematch offered, as a view shows it."""
        rematch = self._rematch()
        if rematch is None or rematch.status is TableStatus.FINISHED:
            return None
        return RematchOffer(rematch.id, rematch.seating.seat_summaries())

    def message(self, seat: int | None, with_log: bool) -> bytes:
        """What a session at `seat` (None: watching) is sent: the seat's view, and the
        turns so far `with_log`."""
        state = self._game.state
        assert state is not None
        log = tuple(self._game.log) if with_log else None
        seats = self._seating.seat_summaries()
        seed = state.seed if state.is_over else None  # never before: it deals the decks
        view = state.view(seat)
        offer = self.rematch_offer() if state.is_over else None
        clock, absent = self._clocks.view(), self._votes.absences()
        ratings = self._archive.ratings
        update = TableUpdate(
            self._seating.id, seats, seat, view, log, ratings, seed, clock, absent, offer
        )
        return encode(update)
