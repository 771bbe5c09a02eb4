"""Fixtures for the game-host tests: a fresh host (data directory and database) per test,
on the suite's bot process pool (`bot_executor`, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hostkit import make_host

from server.host import GameHost


@pytest.fixture
async def host(
    tmp_path: Path, bot_executor: ProcessPoolExecutor, database: str
) -> AsyncIterator[GameHost]:
    """A started host on each backend (`database`: SQLite, then PostgreSQL)."""
    h = make_host(tmp_path, bot_executor, database=database)
    await h.start()
    yield h
    await h.stop()
