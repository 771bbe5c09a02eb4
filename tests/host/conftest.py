"""Fixtures for the game-host tests: a fresh host (data directory and database) per test,
on the suite's bot process pool (`bot_executor`, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hostkit import FakeClock, make_host, quick_settings

from server.host import GameHost


@pytest.fixture
def clock() -> FakeClock:
    """The time the host's clocks count (deadlines, absences): the test moves it."""
    return FakeClock()


@pytest.fixture
async def host(
    tmp_path: Path, bot_executor: ProcessPoolExecutor, database: str, clock: FakeClock
) -> AsyncIterator[GameHost]:
    """A started host on each backend (`database`: SQLite, then PostgreSQL), its clocks
    counting the test's time (`clock`)."""
    h = make_host(tmp_path, bot_executor, quick_settings(now=clock), database=database)
    await h.start()
    yield h
    await h.stop()
