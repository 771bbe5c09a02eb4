"""An in-process game host for local play and tests: one table, the human and bots.

It speaks the same protocol as the SSH server (`shared.protocol`): every
crossing between it and the app is bytes. The human sits at seat 0; the other
seats are bots from `shared.bots`. Bots think in a worker thread
(`asyncio.to_thread`) so the app's event loop stays responsive, and each bot
move waits `bot_delay` seconds so a human can follow it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable
from typing import Any

from shared.bots import choose_move
from shared.cards import card
from shared.deal import new_game
from shared.errors import SplendorError
from shared.moves import Buy, Move, Reserve, ReserveDeck, Return, Take, parse_move
from shared.protocol import (
    BOT_LEVELS,
    CLIENT_TYPES,
    CREATE,
    JOIN,
    LEAVE,
    MOVE,
    QUICK,
    START,
    WATCH,
    WELCOME,
    ProtocolError,
    decode,
    encode,
    notice,
    seat_summary,
    table_message,
)
from shared.state import GameState
from shared.view import PlayerView

from .connection import Connection

log = logging.getLogger(__name__)

TABLE_ID = "local"
HUMAN = 0

Chooser = Callable[[PlayerView, str, int], Move]


def fallback_move(view: PlayerView, level: str, seed: int) -> Move:
    """A plain legal-move picker: the stand-in when a bot fails, and a bot-independent
    opponent for tests. Buy the best card, else take gems the table's cards need, else
    reserve; return the tokens held most."""
    rng = random.Random(seed)
    legal = list(view.legal_moves)
    me = view.players[view.current_player]
    returns = [m for m in legal if isinstance(m, Return)]
    if returns:
        return max(returns, key=lambda m: (sum(me.tokens[c] for c in m.tokens), -m.counts[5]))
    buys = [m for m in legal if isinstance(m, Buy)]
    if buys:
        return max(
            buys, key=lambda m: (card(m.card).prestige, -sum(card(m.card).cost), rng.random())
        )
    takes = [m for m in legal if isinstance(m, Take)]
    if takes and me.token_count <= 7:
        wanted = [0] * 5
        for row in view.board:
            for cid in row:
                if cid is not None:
                    for c, n in enumerate(card(cid).cost):
                        wanted[c] += max(0, n - me.bonuses[c] - me.tokens[c])
        return max(
            takes, key=lambda m: (len(m.colours), sum(wanted[c] for c in m.colours), rng.random())
        )
    reserves = [m for m in legal if isinstance(m, Reserve | ReserveDeck)]
    if reserves and len(me.reserved) < 2:
        return rng.choice(reserves)
    if takes:
        return rng.choice(takes)
    return rng.choice(legal)


def bot_move(view: PlayerView, level: str, seed: int) -> Move:
    """A bot's move for `view` (`shared.bots`); runs in a worker thread."""
    return choose_move(view, level, seed)


class LocalConnection(Connection):
    """The app's side of a local game: `send` hands the bytes to the `LocalHost`."""

    def __init__(self, host: LocalHost) -> None:
        super().__init__()
        self._host = host

    def send(self, data: bytes) -> None:
        self._host.receive(data)

    def close(self) -> None:
        self._host.close()


