"""Absent players in games without a clock: once a player has been away longer than the
table's patience (a setting chosen with the table), the others may vote to hand the seat
to a bot for the rest of the game; when every player present has voted, a bot of
`server.host.clocks.TIMEOUT_LEVEL` stands in, and the absent player ranks last for ratings.
Votes are stored with the seat (every process sees them); a player who comes back
before the vote is through clears them. When they come back after it, they are told
what happened (`server.host.clocks.Clocked.greet`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from shared.protocol import Absent, TableStatus

from ..store import SeatRecord, Settings
from .clocks import TIMEOUT_LEVEL, TableParts
from .seat import TableError


class Votes(TableParts):
    """The vote on absent players, for `server.host.table.Table` (which provides `TableParts`,
    and `Clocked.nobody_plays`)."""

    settings: Settings
    away_since: dict[int, float]

    if TYPE_CHECKING:

        @property
        def nobody_plays(self) -> bool: ...

    def _votable(self) -> bool:
        state = self.state
        playing = self.status is TableStatus.PLAYING and state is not None and not state.is_over
        return playing and not self.control.timed

    def absences(self) -> tuple[Absent, ...]:
        """The players away from a game without a clock, for a view: for how long, and who
        has voted so far (the client offers the vote once the patience is over)."""
        if not self._votable():
            return ()
        now, patience = self.now(), self.settings.patience
        return tuple(
            Absent(i, round(max(0.0, now - since), 1), patience, self.seats[i].stored.votes)
            for i, since in sorted(self.away_since.items())
            if self.seats[i].player
        )

    async def vote(self, voter: int, target: int) -> bool:
        """The player at seat `voter` votes to hand seat `target` to a bot. When every
        player present has voted, a bot stands in. True if no human plays any more."""
        async with self._lock:
            if not self._votable():
                raise TableError("a vote on an absent player is for games without a clock")
            if not 0 <= target < len(self.seats) or target == voter:
                raise TableError("vote for another player's seat")
            s, me = self.seats[target], self.seats[voter]
            if not s.player or me.identity is None:
                raise TableError(f"seat {target + 1} is not a player's")
            if s.connected:
                raise TableError(f"{s.identity.name} is here")  # type: ignore[union-attr]
            away = self.now() - self.away_since.setdefault(target, self.now())
            patience = self.settings.patience
            if away < patience:
                wait = max(1, round((patience - away) / 60))
                raise TableError(f"the table waits {wait} more min before a vote (its patience)")
            name, turn = me.identity.name, self.state.turn  # type: ignore[union-attr]
            minutes = max(1, round(away / 60))

            def edit() -> tuple[list[SeatRecord], str]:
                records = self.records()
                r = records[target]
                votes = tuple(sorted({*r.votes, name}, key=str.casefold))
                present = {
                    x.identity.name
                    for i, x in enumerate(self.seats)
                    if i != target and x.player and x.connected and x.identity is not None
                }
                if present <= set(votes):
                    why = (
                        f"{' and '.join(votes)} voted to hand your seat to a bot at turn "
                        f"{turn}, after you had been away {minutes} min"
                    )
                    records[target] = replace(r, votes=votes, standin=TIMEOUT_LEVEL, why=why)
                else:
                    records[target] = replace(r, votes=votes)
                return records, self.host

            await self._edit(edit)
        self.kick_bots()
        return self.nobody_plays

    async def clear_votes(self, seat: int) -> None:
        """The player at `seat` is back before the vote went through: it starts over."""
        async with self._lock:
            if not self.seats[seat].stored.votes or self.seats[seat].standin is not None:
                return

            def edit() -> tuple[list[SeatRecord], str]:
                records = self.records()
                records[seat] = replace(records[seat], votes=())
                return records, self.host

            await self._edit(edit)
