"""Fixtures for the client tests: apps on the server's own game host, run offline."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from clientkit import MakeOffline, Offline


@pytest.fixture
async def offline(tmp_path: Path) -> AsyncIterator[MakeOffline]:
    """`await offline(**options)`: a started `Offline` (host and app, not yet running);
    every one made is stopped at the end of the test."""
    kits: list[Offline] = []

    async def make(**options: Any) -> Offline:
        kit = Offline(tmp_path / f"host{len(kits)}", **options)
        kits.append(kit)
        await kit.start()
        return kit

    yield make
    for kit in kits:
        await kit.stop()