class LocalHost:
    """One local table. `connect()` gives the app its connection and sends "welcome"."""

    def __init__(
        self,
        name: str = "You",
        *,
        bot_delay: float = 0.6,
        chooser: Chooser = bot_move,
    ) -> None:
        self.name = name
        self.bot_delay = bot_delay
        self.chooser = chooser
        self.connection = LocalConnection(self)
        self.state: GameState | None = None
        self.levels: tuple[str | None, ...] = ()
        self.seed: int | None = None
        self.moves: list[str] = []  # the game's moves in notation: seed + moves replays it
        self._bots: asyncio.Task[None] | None = None
        self._closed = False

    def connect(self) -> LocalConnection:
        self.connection.deliver(encode(WELCOME, name=self.name, guest=False))
        return self.connection

    def load(self, state: GameState, levels: tuple[str | None, ...]) -> None:
        """Sit the human at a game already under way (seat 0; `levels` per seat, None for
        the human) and send the table. For tests and resumed games; needs a running loop."""
        if len(levels) != state.num_players or levels[HUMAN] is not None:
            raise ValueError("levels: None for seat 0, a bot level for every other seat")
        self._leave()
        self.levels, self.seed, self.state = levels, state.seed, state
        self._send_table()
        self._kick()

    # -- from the app ------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """One client message (called from the app's event loop)."""
        try:
            msg = decode(data, CLIENT_TYPES)
        except ProtocolError as e:
            self._notice(f"not understood: {e}")
            return
        kind = msg["t"]
        try:
            if kind == CREATE:
                self._create(msg.get("seats"), msg.get("bots"), msg.get("seed"))
            elif kind == QUICK:
                players = msg.get("players", 2)
                level = msg.get("level", "easy")
                self._create(players, (None, *([level] * (int(players) - 1))), msg.get("seed"))
                self._start()
            elif kind == START:
                self._start()
            elif kind == MOVE:
                self._move(msg.get("move"))
            elif kind == LEAVE:
                self._leave()
            elif kind in (JOIN, WATCH):
                self._notice("a local game has one table: there is nothing to join or watch")
        except (TypeError, ValueError) as e:
            self._notice(str(e))

    def close(self) -> None:
        """The app is gone: stop the bots."""
        self._closed = True
        self._leave()

    # -- the table ----------------------------------------------------------------

    def _create(self, seats: Any, bots: Any, seed: Any) -> None:
        if not isinstance(seats, int) or not 2 <= seats <= 4:
            raise ValueError("a table has 2 to 4 seats")
        levels = tuple(bots) if bots is not None else (None,) * seats
        if len(levels) != seats or levels[0] is not None:
            raise ValueError("seat 1 is yours; give a bot level for every other seat")
        if any(level not in BOT_LEVELS for level in levels[1:]):
            raise ValueError(
                f"a local game fills every other seat with a bot: {', '.join(BOT_LEVELS)}"
            )
        if seed is not None and (not isinstance(seed, int) or not 0 <= seed < 1 << 64):
            raise ValueError("a seed is an integer from 0 to 2**64-1")
        self._leave()
        self.levels = levels
        self.seed = seed

    def _start(self) -> None:
        if not self.levels:
            raise ValueError("create a table first")
        seed = self.seed if self.seed is not None else secrets.randbelow(1 << 32)
        self.state = new_game(len(self.levels), seed)
        self.moves = []
        self._send_table()
        self._kick()

    def _move(self, text: Any) -> None:
        state = self.state
        if state is None or state.is_over:
            self._notice("there is no game in progress")
            return
        if state.current_player != HUMAN:
            self._notice("it is not your turn")
            return
        try:
            move = parse_move(text)
            self.state = state.apply(move)
            self.moves.append(str(move))
        except SplendorError as e:
            self._notice(f"illegal move: {e}")
            return
        self._send_table()
        self._kick()

    def _leave(self) -> None:
        if self._bots is not None:
            self._bots.cancel()
            self._bots = None
        self.state = None

    def _seats(self) -> tuple[dict[str, Any], ...]:
        return tuple(
            seat_summary(self.name) if level is None else seat_summary(f"Bot {i + 1}", bot=level)
            for i, level in enumerate(self.levels)
        )

    def _send_table(self) -> None:
        if self.state is None or self._closed:
            return
        view = self.state.view(HUMAN)
        self.connection.deliver(table_message(TABLE_ID, self._seats(), HUMAN, view))

    def _notice(self, text: str) -> None:
        if not self._closed:
            self.connection.deliver(notice(text))

    # -- bots --------------------------------------------------------------------

    def _kick(self) -> None:
        """Start the bots' task if a bot is to move and none is running."""
        state = self.state
        if state is None or state.is_over or self.levels[state.current_player] is None:
            return
        if self._bots is None or self._bots.done():
            self._bots = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        while (state := self.state) is not None and not state.is_over:
            seat = state.current_player
            level = self.levels[seat]
            if level is None:
                return
            view = state.view(seat)
            seed = (
                state.seed * 1_000_003 + state.turn * 16 + seat * 2 + (state.phase == "return")
            ) & 0xFFFFFFFF
            started = asyncio.get_running_loop().time()
            try:
                move = await asyncio.to_thread(self.chooser, view, level, seed)
            except Exception:  # a broken bot must not stop the game
                log.exception(
                    "bot %s failed at turn %d; playing a fallback move", level, state.turn
                )
                move = fallback_move(view, level, seed)
            if move not in view.legal_moves:
                log.error("bot %s chose illegal %s at turn %d", level, move, state.turn)
                move = fallback_move(view, level, seed)
            thought = asyncio.get_running_loop().time() - started
            if self.bot_delay > thought:  # let a human see each move, however fast the bot
                await asyncio.sleep(self.bot_delay - thought)
            if self.state is not state:  # the table was left meanwhile
                return
            self.state = state.apply(move)
            self.moves.append(str(move))
            self._send_table()
