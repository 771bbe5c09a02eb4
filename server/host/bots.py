"""Bots off the event loop: a process pool running the bots' pure entry point.

The host never runs a bot on its event loop. `BotPool.choose` encodes the
bot's seat view (the same view a human in that seat gets) with its level, a
seed and a deadline (`shared.bots.encode_request`) and runs
`shared.bots.choose_move_bytes` in a worker process. At most one request per
worker is handed to the pool at a time, so a request's deadline (budget +
`GRACE`) counts only its own thinking, never its wait in the queue. Whatever
goes wrong (a crash, a hung worker, a move that is not legal), the pool
answers with `fallback_choose_move_bytes`, a plain legal move from the view,
so a table never stalls on a bot. Workers exit when the server process dies, however
it dies (`_exit_with_parent`), and the pool's helpers then follow.

The workers start in the background (`BotPool.start`): neither a server's first sessions
nor offline play's first screen waits for them; a request made while they start waits.
The bots' code (`shared.bots`) is the workers'; the host imports it at its first request.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait
from typing import Any

from shared.cards import card
from shared.codec import loads
from shared.i18n import L_, Text
from shared.moves import Buy, Move, Reserve, ReserveDeck, Return, Take, parse_move
from shared.view import PlayerView

log = logging.getLogger("splendor")

# Deadlines per move by level, in seconds. Each level thinks for its own fixed budget
# (hard: an iteration count of about 1 s of CPU, shared.bots.hard.ITERATIONS), so these
# are safety caps: one binds only on a busy machine, and the bot then answers with its
# best move so far.
DEFAULT_BUDGETS: dict[str, float] = {"easy": 0.05, "medium": 0.2, "hard": 3.0}
GRACE = 2.0  # seconds past the budget before the host stops waiting for a worker


def bot_seed(game_seed: int, seq: int) -> int:
    """A bot's seed for move `seq` of a game: deterministic, different at every move."""
    return (game_seed ^ ((seq + 1) * 0x9E3779B97F4A7C15)) & ((1 << 63) - 1)


def bot_request(view: PlayerView, level: str, seed: int, budget: float) -> bytes:
    """The bytes a bot process gets: its view and nothing else it could cheat with."""
    from shared.bots import encode_request  # the bots' code: imported at the first bot move

    return encode_request(view, level, seed, float(budget))


def fallback_move(view: PlayerView, seed: int) -> Move:
    """A plain legal move, deterministic for a seed: the stand-in when a bot fails, and a
    bot-independent opponent for tests. Buys the best card, else takes the gems the
    table's cards need, else reserves; returns the tokens held most (R13)."""
    rng = random.Random(seed)
    legal = view.legal_moves
    if not legal:
        raise ValueError("the bot has no decision to make")
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
    return rng.choice(takes or list(legal))


def fallback_choose_move_bytes(data: bytes) -> str:
    """`fallback_move` in the shape of `choose_move_bytes` (a request in, notation out)."""
    msg = loads(data)
    return str(fallback_move(msg["view"], int(msg.get("seed", 0))))


def run_bot(data: bytes) -> str:
    """What a worker process runs: the bots' pure entry point (`shared.bots`)."""
    from shared.bots import choose_move_bytes

    return choose_move_bytes(data)


def run_explain(data: bytes) -> tuple[str, str | Text]:
    """What a worker runs for a hint: the move and the reason, a marked message that each
    player reads in their language (`shared.bots.explain_said`)."""
    from shared.bots import explain_said_bytes

    return explain_said_bytes(data)


BotRunner = Callable[[bytes], str]  # a request's bytes in, a move's notation out
Explainer = Callable[[bytes], tuple[str, str | Text]]  # a request in, a move and a reason out


class HintError(Exception):
    """No hint could be worked out (the worker failed or was too slow); the message says so."""


def _warm() -> int:
    """Run once in each worker at start so the first bot move does not pay for imports."""
    import shared.bots  # noqa: F401

    return os.getpid()


def _init_worker(niceness: int) -> None:
    """Set up a bot worker: a lower priority (when the machine is busy, the event loop
    serving every player's keystrokes comes before a bot's thinking), an exit as soon
    as the server is gone, and no Ctrl-C of its own: the terminal sends SIGINT to the
    whole process group, and the server, which shuts the pool down, is the one to act
    on it (a worker would print a KeyboardInterrupt trace over the server's log)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness:
        try:
            os.nice(niceness)
        except OSError:
            pass
    _exit_with_parent()


def _exit_with_parent() -> None:
    """End this worker the moment the process that started it dies, SIGKILL included.

    Nothing else would: a pool worker waits on its call queue, and it holds that queue's
    write end itself, so the queue never reports EOF. The worker also holds the write
    ends that the forkserver ("alive") and the resource tracker wait on, by design: they
    exit once every process of the program has closed them. So a worker that outlives
    its server keeps all three alive for good. The parent's sentinel is a pipe whose
    other end only the parent holds: it reads as EOF once the parent is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="splendor-parent-watch", daemon=True).start()


def _start_helpers(context: Any) -> None:
    """Start multiprocessing's helper processes of `context` now, on this thread, without
    waiting for them: the forkserver (workers are forked from it) and the resource tracker.
    Not in the thread that then starts the workers: the tracker is handed this process's
    stderr as it is at that moment, and a running app (offline play) stands in for stderr
    with an object that has no file descriptor."""
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()  # which starts the resource tracker first
    else:
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()


