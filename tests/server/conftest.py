"""Fixtures for the SSH server tests: a real server on port 0 per test, fresh client keys.
(The game tests' bot pool, `bot_executor`, is the suite's: tests/conftest.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
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
