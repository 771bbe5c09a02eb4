"""Bots off the event loop: a process pool running the bots' pure entry point.

The host never runs a bot on its event loop. `BotPool.choose` encodes the
bot's seat view (the same view a human in that seat gets) with its level, a
seed and a time budget (`shared.bots.encode_request`) and runs
`shared.bots.choose_move_bytes` in a worker process. At most one request per
worker is handed to the pool at a time, so a request's deadline (budget +
`GRACE`) counts only its own thinking, never its wait in the queue. Whatever
goes wrong (a crash, a hung worker, a move that is not legal), the pool
answers with `fallback_choose_move_bytes`, a plain legal move from the view,
so a table never stalls on a bot. Workers exit when the server process dies, however
it dies (`_exit_with_parent`), and the pool's helpers then follow.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing.connection import wait
from typing import Any

from shared.bots import choose_move_bytes, encode_request
from shared.codec import loads
from shared.moves import BUY, PASS, RETURN, TAKE, Move, parse_move
from shared.view import PlayerView

log = logging.getLogger("splendor")

# Thinking time per move by level, in seconds (the hard bot's is at most 1 s).
DEFAULT_BUDGETS: dict[str, float] = {"easy": 0.05, "medium": 0.2, "hard": 1.0}
GRACE = 2.0  # seconds past the budget before the host stops waiting for a worker


def bot_seed(game_seed: int, seq: int) -> int:
    """A bot's seed for move `seq` of a game: deterministic, different at every move."""
    return (game_seed ^ ((seq + 1) * 0x9E3779B97F4A7C15)) & ((1 << 63) - 1)


def bot_request(view: PlayerView, level: str, seed: int, budget: float) -> bytes:
    """The bytes a bot process gets: its view and nothing else it could cheat with."""
    return encode_request(view, level, seed, float(budget))


def fallback_choose_move_bytes(data: bytes) -> str:
    """A plain bot in the shape of `choose_move_bytes`, for when the real one fails: buys a
    card when it can, else takes tokens (never reserves); deterministic for a seed."""
    msg = loads(data)
    view: PlayerView = msg["view"]
    rng = random.Random(int(msg.get("seed", 0)))
    legal = list(view.legal_moves)
    if not legal:
        raise ValueError("the bot has no decision to make")
    by_kind: dict[int, list[Move]] = {}
    for m in legal:
        by_kind.setdefault(m.kind, []).append(m)
    for kind in (BUY, TAKE, RETURN, PASS):
        if by_kind.get(kind):
            return str(rng.choice(by_kind[kind]))
    return str(rng.choice(legal))


def run_bot(data: bytes) -> str:
    """What a worker process runs: the bots' pure entry point (issue 3)."""
    return choose_move_bytes(data)


def _warm() -> int:
    """Run once in each worker at start so the first bot move does not pay for imports."""
    import shared.bots  # noqa: F401

    return os.getpid()


def _init_worker(niceness: int) -> None:
    """Set up a bot worker: a lower priority (when the machine is busy, the event loop
    serving every player's keystrokes comes before a bot's thinking), and an exit as
    soon as the server is gone."""
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
    ) -> None:
        self.budgets = dict(DEFAULT_BUDGETS if budgets is None else budgets)
        self._workers = workers or max(1, min(2, os.cpu_count() or 1))
        self._executor = executor
        self._own = executor is None
        self._slots = asyncio.Semaphore(self._workers)

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = process_pool(self._workers)
        return self._executor

    async def warm_up(self, timeout: float = 20.0) -> None:
        """Start the workers now (best effort) rather than at the first bot move."""
        loop = asyncio.get_running_loop()
        futures = [loop.run_in_executor(self._pool(), _warm) for _ in range(self._workers)]
        done, pending = await asyncio.wait(futures, timeout=timeout)
        if pending or any(f.exception() is not None for f in done):
            log.warning("bot workers were slow to start or failed to")

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
            async with self._slots:
                fut = asyncio.get_running_loop().run_in_executor(self._pool(), run_bot, data)
                text = await asyncio.wait_for(fut, budget + GRACE)
            move = parse_move(text)
            if move in legal:
                return move
            log.error("bot %s chose %r, not a legal move; playing a fallback", level, text)
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            log.error("bot %s took more than %.1fs; playing a fallback", level, budget + GRACE)
        except Exception:
            log.exception("bot %s failed; playing a fallback", level)
        return parse_move(fallback_choose_move_bytes(data))

    def shutdown(self) -> None:
        """Stop the workers without waiting for a decision in flight."""
        if self._executor is not None and self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
