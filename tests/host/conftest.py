"""Fixtures for the game-host tests: hosts started on the suite's bot process pool
(`bot_executor`, tests/conftest.py) and stopped by the end of the test, and a fresh host
(data directory and database) per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hostkit import FakeClock, StartHost, make_host, quick_settings

from server.host.gamehost import GameHost
from server.host.hostsettings import HostSettings


@pytest.fixture
def clock() -> FakeClock:
    """The time the host's clocks count (deadlines, absences): the test moves it."""
    return FakeClock()


@pytest.fixture
async def start_host(tmp_path: Path, bot_executor: ProcessPoolExecutor) -> AsyncIterator[StartHost]:
    """Starts a test's hosts (`make_host`'s, in `tmp_path` unless given a directory);
    every one the test has not stopped (a restart stops the first itself) stops after it."""
    started: list[GameHost] = []

    async def start(
        data_dir: Path | None = None, settings: HostSettings | None = None, **wiring: Any
    ) -> GameHost:
        host = make_host(data_dir or tmp_path, bot_executor, settings, **wiring)
        started.append(host)
        await host.start()
        return host

    yield start
    for host in reversed(started):
        await host.stop()  # nothing to do for one already stopped


@pytest.fixture
async def host(start_host: StartHost, database: str, clock: FakeClock) -> GameHost:
    """A started host on each backend (`database`: SQLite, then PostgreSQL), its clocks
    counting the test's time (`clock`)."""
    return await start_host(settings=quick_settings(now=clock), database=database)
