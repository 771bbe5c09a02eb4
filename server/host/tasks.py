"""Background work that must not die in silence: each task's failure is logged."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger("splendor")


class Tasks:
    """Coroutines run in the background for one owner (`what`, for the log). A failure of
    one of the `expected` kinds is an INFO line; any other is logged with its trace."""

    def __init__(self, what: str, expected: tuple[type[BaseException], ...] = ()) -> None:
        self.what = what
        self.expected = expected
        self._running: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        # The coroutine is the task itself: one cancelled before its first step is closed
        # by asyncio (a wrapper coroutine would leave it "never awaited").
        task = asyncio.get_running_loop().create_task(coro)
        self._running.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if task.cancelled():
            return
        e = task.exception()
        if e is None:
            return
        if isinstance(e, self.expected):
            log.info("%s: not done: %s", self.what, e)
        else:
            log.error("%s: failed", self.what, exc_info=e)

    async def wait(self) -> None:
        """Let the tasks under way finish."""
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def cancel(self) -> None:
        for task in list(self._running):
            task.cancel()
        await self.wait()
