"""Background tasks (`server.host.tasks.Tasks`): a failure is logged, never lost, and a task
cancelled before its first step leaves no coroutine "never awaited" behind."""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings

import pytest

from server.host.tasks import Tasks


class Expected(Exception):
    pass


async def fail(e: Exception) -> None:
    await asyncio.sleep(0)
    raise e


async def test_an_expected_failure_is_a_line_and_any_other_a_trace(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tasks = Tasks("following", (Expected,))
    with caplog.at_level(logging.INFO, logger="splendor"):
        tasks.spawn(fail(Expected("the store is busy")))
        tasks.spawn(fail(ValueError("a bug")))
        await tasks.wait()
    by_level = {r.levelno: r for r in caplog.records}
    assert by_level[logging.INFO].getMessage() == "following: not done: the store is busy"
    assert by_level[logging.INFO].exc_info is None
    assert by_level[logging.ERROR].getMessage() == "following: failed"
    assert by_level[logging.ERROR].exc_info is not None  # the trace


async def test_tasks_cancelled_before_their_first_step_leave_no_coroutine_unawaited() -> None:
    ran: list[str] = []

    async def presence() -> None:
        ran.append("presence")

    tasks = Tasks("following")
    coros = [presence() for _ in range(3)]
    for coro in coros:
        tasks.spawn(coro)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        await tasks.cancel()  # before any of them took a step
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        gc.collect()
    assert ran == []
    assert all(coro.cr_frame is None for coro in coros)  # closed, not left pending
    assert [str(w.message) for w in caught if w.category is RuntimeWarning] == []
