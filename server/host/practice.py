"""Practice at a table: taking moves back and hints, for offline play against bots.

The lobby offers them only where the host allows it (`HostSettings(undo=True, hints=True)`,
which only `server.commands.play.offline_host` sets): on a server, a move anyone has seen
stays, and nobody gets a bot's advice. `Practice` is one part of `server.host.table.Table`,
over its `Seating` and `Game`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from shared.deal import new_game, replay, turns
from shared.i18n import L_, Text
from shared.moves import Move, parse_move
from shared.protocol import LoggedTurn, TableStatus

from .bots import BotPool, bot_seed
from .seat import Game, TableError
from .seating import Seating

if TYPE_CHECKING:
    from shared.state import GameState

    from ..store import Store

HINT_LEVEL = "medium"  # the bot whose move a hint shows


class Practice:
    """Undo and hints at a table; `stop_bots` drops a bot's move in the making."""

    def __init__(
        self,
        seating: Seating,
        game: Game,
        store: Store,
        pool: BotPool,
        stop_bots: Callable[[], None],
    ) -> None:
        self._seating, self._game, self._store = seating, game, store
        self._pool, self._stop_bots = pool, stop_bots

    async def undo(self, seat: int) -> None:
        """Take back `seat`'s last move and every move after it (the bots'): the game is
        back at that player's previous decision, in memory and in the store. Only at a
        table where every other seat is a bot. The table then shows everyone the game."""
        seating, game = self._seating, self._game
        async with seating.lock:  # a move being stored finishes first; none starts meanwhile
            self._stop_bots()  # a bot thinking or waiting for the lock: its move is dropped
            state = game.state
            if seating.status is not TableStatus.PLAYING or state is None:
                raise TableError(L_("there is no game in progress to take a move back in"))
            if any(s.bot is None for i, s in enumerate(seating.seats) if i != seat):
                raise TableError(L_("moves are taken back only in a game against bots"))
            back = _last_move_of(state, game.moves, seat)
            if back is None:
                raise TableError(L_("you have not moved yet: there is nothing to take back"))
            moves = game.moves[:back]
            await self._store.take_back(seating.id, back)
            game.moves = moves
            game.state = replay(state.settings, state.seed, moves)
            played = turns(state.settings, state.seed, moves)
            game.log = deque((LoggedTurn(s, t) for s, t in played), maxlen=game.log.maxlen)

    async def hint(self, seat: int) -> tuple[Move, str | Text]:
        """What the medium bot would play in `seat`'s place now, and why (worked out in
        the bot pool, from that seat's view only)."""
        state = self._game.state
        if self._seating.status is not TableStatus.PLAYING or state is None:
            raise TableError(L_("there is no game in progress"))
        if state.current_player != seat:
            raise TableError(L_("a hint is for your own turn"))
        seed = bot_seed(state.seed, len(self._game.moves))
        return await self._pool.explain(state.view(seat), HINT_LEVEL, seed)


def _last_move_of(state: GameState, moves: list[str], seat: int) -> int | None:
    """The index in `moves` of the last move `seat` made (None if it made none)."""
    replayed, last = new_game(state.settings, state.seed), None
    for i, text in enumerate(moves):
        if replayed.current_player == seat:
            last = i
        replayed = replayed.apply(parse_move(text))
    return last
