"""Absent players in games without a clock: once a player has been away longer than the
table's patience (a setting chosen with the table), the others may vote to hand the seat
to a bot for the rest of the game; when every player present has voted, a bot of
`server.host.clocks.TIMEOUT_LEVEL` stands in, and the absent player ranks last for ratings.
Votes are stored with the seat (every process sees them); a player who comes back
before the vote is through clears them. When they come back after it, they are told
what happened (`server.host.clocks.Clocks.greet`). `Votes` is one part of
`server.host.table.Table`, over its `Seating` and `Game`.
"""

from __future__ import annotations

from dataclasses import replace

from shared import said
from shared.i18n import L_
from shared.protocol import Absent, TableStatus

from ..store import SeatRecord
from .clocks import TIMEOUT_LEVEL
from .seat import Game, TableError
from .seating import Seating


class Votes:
    """The vote on absent players: who is away and for how long (`Seating.away_since`), the
    votes stored with their seats, and the bot that stands in once all have voted."""

    def __init__(self, seating: Seating, game: Game) -> None:
        self._seating, self._game = seating, game

    def _votable(self) -> bool:
        state = self._game.state
        playing = (
            self._seating.status is TableStatus.PLAYING and state is not None and not state.is_over
        )
        return playing and not self._seating.control.timed

    def absences(self) -> tuple[Absent, ...]:
        """The players away from a game without a clock, for a view: for how long, and who
        has voted so far (the client offers the vote once the patience is over)."""
        if not self._votable():
            return ()
        seating = self._seating
        now, patience = seating.now(), seating.settings.patience
        return tuple(
            Absent(i, round(max(0.0, now - since), 1), patience, seating.seats[i].stored.votes)
            for i, since in sorted(seating.away_since.items())
            if seating.seats[i].player
        )

    async def vote(self, voter: int, target: int) -> None:
        """The player at seat `voter` votes to hand seat `target` to a bot. When every
        player present has voted, a bot stands in (the table then sets the bots going)."""
        seating = self._seating
        async with seating.lock:
            if not self._votable():
                raise TableError(L_("a vote on an absent player is for games without a clock"))
            seats = seating.seats
            if not 0 <= target < len(seats) or target == voter:
                raise TableError(L_("vote for another player's seat"))
            s, me = seats[target], seats[voter]
            if not s.player or me.identity is None:
                raise TableError(L_("seat {seat} is not a player's", seat=target + 1))
            if s.connected:
                raise TableError(L_("{name} is here", name=s.identity.name))  # type: ignore[union-attr]
            away = seating.now() - seating.away_since.setdefault(target, seating.now())
            patience = seating.settings.patience
            if away < patience:
                wait = max(1, round((patience - away) / 60))
                raise TableError(
                    L_("the table waits {wait} more min before a vote (its patience)", wait=wait)
                )
            name, turn = me.identity.name, self._game.state.turn  # type: ignore[union-attr]
            minutes = max(1, round(away / 60))

            def edit() -> tuple[list[SeatRecord], str]:
                records = seating.records()
                r = records[target]
                votes = tuple(sorted({*r.votes, name}, key=str.casefold))
                present = {
                    x.identity.name
                    for i, x in enumerate(seats)
                    if i != target and x.player and x.connected and x.identity is not None
                }
                if present <= set(votes):
                    why = said.stored(
                        L_(
                            "{names} voted to hand your seat to a bot at turn {turn}, after you "
                            "had been away {minutes} min",
                            names=" and ".join(votes),
                            turn=turn,
                            minutes=minutes,
                        )
                    )
                    records[target] = replace(r, votes=votes, standin=TIMEOUT_LEVEL, why=why)
                else:
                    records[target] = replace(r, votes=votes)
                return records, seating.host

            await seating.edit(edit)

    async def stand_in(self, seat: int, why: str) -> bool:
        """A bot stands in for the player at `seat` for the rest of the game, without a
        vote (a tournament's player who did not come within the table's patience: they
        rank last). False if the game is over, or a bot already plays the seat."""
        seating = self._seating
        async with seating.lock:
            s = seating.seats[seat]
            if not self._votable() or not s.player or s.standin is not None:
                return False

            def edit() -> tuple[list[SeatRecord], str]:
                records = seating.records()
                records[seat] = replace(records[seat], standin=TIMEOUT_LEVEL, why=why)
                return records, seating.host

            await seating.edit(edit)
            return True

    async def clear(self, seat: int) -> None:
        """The player at `seat` is back before the vote went through: it starts over."""
        seating = self._seating
        async with seating.lock:
            s = seating.seats[seat]
            if not s.stored.votes or s.standin is not None:
                return

            def edit() -> tuple[list[SeatRecord], str]:
                records = seating.records()
                records[seat] = replace(records[seat], votes=())
                return records, seating.host

            await seating.edit(edit)
