"""Fixtures for the SSH server tests: a real server on port 0 per test, fresh client keys."""

from __future__ import annotations

import multiprocessing
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import asyncssh
import pytest
from sshkit import Running, running_server


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Running]:
    """The transport under test, with the small echo app and a fake host."""
    async with running_server(tmp_path) as running:
        yield running


@pytest.fixture
def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture(scope="session")
def bot_executor() -> Iterator[ProcessPoolExecutor]:
    """The bots' process pool for the game tests (starting workers is the slow part)."""
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)
