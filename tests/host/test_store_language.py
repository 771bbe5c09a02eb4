"""The language a player chose (issue 34, schema 6): kept with their name and key on
each backend, none for a name no key owns, and copied with the names."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hostkit import opened, sqlite_at

from server.store import SqliteStore
from server.store.schema import LATEST


async def test_a_players_language_is_kept_with_their_name(database: str) -> None:
    store = await opened(database)
    try:
        assert await store.claim_name("ann", "SHA256:ann")
        assert await store.language("ann") is None  # none chosen: the environment decides
        await store.set_language("Ann", "fa", "visual")
        assert await store.language("ann") == ("fa", "visual")
        await store.set_language("ann", "cs")
        assert await store.language("ANN") == ("cs", None)
        await store.set_language("guest-bob", "hu")  # no key owns it: nothing kept
        assert await store.language("guest-bob") is None
    finally:
        await store.close()


async def test_a_database_of_schema_5_gains_the_language_column(tmp_path: Path) -> None:
    path = tmp_path / "five.db"
    db = sqlite_at(path, 5)
    db.execute("INSERT INTO names VALUES ('ann', 'SHA256:ann', 0)")
    db.commit()
    db.close()
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.language("ann") is None
        await store.set_language("ann", "hu")
        assert await store.language("ann") == ("hu", None)
    finally:
        await store.close()
    version = sqlite3.connect(path).execute("SELECT version FROM schema_version").fetchone()
    assert version == (LATEST,) == (8,)
