"""Fixtures for the game-host tests: one bot process pool for the session, a fresh host
(and data directory) per test."""

from __future__ import annotations

import multiprocessing
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hostkit import make_host

from server.host import GameHost


@pytest.fixture(scope="session")
def bot_executor() -> Iterator[ProcessPoolExecutor]:
    """The bots' process pool, shared by every test (starting workers is the slow part)."""
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
async def host(tmp_path: Path, bot_executor: ProcessPoolExecutor) -> AsyncIterator[GameHost]:
    h = make_host(tmp_path, bot_executor)
    await h.start()
    yield h
    await h.stop()