def process_pool(workers: int, niceness: int = 10) -> ProcessPoolExecutor:
    """A pool of `workers` bot processes at `niceness` that end with this process."""
    return ProcessPoolExecutor(
        workers, mp_context=_pool_context(), initializer=_init_worker, initargs=(niceness,)
    )


def _pool_context() -> Any:
    """forkserver where there is one: forking a process with threads (the store's writer,
    asyncssh) is unsafe, and spawn pays a fresh interpreter per worker."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class BotPool:
    """Runs bot decisions in worker processes; `choose` always returns a legal move."""

    def __init__(
        self,
        workers: int | None = None,
        budgets: dict[str, float] | None = None,
        executor: Executor | None = None,
        runner: BotRunner = run_bot,
        explainer: Explainer = run_explain,
    ) -> None:
        self.budgets = dict(DEFAULT_BUDGETS if budgets is None else budgets)
        self.runner = runner  # what the executor runs: a module-level function (pickled)
        self.explainer = explainer  # the same for hints
        self._workers = workers or max(1, min(2, os.cpu_count() or 1))
        self._executor = executor
        self._own = executor is None
        self._slots = asyncio.Semaphore(self._workers)
        self._warming: asyncio.Task[None] | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = process_pool(self._workers)
        return self._executor

    def start(self) -> asyncio.Task[None]:
        """Start the workers in the background, once (again after a pool broke): the task
        ends when they are up. The helper processes start here and now (`_start_helpers`)."""
        if self._warming is None or (self._warming.done() and self._executor is None):
            if self._own and self._executor is None:
                _start_helpers(_pool_context())
            self._warming = asyncio.get_running_loop().create_task(self.warm_up())
        return self._warming

    async def warm_up(self, timeout: float = 20.0) -> None:
        """Start the workers now (best effort) rather than at the first bot move. Starting a
        worker waits for the forkserver to be up, so they are started from a thread: the
        event loop never waits for a worker process to start."""
        pool = self._pool()
        try:
            started = await asyncio.to_thread(
                lambda: [pool.submit(_warm) for _ in range(self._workers)]
            )
        except Exception:
            log.warning("bot workers failed to start", exc_info=True)
            return
        futures = [asyncio.wrap_future(f) for f in started]
        done, pending = await asyncio.wait(futures, timeout=timeout)
        if pending or any(f.exception() is not None for f in done):
            log.warning("bot workers were slow to start or failed to")

    async def _started(self) -> None:
        """Before a request: wait while the workers start (starting them if none are), so
        that no request starts a worker process on the event loop."""
        if self._own and self._executor is None:
            self.start()
        if self._warming is not None and not self._warming.done():
            await asyncio.shield(self._warming)

    def budget(self, level: str) -> float:
        return self.budgets.get(level, DEFAULT_BUDGETS.get(level, 0.2))

    async def choose(self, view: PlayerView, level: str, seed: int) -> Move:
        """The bot's move for `view` (which must hold its legal moves)."""
        legal = view.legal_moves
        if not legal:
            raise ValueError("not the bot's decision")
        budget = self.budget(level)
        data = bot_request(view, level, seed, budget)
        try:
            await self._started()
            async with self._slots:
                fut = asyncio.get_running_loop().run_in_executor(self._pool(), self.runner, data)
                text = await asyncio.wait_for(fut, budget + GRACE)
            move = parse_move(text)
            if move in legal:
                return move
            log.error("bot %s chose %r, not a legal move; playing a fallback", level, text)
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            log.error("bot %s took more than %.1fs; playing a fallback", level, budget + GRACE)
        except BrokenProcessPool:
            log.error("a bot worker died; new workers start, and this move is a fallback")
            self._drop_pool()
        except Exception:
            log.exception("bot %s failed; playing a fallback", level)
        return parse_move(fallback_choose_move_bytes(data))

    async def explain(self, view: PlayerView, level: str, seed: int) -> tuple[Move, str | Text]:
        """The move a bot of `level` would play from `view` and why (a hint for the human in
        that seat), worked out in a worker like a bot's move; `HintError` if it fails."""
        if not view.legal_moves:
            raise ValueError("not this seat's decision")
        budget = self.budget(level)
        data = bot_request(view, level, seed, budget)
        try:
            await self._started()
            async with self._slots:
                fut = asyncio.get_running_loop().run_in_executor(self._pool(), self.explainer, data)
                text, why = await asyncio.wait_for(fut, budget + GRACE)
            move = parse_move(text)
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool:
            self._drop_pool()
            raise HintError(L_("no hint this time: a bot worker stopped; try again")) from None
        except Exception:
            log.exception("a hint (%s) failed", level)
            raise HintError(L_("no hint this time; try again")) from None
        if move not in view.legal_moves:
            log.error("a hint (%s) gave %r, not a legal move", level, text)
            raise HintError(L_("no hint this time; try again"))
        return move, why

    def _drop_pool(self) -> None:
        """Let go of a pool that cannot run anything any more: the next move starts a new
        one (a pool given by the caller is the caller's to replace)."""
        if self._own:
            self.shutdown()

    def shutdown(self) -> None:
        """Stop the workers without waiting for a decision in flight."""
        if self._executor is not None and self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        self._warming = None  # the next request starts new workers
