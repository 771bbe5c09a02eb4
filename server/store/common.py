"""What the two backends (`server.store.sqlite`, `server.store.postgres`) do alike, written
once: the migrations a database needs, statements they run as they are (with `?`
placeholders; `queries.pg` numbers them for PostgreSQL), and a game's ending's arguments."""

from __future__ import annotations

import json
import time
from typing import Any

from .queries import COPIED
from .records import CLOSED, PLAYING, WAITING
from .schema import LATEST, too_new

NAME_OWNER = "SELECT key FROM names WHERE name = ?"
ADD_NAME = "INSERT INTO names (name, key, claimed) VALUES (?, ?, ?)"
MOVES_FROM = "SELECT notation FROM moves WHERE game = ? AND seq >= ? ORDER BY seq"
DROP_SNAPSHOTS = "DELETE FROM snapshots WHERE game = ?"
GAME_STATUS = "SELECT status FROM games WHERE id = ?"
# Rewritten as each migration ends: the version a database is at.
VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
    "DELETE FROM schema_version;"
)
SET_VERSION = "INSERT INTO schema_version (version) VALUES (?)"


def migrations(found: int) -> range:
    """The versions to migrate a database at version `found` through, in order;
    `SchemaTooNew` if a newer server wrote it."""
    if found > LATEST:
        raise too_new(found)
    return range(found + 1, LATEST + 1)


def finish_args(game: str, status: str, outcome: dict[str, Any] | None) -> tuple[Any, ...]:
    """`records.FINISH`'s parameters: a game in progress ends, or a waiting table closes."""
    was = PLAYING if status != CLOSED else WAITING
    data = None if outcome is None else json.dumps(outcome)
    return (status, time.time(), data, game, was)


def select_all(table: str) -> str:
    """The rows of `table` a copy takes, in `COPIED`'s columns' order."""
    return f"SELECT {', '.join(COPIED[table])} FROM {table}"
