"""For the lock tests (issue 33): who holds a game's lock and how many moves it has, seen
from the database (`pg_locks`, `pg_stat_activity`, `moves`), sampled while faults happen,
and a backend ended as an admin would."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import asyncpg

from server.store.pglocks import LOCK_CLASS, game_key

BOUND = 300  # tries of 0.05 s at most for anything awaited (15 s)

# How many moves a game has and who holds its lock, by the application_name of the lock
# connection: one statement, so one moment.
SAMPLE = """
SELECT (SELECT count(*) FROM moves WHERE game = $3),
       ARRAY(SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)
             WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2
             AND l.objsubid = 2 AND l.granted)
"""


def lock_name(store: Any) -> str:
    """The application_name of a store's lock connection."""
    return str(store._locks._name)


def name_pid(name: str) -> int:
    """The process id in a lock connection's name (``splendor-locks HOST:PID:TAG``)."""
    return int(name.rsplit(":", 2)[-2])


async def sample(admin: asyncpg.Connection, game: str) -> tuple[int, tuple[str, ...]]:
    count, names = await admin.fetchrow(SAMPLE, LOCK_CLASS, game_key(game) & 0xFFFFFFFF, game)
    return int(count), tuple(names)


async def until(
    done: Callable[[], bool], what: str, tries: int = BOUND, why: Callable[[], str] | None = None
) -> None:
    """Wait (`tries` times 0.05 s at most) until `done()`; else fail, saying `what` (or
    what `why()` says then)."""
    for _ in range(tries):
        if done():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {why() if why is not None else what}")


async def cut(url: str, pid: int | None) -> None:
    """End one backend as an admin would, waiting until it has exited (PostgreSQL 14+)."""
    assert pid is not None
    admin = await asyncpg.connect(url)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
    finally:
        await admin.close()


async def cut_named(url: str, name: str) -> None:
    """End the backend of the connection called `name`."""
    admin = await asyncpg.connect(url)
    try:
        pid = await admin.fetchval(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1", name
        )
    finally:
        await admin.close()
    await cut(url, pid)


class Watch:
    """Samples, every 0.05 s, how many moves `game` has and who holds its lock, from a
    connection of its own (made again when the database restarts). `note` goes with each
    sample (what the test is doing then)."""

    def __init__(self, url: str, game: str) -> None:
        self.url, self.game = url, game
        self.samples: list[tuple[int, tuple[str, ...], str]] = []
        self.gaps: list[str] = []  # why a sample could not be taken
        self.note = ""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        admin: asyncpg.Connection | None = None
        try:
            while True:
                await asyncio.sleep(0.05)
                try:
                    admin = admin if admin is not None else await asyncpg.connect(self.url)
                    count, names = await sample(admin, self.game)
                except Exception as e:  # the database away: a sample later
                    self.gaps.append(repr(e))
                    if admin is not None:
                        admin.terminate()
                    admin = None
                    continue
                self.samples.append((count, names, self.note))
        finally:
            if admin is not None:
                admin.terminate()

    @property
    def moves(self) -> int:
        return self.samples[-1][0] if self.samples else 0

    @property
    def holder(self) -> str | None:
        names = self.samples[-1][1] if self.samples else ()
        return names[0] if names else None

    async def moves_past(self, count: int, tries: int = BOUND) -> None:
        seen = lambda: f"{count} moves (samples {self.samples[-3:]}, gaps {self.gaps[-2:]})"  # noqa: E731
        await until(lambda: self.moves >= count, "", tries, seen)

    def one_holder_at_most(self, names: set[str]) -> None:
        """At every sample, one of `names` held the lock, or nobody did."""
        for _, held_by, note in self.samples:
            assert len(held_by) <= 1 and set(held_by) <= names, (held_by, note)
