"""Practice at a table: taking moves back and hints, for offline play against bots.

The lobby offers them only where the host allows it (`HostSettings(undo=True, hints=True)`,
which only `server.commands.play.offline_host` sets): on a server, a move anyone has seen
stays, and nobody gets a bot's advice.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shared.deal import new_game, replay, turns
from shared.moves import Move, parse_move
from shared.protocol import LoggedTurn, TableStatus

from .bots import bot_seed
from .seat import Peer, Seat, TableError

if TYPE_CHECKING:
    from shared.state import GameState

    from ..store import Store
    from .bots import BotPool

HINT_LEVEL = "medium"  # the bot whose move a hint shows


class Practice:
    """Undo and hints, for `server.host.table.Table` (which provides the attributes below)."""

    id: str
    seats: list[Seat]
    status: TableStatus
    state: GameState | None
    moves: list[str]
    log: deque[LoggedTurn]
    _lock: asyncio.Lock
    _store: Store
    _bots: BotPool
    _changed: Callable[[Any, bool], None]

    def _cancel_bots(self) -> None: ...
    def kick_bots(self) -> None: ...
    def send_views(self, newcomer: Peer | None = None, with_log: bool = False) -> None: ...

    async def undo(self, seat: int) -> None:
        """Take back `seat`'s last move and every move after it (the bots'): the game is
        back at that player's previous decision, in memory and in the store. Only at a
        table where every other seat is a bot."""
        async with self._lock:  # a move being stored finishes first; none starts meanwhile
            self._cancel_bots()  # a bot thinking or waiting for the lock: its move is dropped
            state = self.state
            if self.status is not TableStatus.PLAYING or state is None:
                raise TableError("there is no game in progress to take a move back in")
            if any(s.bot is None for i, s in enumerate(self.seats) if i != seat):
                raise TableError("moves are taken back only in a game against bots")
            back = _last_move_of(state, self.moves, seat)
            if back is None:
                raise TableError("you have not moved yet: there is nothing to take back")
            moves = self.moves[:back]
            await self._store.take_back(self.id, back)
            self.moves = moves
            self.state = replay(state.num_players, state.seed, moves)
            played = turns(state.num_players, state.seed, moves)
            self.log = deque((LoggedTurn(s, t) for s, t in played), maxlen=self.log.maxlen)
        self.send_views(with_log=True)  # the move log lost turns: everyone gets it whole
        self._changed(self, True)
        self.kick_bots()

    async def hint(self, seat: int) -> tuple[Move, str]:
        """What the medium bot would play in `seat`'s place now, and why (worked out in
        the bot pool, from that seat's view only)."""
        state = self.state
        if self.status is not TableStatus.PLAYING or state is None:
            raise TableError("there is no game in progress")
        if state.current_player != seat:
            raise TableError("a hint is for your own turn")
        seed = bot_seed(state.seed, len(self.moves))
        return await self._bots.explain(state.view(seat), HINT_LEVEL, seed)


def _last_move_of(state: GameState, moves: list[str], seat: int) -> int | None:
    """The index in `moves` of the last move `seat` made (None if it made none)."""
    replayed, last = new_game(state.num_players, state.seed), None
    for i, text in enumerate(moves):
        if replayed.current_player == seat:
            last = i
        replayed = replayed.apply(parse_move(text))
    return last
