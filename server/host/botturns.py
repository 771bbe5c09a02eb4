"""A table's bot turns: when a bot is to decide (a bot's seat, or a bot playing for a player,
`server.host.clocks.Clocks.covering`), its seat view goes to the bot pool
(`server.host.bots.BotPool`) and its move is played like anyone's. One part of
`server.host.table.Table`, over its `Seating` and `Game`.

One process at a time plays a game's bots: the one holding the game's lock
(`server.host.clocks.GameLock`). The loop runs while a human is at the table (on any
process); a timed game's bots play whoever is there, since its clocks run anyway, and a
table of bots alone (a tournament's) plays by itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from shared.moves import Move
from shared.protocol import TableStatus

from .bots import BotPool, bot_seed
from .clocks import GameLock
from .seat import Game, TableError
from .seating import Seating

log = logging.getLogger("splendor")


class BotTurns:
    """The bot loop of one table: `kick` starts it when a bot is to move, `cancel` drops
    the move it is making, `stop` ends it for good (the host is shutting down). `covering`
    names the bot level playing for a player now, `play` plays a bot's move."""

    def __init__(
        self,
        seating: Seating,
        game: Game,
        lock: GameLock,
        pool: BotPool,
        covering: Callable[[], str | None],
        play: Callable[[int, Move], Awaitable[None]],
        pause: float,
    ) -> None:
        self._seating, self._game, self._lock, self._pool = seating, game, lock, pool
        self._covering, self._play, self._pause = covering, play, pause
        self._task: asyncio.Task[None] | None = None
        self._stopped = False  # the host is shutting down: no more bot turns

    def to_move(self) -> str | None:
        """The level of the bot whose decision it is: a bot's seat, or a bot playing for a
        player."""
        state = self._game.state
        if self._seating.status is not TableStatus.PLAYING or state is None:
            return None
        return self._seating.seats[state.current_player].bot or self._covering()

    def kick(self) -> None:
        """Start the bot loop if it is a bot's decision, a human is at the table (on any
        process; a timed game's bots play whoever is there, its clocks run anyway; a table of
        bots alone, or of bots standing in for every player, plays by itself) and the loop
        is not running."""
        if self._stopped or self.to_move() is None:
            return
        seating = self._seating
        alone = not any(s.player for s in seating.humans)  # bots, or bots standing in
        if not (seating.human_connected or seating.control.timed or alone):
            return  # a table of bots alone (a tournament's) plays on
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def stop(self) -> None:
        """No more bot moves at this table."""
        self._stopped = True
        self.cancel()

    async def _run(self) -> None:
        """While a bot is to move: if this process runs this game's bots (one process at
        a time does), think in the pool, let humans see the last move for at least the bot
        pause, then play like anyone else."""
        loop = asyncio.get_running_loop()
        seating, game_id = self._seating, self._seating.id
        try:
            held = self._lock.held
            if not await self._lock.take():
                return  # another process runs them
            if not held and self._lock.shared:
                log.info("game %s: its bots play from this process", game_id)
            while (level := self.to_move()) is not None:
                state = self._game.state
                assert state is not None
                seat, begun = state.current_player, loop.time()
                move = await self._pool.choose(
                    state.view(seat), level, bot_seed(state.seed, len(self._game.moves))
                )
                late = seating.seats[seat].stored.late == state.turn  # a time-out: at once
                pause = 0.0 if late else self._pause
                await asyncio.sleep(max(0.0, pause - (loop.time() - begun)))
                if self._game.state is not state:
                    continue
                try:
                    await self._play(seat, move)
                except TableError as e:
                    log.info("game %s: bot move `%s` not played: %s", game_id, move, e)
                    await asyncio.sleep(1.0)  # the store is busy, or another move came first
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the bot loop stopped; it restarts on the next attach", game_id)
        finally:
            if seating.status is not TableStatus.PLAYING:
                await self._lock.release()
