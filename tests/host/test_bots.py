"""The bots' process pool: a legal move always, whatever happens to the worker."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

import pytest

from server.host import bots as bots_module
from server.host.bots import BotPool, bot_request, fallback_choose_move_bytes, run_bot
from shared.bots import choose_move
from shared.deal import new_game
from shared.moves import parse_move
from shared.settings import GameSettings


def _positions(n: int = 40) -> list[Any]:
    out, state = [], new_game(GameSettings(3), 11)
    while len(out) < n and not state.is_over:
        out.append(state)
        state = state.apply(state.legal_moves()[len(out) % len(state.legal_moves())])
    return out


def test_the_fallback_bot_is_legal_and_deterministic() -> None:
    for state in _positions():
        view = state.view(state.current_player)
        data = bot_request(view, "easy", 3, 0.01)
        move = parse_move(fallback_choose_move_bytes(data))
        assert move in view.legal_moves
        assert fallback_choose_move_bytes(data) == str(move)
        assert parse_move(run_bot(data)) in view.legal_moves


async def test_bots_think_in_another_process(bot_executor: Executor) -> None:
    loop = asyncio.get_running_loop()
    worker_pid = await loop.run_in_executor(bot_executor, bots_module._warm)
    assert worker_pid != os.getpid()
    pool = BotPool(budgets={"medium": 0.01}, executor=bot_executor)
    for state in _positions(12)[::3]:
        view = state.view(state.current_player)
        move = await pool.choose(view, "medium", 77)
        assert move == choose_move(view, "medium", 77)  # the real bot, from the view alone


class _Broken(ThreadPoolExecutor):
    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        raise RuntimeError("the pool is gone")


class _Stuck(ThreadPoolExecutor):
    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()  # never finishes


class _Liar(ThreadPoolExecutor):
    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        f.set_result("buy 3-01")  # not legal at the start
        return f


@pytest.mark.parametrize("executor", [_Broken, _Stuck, _Liar])
async def test_a_failing_bot_still_yields_a_legal_move(
    executor: type[ThreadPoolExecutor], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bots_module, "GRACE", 0.05)
    with executor(1) as ex:
        pool = BotPool(budgets={"hard": 0.01}, executor=ex)
        state = new_game(GameSettings(2), 9)
        move = await pool.choose(state.view(state.current_player), "hard", 1)
        assert move in state.legal_moves()


async def test_a_dead_worker_is_replaced_and_the_bots_play_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker killed (out of memory, say) breaks its pool: that move is a fallback, and
    the next ones come from new workers, from the real bot again."""
    pool = BotPool(workers=1, budgets={"easy": 0.01})
    try:
        await pool.warm_up()
        executor = pool._pool()
        assert isinstance(executor, bots_module.ProcessPoolExecutor)
        for pid in list(executor._processes):  # the only way to reach a pool's workers
            os.kill(pid, signal.SIGKILL)
        state = new_game(GameSettings(2), 9)
        view = state.view(state.current_player)
        for _ in range(50):  # the pool notices the death on its next use
            if pool._executor is not executor:
                break
            assert await pool.choose(view, "easy", 5) in view.legal_moves
        assert "a bot worker died" in caplog.text
        assert pool._executor is not executor
        assert await pool.choose(view, "easy", 5) == choose_move(view, "easy", 5)
    finally:
        pool.shutdown()
