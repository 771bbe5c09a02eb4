"""What a table's game leaves in the store besides its moves: a snapshot of its state every
`SNAPSHOT_EVERY` moves (a cache: a game loads from its latest snapshot and the moves after
it), and how it ended, finished with its scores or abandoned, with the ratings of a rated
game (`server.store.ratings`) and the new ratings for the final views. One part of
`server.host.table.Table`, over its `Seating`.

A player a bot stood in for (`server.host.clocks`, `server.host.votes`) ranks last, and so
does a player who left an abandoned game; an abandoned game is rated only once everyone
has played a turn of their own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from shared.codec import dumps
from shared.protocol import RatingChange
from shared.state import GameState

from ..store import ABANDONED, FINISHED, Store
from ..store.ratings import Rated, participants
from .seating import Seating

log = logging.getLogger("splendor")

SNAPSHOT_EVERY = 20  # moves between snapshots of a game's state (a cache for loading)


class Archive:
    """One table's snapshots and results in the store; `replaced` names the seats a bot
    stands in for (they rank last)."""

    def __init__(
        self, seating: Seating, store: Store, replaced: Callable[[], tuple[int, ...]]
    ) -> None:
        self._seating, self._store, self._replaced = seating, store, replaced
        self.ratings: tuple[RatingChange | None, ...] = ()  # once a rated game is over
        self._writes: set[asyncio.Future[None]] = set()  # snapshots being saved

    def moved(self, moves: int, state: GameState) -> None:
        """The game is at `state` after `moves` moves: every `SNAPSHOT_EVERY`, a snapshot
        is saved (while play goes on)."""
        if moves % SNAPSHOT_EVERY == 0:
            task = asyncio.ensure_future(self._snapshot(moves, dumps(state)))
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)

    async def _snapshot(self, seq: int, data: bytes) -> None:
        try:
            await self._store.save_snapshot(self._seating.id, seq, data)
        except Exception:
            log.warning("game %s: snapshot at %d not saved", self._seating.id, seq, exc_info=True)

    async def saved(self) -> None:
        """Wait for the snapshots being saved."""
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    async def finished(self, final: GameState) -> None:
        """Mark the game finished in the store, and a rated game's ratings with it. The move
        log already says it is over, so a failure here is only logged (the next load finds
        the game over and marks it)."""
        seating = self._seating
        outcome = final.outcome()
        assert outcome is not None
        result = {"scores": list(outcome.scores), "ranks": list(outcome.ranks)}
        replaced = dict.fromkeys(self._replaced(), 0.0)  # they tie, after everyone
        rated = self._rated(list(outcome.ranks), replaced) if seating.rated else []
        try:
            if await self._store.finish_game(seating.id, FINISHED, result, rated):
                seating.version += 1
            await self._load_ratings(rated)
        except Exception:
            log.exception("game %s: could not mark the game finished", seating.id)

    async def abandoned(self, state: GameState | None) -> bool:
        """Store the game at `state` as abandoned (every human left it), rated once everyone
        has played a turn of their own, those who left ranking last. False if another process
        ended it first (then nothing changed here). Under the lock."""
        seating = self._seating
        rated: list[Rated] = []
        s = state
        if seating.rated and s is not None and self._everyone_played(s):
            ranks = list(s.standing().ranks)
            left = {i: seat.left for i, seat in enumerate(seating.seats) if seat.identity}
            rated = self._rated(ranks, left)
        stored = self._store.finish_game(seating.id, ABANDONED, None, rated)
        if not await seating.call(stored):
            return False
        seating.version += 1
        return True

    def _everyone_played(self, state: GameState) -> bool:
        """Every seat has played a turn itself: the first round is over, and no player's
        turn in it ran out of time (a bot played it for them)."""
        first_round = state.num_players
        return state.turn > first_round and not any(
            s.identity is not None and s.stored.timeouts and s.stored.late <= first_round
            for s in self._seating.seats
        )

    def _rated(self, ranks: list[int], left: dict[int, float] | None = None) -> list[Rated]:
        seats = [
            (None if s.identity is None else s.identity.name.lower(),
             s.identity is not None and s.identity.guest, s.bot)
            for s in self._seating.seats
        ]  # fmt: skip
        return participants(seats, ranks, left or {})

    async def _load_ratings(self, rated: list[Rated]) -> None:
        """The rated seats' new ratings, for the final views: None for a guest, and for
        the other seats of a bot level, which was rated once, at its best seat."""
        if not rated:
            return
        changes = await self._store.rating_changes(self._seating.id)
        seats = {r.seat: r.player for r in rated}
        self.ratings = tuple(
            RatingChange(*changes[seats[i]]) if seats.get(i) in changes else None
            for i in range(len(self._seating.seats))
        )
